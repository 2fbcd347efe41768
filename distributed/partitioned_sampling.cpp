#include "partitioned_sampling.h"

namespace matsamp {

PartitionedSampling::PartitionedSampling(ProcessGrid& grid, DistributedCsr adj, GraphProduct::Exchange exchange,
                                         std::unique_ptr<Backend> local, GraphProduct::RowWork work)
    : grid_(grid), adj_(std::move(adj)), product_(grid, exchange, work), backend_(product_, std::move(local)) {
  adjacency_ = backend_.register_distributed(adj_);
}

void PartitionedSampling::prepare_layerwise() {
  if (layerwise_) return;
  layerwise_ = prepare_distributed_layerwise(adj_, grid_);
  normalized_ = backend_.register_distributed(layerwise_->normalized);
  squared_ = backend_.register_distributed(layerwise_->squared);
}

const Matrix& PartitionedSampling::normalized() {
  prepare_layerwise();
  return normalized_;
}

const Matrix& PartitionedSampling::squared() {
  prepare_layerwise();
  return squared_;
}

const Matrix& PartitionedSampling::column_norms() {
  prepare_layerwise();
  if (!column_norms_.defined()) {  // FastGCN's only: O(n) on every rank
    host_column_norms_ = distributed_column_norms(*layerwise_, grid_);
    column_norms_ = backend_.register_graph(host_column_norms_);
  }
  return column_norms_;
}

const Matrix& PartitionedSampling::edge_probabilities() {
  throw Error("saint_edge needs the whole graph on every rank: run it with the graph replicated");
}

}  // namespace matsamp
