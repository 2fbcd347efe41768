// A heterogeneous graph partitioned for sampling: each relation's A_r in the
// 1.5D layout (block rows of its destination type over the process rows), all
// of them operands of one distributed product, so that the node-wise sampler
// runs on it unchanged, each relation's rows sampled at their owners (and the
// layer-wise sampler's stacked relations multiplied where they lie).
//
//   PartitionedHetero graph(grid, g, GraphProduct::Exchange::sparsity_aware);
//   HeteroNeighborSampler sampler(graph.relations(), fanouts);
//   HeteroLayerWiseSampler layer_wise(g, budgets, [&](CsrMatrix b) { return graph.distribute(b); });
//   sampler.sample(Context{graph.backend(), seed}, …) for this process row's minibatches
//   graph.finish();   // serve the other process rows until they are done too
#pragma once
#include <deque>
#include <memory>

#include "distributed_backend.h"
#include "sampling/hetero_sample.h"

namespace matsamp {

class PartitionedHetero {
 public:
  // Collective over the grid. `graph` gives the types and relations (every
  // rank holds it; only each A_r's block row is read) and must outlive this.
  PartitionedHetero(ProcessGrid& grid, const HeteroGraph& graph, GraphProduct::Exchange exchange,
                    std::unique_ptr<Backend> local = make_cpu_backend());
  PartitionedHetero(const PartitionedHetero&) = delete;  // handles refer to our blocks
  PartitionedHetero& operator=(const PartitionedHetero&) = delete;

  DistributedBackend& backend() { return backend_; }
  GraphProduct& product() { return product_; }
  // The relations as distributed handles of backend().
  HeteroRelations relations() const { return HeteroRelations(graph_, handles_); }
  // Collective: `whole` (the same on every rank) partitioned like the relations,
  // as a handle of backend(): how a layer-wise sampler places its matrices.
  Matrix distribute(const CsrMatrix& whole);
  // Collective over the process column; call after this rank's last minibatch.
  void finish() { product_.finish(); }

 private:
  const HeteroGraph& graph_;
  std::deque<DistributedCsr> blocks_;  // stable addresses: the product refers to them
  GraphProduct product_;
  DistributedBackend backend_;
  std::vector<Matrix> handles_;
};

}  // namespace matsamp
