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

// Collective: FastGCN's 1 x n distribution at this block's vertices (0 where the row
// has no entry), equal to the single process's: each column's values of Â∘Â go to the
// block owning the column and are summed there in row order (the local spgemm's
// order), and the normalizing sum is passed down the process column in column order.
std::vector<float> distributed_column_norms(const DistributedLayerWise& m, ProcessGrid& grid);

}  // namespace matsamp
