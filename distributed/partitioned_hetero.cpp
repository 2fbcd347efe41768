#include "partitioned_hetero.h"

namespace matsamp {

PartitionedHetero::PartitionedHetero(ProcessGrid& grid, const HeteroGraph& graph, GraphProduct::Exchange exchange,
                                     std::unique_ptr<Backend> local)
    : graph_(graph), product_(grid, exchange), backend_(product_, std::move(local)) {
  validate(graph, "partitioned heterogeneous sampling");
  for (const Relation& r : graph.relations) handles_.push_back(distribute(r.adj));
}

Matrix PartitionedHetero::distribute(const CsrMatrix& whole) {
  blocks_.push_back(block_row_of(whole, product_.grid()));
  return backend_.register_distributed(blocks_.back());
}

}  // namespace matsamp
