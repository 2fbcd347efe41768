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
  CsrMatrix column_norms;     // FastGCN's 1 x n distribution, whole on every rank
};

// Collective over the grid. Each block row is bit-identical to the same rows of
// prepare_layerwise_matrices(whole adjacency), and so are the column norms: degrees
// are all-gathered in the process column, and the column sums are folded block by
// block down the process column in row order (the local spgemm's order).
DistributedLayerWise prepare_distributed_layerwise(const DistributedCsr& adj, ProcessGrid& grid);

}  // namespace matsamp
