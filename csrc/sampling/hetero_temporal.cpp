#include "sampling/hetero_temporal.h"

#include <limits>
#include <numeric>
#include <utility>

#include "core/error.h"
#include "sampling/disjoint_trees.h"

namespace matsamp {

HeteroTemporalEpoch hetero_epoch_times(Backend& backend, const HeteroGraph& graph,
                                       std::vector<std::vector<int64_t>> vertex_times, TemporalStrategy strategy,
                                       const std::vector<std::vector<int64_t>>& entry_times) {
  MATSAMP_CHECK(vertex_times.size() == graph.types.size(), "temporal sampling: vertex times for ", vertex_times.size(),
                " vertex types, the graph has ", graph.types.size());
  for (size_t t = 0; t < graph.types.size(); ++t)
    MATSAMP_CHECK(vertex_times[t].empty() || static_cast<int64_t>(vertex_times[t].size()) == graph.types[t].count,
                  "temporal sampling: vertex type ", graph.types[t].name, " has ", vertex_times[t].size(),
                  " times for ", graph.types[t].count, " vertices");
  MATSAMP_CHECK(entry_times.empty() || entry_times.size() == graph.relations.size(), "temporal sampling: edge times ",
                "for ", entry_times.size(), " relations, the graph has ", graph.relations.size());
  HeteroTemporalEpoch out;
  for (size_t i = 0; i < graph.relations.size(); ++i) {
    const Relation& r = graph.relations[i];
    const std::vector<int64_t>& times = vertex_times[graph.type_index(r.source)];
    const bool by_entry = !entry_times.empty() && !entry_times[i].empty();
    MATSAMP_CHECK(!by_entry || static_cast<int64_t>(entry_times[i].size()) == r.adj.nnz(),
                  "temporal sampling: relation ", r.key(), " has ", by_entry ? entry_times[i].size() : 0,
                  " edge times for ", r.adj.nnz(), " entries");
    TimeOrder order = time_order(r.adj, by_entry ? entry_times[i]
                                        : times.empty()
                                            ? std::vector<int64_t>(r.adj.nnz(), std::numeric_limits<int64_t>::min())
                                            : column_times(r.adj, times));
    out.order.push_back(backend.upload_ids(std::move(order.order)));
    out.sorted_times.push_back(backend.upload_ids(std::move(order.sorted_times)));
  }
  out.vertex_times = std::move(vertex_times);
  out.strategy = strategy;
  return out;
}

std::vector<std::vector<int64_t>> vertex_times_of(const HeteroGraph& graph) {
  std::vector<std::vector<int64_t>> out;
  for (const VertexType& t : graph.types) out.push_back(t.times);
  return out;
}

HeteroBulk sample_hetero_trees_by_time(const HeteroSampler& sampler, Context& ctx, int seed_type,
                                       std::vector<vid_t> seeds, std::vector<int64_t> seed_times,
                                       const Offsets& minibatch_trees, int64_t first_minibatch, int64_t first_tree,
                                       uint32_t epoch, const HeteroTemporalEpoch& times) {
  const HeteroGraph& graph = sampler.graph();
  const size_t types = graph.types.size();
  std::vector<int> sources, destinations;
  for (const Relation& r : graph.relations) {
    sources.push_back(graph.type_index(r.source));
    destinations.push_back(graph.type_index(r.destination));
  }
  if (minibatch_trees.size() <= 1)
    return HeteroBulk{first_minibatch, HeteroSeeds::of_type(types, seed_type, {}, {0}), sources, {}};
  MATSAMP_CHECK(seed_times.size() == seeds.size() && minibatch_trees.back() == static_cast<int64_t>(seeds.size()),
                "trees by time: ", seeds.size(), " seeds, ", seed_times.size(), " seed times, minibatches of ",
                minibatch_trees.back(), " trees");
  Offsets tree_offsets(seeds.size() + 1);
  std::iota(tree_offsets.begin(), tree_offsets.end(), 0);
  HeteroTemporalBounds bounds{times.order, times.sorted_times, std::move(seed_times), times.strategy};
  Backend& backend = ctx.backend;
  const HeteroSeedBatch uploaded =
      upload_hetero_seeds(backend, HeteroSeeds::of_type(types, seed_type, std::move(seeds), std::move(tree_offsets)));
  const TransferCounts before = backend.transfer_counts();
  HeteroBulk sampled = sampler.sample_before(ctx, uploaded, first_tree, epoch, bounds);
  HeteroBulk bulk = ctx.timed(&StepStats::extraction, [&] {
    return hetero_minibatches_of_trees(backend, std::move(sampled), destinations, minibatch_trees, first_minibatch);
  });
  if (ctx.stats) ctx.stats->transfers += backend.transfer_counts() - before;
  return bulk;
}

HeteroBulk sample_hetero_minibatches_by_time(const HeteroSampler& sampler, Context& ctx, int seed_type,
                                             const EpochOrder& order, int64_t first, int64_t end, uint32_t epoch,
                                             const HeteroTemporalEpoch& times) {
  const std::vector<VertexType>& types = sampler.graph().types;
  MATSAMP_CHECK(seed_type >= 0 && static_cast<size_t>(seed_type) < times.vertex_times.size() &&
                    !times.vertex_times[seed_type].empty(),
                "temporal sampling: the seeds' vertex type ",
                seed_type >= 0 && static_cast<size_t>(seed_type) < types.size() ? types[seed_type].name : "?",
                " has no times (each seed is sampled as of its own)");
  auto [seeds, offsets] = order.seeds(first, end);
  const std::vector<int64_t>& vertex_times = times.vertex_times[seed_type];
  std::vector<int64_t> seed_times(seeds.size());
  for (size_t i = 0; i < seeds.size(); ++i) seed_times[i] = vertex_times.at(seeds[i]);
  return sample_hetero_trees_by_time(sampler, ctx, seed_type, std::move(seeds), std::move(seed_times), offsets, first,
                                     order.starts()[first], epoch, times);
}

}  // namespace matsamp
