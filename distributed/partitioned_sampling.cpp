#include "partitioned_sampling.h"

namespace matsamp {

PartitionedSampling::PartitionedSampling(ProcessGrid& grid, DistributedCsr adj, GraphProduct::Exchange exchange,
                                         std::unique_ptr<Backend> local)
    : grid_(grid),
      adj_(std::move(adj)),
      adj_placeholder_(placeholder_of(adj_)),
      product_(grid, exchange),
      backend_(product_, std::move(local)) {
  backend_.bind(adj_placeholder_, adj_);
}

std::unique_ptr<Sampler> PartitionedSampling::graphsage(std::vector<int64_t> fanouts, uint64_t seed) {
  return make_graphsage_sampler(adj_placeholder_, std::move(fanouts), seed);
}

std::unique_ptr<Sampler> PartitionedSampling::labor(std::vector<int64_t> fanouts, uint64_t seed) {
  return make_labor_sampler(adj_placeholder_, std::move(fanouts), seed);
}

std::unique_ptr<Sampler> PartitionedSampling::layerwise(LayerWiseKind kind, std::vector<int64_t> samples_per_layer,
                                                        uint64_t seed, bool include_frontier) {
  return make_layerwise_sampler(kind, layerwise_view(), std::move(samples_per_layer), seed, include_frontier);
}

std::unique_ptr<Sampler> PartitionedSampling::saint(SaintOptions options, uint64_t seed) {
  // Drawn edges are looked up in the whole adjacency, which no rank holds here.
  MATSAMP_CHECK(options.kind != SaintKind::edge,
                "saint_edge needs the whole graph on every rank: run it with the graph replicated");
  return make_saint_sampler(adj_placeholder_, layerwise_view(), options, seed);
}

std::shared_ptr<const LayerWiseMatrices> PartitionedSampling::layerwise_view() {
  if (!layerwise_) {
    layerwise_ = prepare_distributed_layerwise(adj_, grid_);
    backend_.bind(layerwise_->sampler_view->normalized, layerwise_->normalized);
    backend_.bind(layerwise_->sampler_view->squared, layerwise_->squared);
  }
  return layerwise_->sampler_view;
}

}  // namespace matsamp
