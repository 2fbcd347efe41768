// A heterogeneous graph partitioned for sampling: each relation's A_r in the
// 1.5D layout (block rows of its destination type over the process rows), all
// of them operands of one distributed product, so that the node-wise sampler
// runs on it unchanged, each relation's rows sampled at their owners (and the
// layer-wise sampler's stacked relations multiplied where they lie).
//
//   HeteroBlocks part = read_hetero_blocks(path, grid, true);   // no rank reads it whole
//   PartitionedHetero graph(grid, part.schema, std::move(part.blocks), GraphProduct::Exchange::sparsity_aware);
//   HeteroNeighborSampler sampler(graph.relations(), fanouts);
//   sampler.sample(Context{graph.backend(), seed}, …) for this process row's minibatches
//   graph.finish();   // serve the other process rows until they are done too
#pragma once
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "distributed_backend.h"
#include "sampling/hetero_sample.h"

namespace matsamp {

// This rank's part of a heterogeneous graph: its types (labels and splits, no
// features) and relations shaped but without entries (validate_schema), and its
// block row of each relation.
struct HeteroBlocks {
  HeteroGraph schema;
  std::vector<DistributedCsr> blocks;  // per relation of the schema
};

// Collective over the grid: this rank's part of a heterogeneous .msg, reading
// only its block rows; with `add_reverse`, the relations add_reverse_relations
// would add (rows of A_r^T, by a distributed transpose). Ranks given different
// files, or a read failing on one, end every rank with one AgreedError.
HeteroBlocks read_hetero_blocks(const std::string& path, ProcessGrid& grid, bool add_reverse);

class PartitionedHetero {
 public:
  // Collective over the grid. `graph` gives the types and relations (every
  // rank holds it; only each A_r's block row is read) and must outlive this.
  PartitionedHetero(ProcessGrid& grid, const HeteroGraph& graph, GraphProduct::Exchange exchange,
                    std::unique_ptr<Backend> local = make_cpu_backend());
  // The same from this rank's blocks (`schema` may hold the relations' shapes only).
  PartitionedHetero(ProcessGrid& grid, const HeteroGraph& schema, std::vector<DistributedCsr> blocks,
                    GraphProduct::Exchange exchange, std::unique_ptr<Backend> local = make_cpu_backend());
  PartitionedHetero(const PartitionedHetero&) = delete;  // handles refer to our blocks
  PartitionedHetero& operator=(const PartitionedHetero&) = delete;

  DistributedBackend& backend() { return backend_; }
  GraphProduct& product() { return product_; }
  // The relations as distributed handles of backend().
  HeteroRelations relations() const { return HeteroRelations(graph_, handles_); }
  // Every relation's entries, over all blocks.
  int64_t num_edges() const { return edges_; }
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
  int64_t edges_ = 0;
};

}  // namespace matsamp
