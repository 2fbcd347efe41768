// A graph-partitioned graph as the samplers read it: the 1.5D adjacency, the
// distributed product and backend, and the layer-wise matrices prepared
// distributed on first use. Samplers come from the registry as for any graph.
//
//   PartitionedSampling graph(grid, read_block_row(path, grid), GraphProduct::Exchange::sparsity_aware);
//   auto sampler = make_sampler("graphsage", graph, params);
//   EpochIterator epoch(*sampler, Context{graph.backend(), seed}, train, share_of_epoch(...));
//   while (epoch.next(&bulk)) ...
//   graph.finish();   // serve the other process rows until they are done too
#pragma once
#include <memory>
#include <optional>

#include "distributed_backend.h"
#include "distributed_layerwise.h"
#include "sampling/sampling_graph.h"

namespace matsamp {

class PartitionedSampling final : public SamplingGraph {
 public:
  // Collective over the grid.
  PartitionedSampling(ProcessGrid& grid, DistributedCsr adj, GraphProduct::Exchange exchange,
                      std::unique_ptr<Backend> local = make_cpu_backend(),
                      GraphProduct::RowWork work = GraphProduct::RowWork::shared);
  PartitionedSampling(const PartitionedSampling&) = delete;  // handles refer to our matrices
  PartitionedSampling& operator=(const PartitionedSampling&) = delete;

  DistributedBackend& backend() { return backend_; }
  const DistributedCsr& adjacency_block() const { return adj_; }
  // Null until a layer-wise or subgraph sampler has asked for them.
  const DistributedLayerWise* layerwise_matrices() const { return layerwise_ ? &*layerwise_ : nullptr; }
  GraphProduct& product() { return product_; }

  int64_t vertices() const override { return adj_.rows(); }
  const Matrix& adjacency() override { return adjacency_; }
  // Collective on first use (of any of the three): Â, Â∘Â and the column norms. The
  // column norms stay split by blocks (a shared row, O(n/p) per rank) unless the
  // exchange is oblivious, which holds them whole as it fetches blocks whole.
  const Matrix& normalized() override;
  const Matrix& squared() override;
  const Matrix& column_norms() override;
  // GraphSAINT's edge sampler looks its edges up in the whole adjacency: an error here.
  const Matrix& edge_probabilities() override;
  const Matrix& edge_endpoints() override;
  bool partitioned() const override { return true; }
  const CsrMatrix* host_adjacency() const override { return nullptr; }
  const CsrMatrix* host_normalized() override { return nullptr; }

  // Collective over the process column; call after this rank's last minibatch
  // (the same as backend().finish_collectives()).
  void finish() { product_.finish(); }

 private:
  void prepare_layerwise();

  ProcessGrid& grid_;
  DistributedCsr adj_;
  GraphProduct product_;
  DistributedBackend backend_;
  Matrix adjacency_;
  std::optional<DistributedLayerWise> layerwise_;
  // FastGCN's distribution, registered in place (each must outlive its handle): this
  // block's part, or with the oblivious exchange the whole row.
  std::optional<SharedRowBlock> column_norms_block_;
  CsrMatrix whole_column_norms_;
  Matrix normalized_, squared_, column_norms_;
};

}  // namespace matsamp
