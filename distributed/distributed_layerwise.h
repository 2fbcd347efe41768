// The layer-wise samplers' graph matrices (sampling/sampler.h, LayerWiseMatrices)
// prepared from a distributed adjacency without any rank holding all of it.
#pragma once
#include <memory>

#include "distributed_csr.h"
#include "sampling/sampling_graph.h"

namespace matsamp {

struct DistributedLayerWise {
  DistributedCsr normalized;  // block row of Â = D^-1/2 (A + I) D^-1/2
  DistributedCsr squared;     // block row of Â∘Â
};

// Collective over the grid. Each block row is bit-identical to the same rows of
// prepare_layerwise_matrices(whole adjacency): a block asks the other blocks of its
// process column for the degrees of the columns it touches outside its rows (memory
// and bytes sized by the block, not by n).
DistributedLayerWise prepare_distributed_layerwise(const DistributedCsr& adj, ProcessGrid& grid);

// Collective: FastGCN's 1 x n distribution, whole on every rank, equal to the single
// process's: the column sums of Â∘Â are folded block by block down the process column
// in row order (the local spgemm's order). O(n) per rank, so made only for FastGCN.
CsrMatrix distributed_column_norms(const DistributedLayerWise& m, ProcessGrid& grid);

}  // namespace matsamp
