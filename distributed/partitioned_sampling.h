// Graph-partitioned sampling in one object: the 1.5D adjacency, the distributed
// product and backend, and samplers that hold placeholders bound to them.
//
//   PartitionedSampling graph(grid, read_block_row(path, grid), GraphProduct::Exchange::sparsity_aware);
//   auto sampler = graph.graphsage({15, 10, 5}, seed);
//   EpochIterator epoch(*sampler, graph.backend(), train, share_of_epoch(...));
//   while (epoch.next(&bulk)) ...
//   graph.finish();   // serve the other process rows until they are done too
#pragma once
#include <memory>
#include <optional>

#include "distributed_backend.h"
#include "distributed_layerwise.h"

namespace matsamp {

class PartitionedSampling {
 public:
  PartitionedSampling(ProcessGrid& grid, DistributedCsr adj, GraphProduct::Exchange exchange,
                      std::unique_ptr<Backend> local = make_cpu_backend());
  PartitionedSampling(const PartitionedSampling&) = delete;   // samplers hold our addresses
  PartitionedSampling& operator=(const PartitionedSampling&) = delete;

  DistributedBackend& backend() { return backend_; }
  int64_t vertices() const { return adj_.rows(); }
  const DistributedCsr& adjacency() const { return adj_; }
  // Null until layerwise() has prepared them.
  const DistributedLayerWise* layerwise_matrices() const { return layerwise_ ? &*layerwise_ : nullptr; }
  GraphProduct& product() { return product_; }

  std::unique_ptr<Sampler> graphsage(std::vector<int64_t> fanouts, uint64_t seed);
  // LABOR-0: each layer's rows fetched whole (DistributedBackend::labor_sample_rows).
  std::unique_ptr<Sampler> labor(std::vector<int64_t> fanouts, uint64_t seed);
  // Collective on first use: prepares Â, Â∘Â and the column norms distributed.
  std::unique_ptr<Sampler> layerwise(LayerWiseKind kind, std::vector<int64_t> samples_per_layer, uint64_t seed,
                                     bool include_frontier = true);
  // Collective on first use, as layerwise(): the walks read the adjacency, the layers Â.
  // GraphSAINT's edge sampler needs the whole adjacency: an error here.
  std::unique_ptr<Sampler> saint(SaintOptions options, uint64_t seed);

  // Collective over the process column; call after this rank's last minibatch.
  void finish() { product_.finish(); }

 private:
  // The placeholders of Â and Â∘Â the samplers hold, bound to the distributed matrices.
  std::shared_ptr<const LayerWiseMatrices> layerwise_view();

  ProcessGrid& grid_;
  DistributedCsr adj_;
  CsrMatrix adj_placeholder_;
  GraphProduct product_;
  DistributedBackend backend_;
  std::optional<DistributedLayerWise> layerwise_;
};

}  // namespace matsamp
