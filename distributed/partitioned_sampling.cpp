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
  if (column_norms_.defined()) return column_norms_;
  std::vector<float> block = distributed_column_norms(*layerwise_, grid_);
  if (product_.exchange() == GraphProduct::Exchange::sparsity_aware) {
    column_norms_block_.emplace(grid_.col_comm(), adj_.blocks, std::move(block));
    column_norms_ = backend_.register_shared_row(*column_norms_block_);
  } else {
    const std::vector<float> whole = grid_.col_comm().all_gatherv(block);
    whole_column_norms_ = CsrMatrix(1, adj_.rows());
    for (size_t v = 0; v < whole.size(); ++v)
      if (whole[v] != 0) {
        whole_column_norms_.colidx.push_back(static_cast<col_t>(v));
        whole_column_norms_.values.push_back(whole[v]);
      }
    whole_column_norms_.rowptr[1] = whole_column_norms_.nnz();
    column_norms_ = backend_.register_graph(whole_column_norms_);
  }
  return column_norms_;
}

const Matrix& PartitionedSampling::edge_probabilities() {
  throw Error("GraphSAINT's edge distribution needs the whole graph on every rank: run with the graph replicated");
}

const Matrix& PartitionedSampling::edge_endpoints() { return edge_probabilities(); }  // throws alike

}  // namespace matsamp
