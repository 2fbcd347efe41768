#include "sampling/epoch.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/philox.h"
#include "core/row_blocks.h"
#include "sampling/disjoint_trees.h"
#include "sampling/epoch_plan.h"
#include "util/parallel.h"

namespace matsamp {

namespace {
constexpr uint32_t kShuffleTag = 0xFFu;  // a layer value no sampler uses

const std::vector<vid_t>& training_vertices_to_sample(const std::vector<vid_t>& vertices) {
  MATSAMP_CHECK(!vertices.empty(), "no training vertices to sample from");
  return vertices;
}

// Position i's sort key in shuffle_vertices: a random key, ties broken by position.
using ShuffleKey = std::pair<uint64_t, int64_t>;
ShuffleKey shuffle_key(uint64_t seed, uint32_t epoch, uint32_t stream, int64_t i) {
  return {random_bits({seed, epoch, kShuffleTag, stream, static_cast<uint64_t>(i)}, 0), i};
}
}  // namespace

std::vector<vid_t> shuffle_vertices(const std::vector<vid_t>& vertices, uint64_t seed, uint32_t epoch,
                                    uint32_t stream) {
  const int64_t n = static_cast<int64_t>(vertices.size());
  std::vector<ShuffleKey> keyed(n);
#pragma omp parallel for schedule(static) num_threads(threads_for(n))
  for (int64_t i = 0; i < n; ++i) keyed[i] = shuffle_key(seed, epoch, stream, i);
  std::sort(keyed.begin(), keyed.end());
  std::vector<vid_t> out(n);
  for (int64_t i = 0; i < n; ++i) out[i] = vertices[keyed[i].second];
  return out;
}

int64_t minibatch_count(int64_t vertices, int64_t batch_size) {
  MATSAMP_CHECK(batch_size > 0, "batch size must be positive, got ", batch_size);
  return (vertices + batch_size - 1) / batch_size;
}

std::vector<std::vector<vid_t>> vertices_per_block(const std::vector<vid_t>& train_vertices,
                                                   const BatchLocality& locality) {
  MATSAMP_CHECK(locality.blocks >= 1 && locality.blocks <= locality.vertices, "locality: ", locality.blocks,
                " blocks for ", locality.vertices, " vertices; need 1 <= blocks <= vertices");
  const RowBlocks blocks{locality.vertices, locality.blocks};
  std::vector<std::vector<vid_t>> out(locality.blocks);
  for (vid_t v : train_vertices) {
    MATSAMP_CHECK(v >= 0 && v < locality.vertices, "training vertex ", v, " out of range [0, ", locality.vertices, ")");
    out[blocks.owner(v)].push_back(v);
  }
  return out;
}

int64_t bulk_size_for_budget(const Sampler& sampler, int64_t batch_size, int64_t minibatches, int64_t budget_bytes,
                             bool trees) {
  const int64_t per = std::max<int64_t>(1, bulk_bytes_per_minibatch(sampler.bytes_per_minibatch(batch_size), trees));
  MATSAMP_CHECK(budget_bytes >= per, "memory budget of ", budget_bytes, " bytes is below the ~", per,
                " bytes one minibatch of ", batch_size, " needs; raise the memory budget or lower the batch size");
  return std::min<int64_t>(budget_bytes / per, std::max<int64_t>(1, minibatches));
}

EpochOrder::EpochOrder(std::vector<vid_t> order, int64_t batch_size) : order_(std::move(order)) {
  MATSAMP_CHECK(batch_size > 0, "batch size must be positive, got ", batch_size);
  const int64_t n = static_cast<int64_t>(order_.size());
  for (int64_t end = 0; end < n;) starts_.push_back(end = std::min(end + batch_size, n));
}

EpochOrder::EpochOrder(std::vector<vid_t> order, std::vector<int64_t> starts)
    : order_(std::move(order)), starts_(std::move(starts)) {
  MATSAMP_CHECK(!starts_.empty() && starts_.front() == 0 && starts_.back() == static_cast<int64_t>(order_.size()) &&
                    std::is_sorted(starts_.begin(), starts_.end()),
                "epoch order: minibatch starts must ascend from 0 to the order's ", order_.size(), " vertices");
}

std::pair<std::vector<vid_t>, Offsets> EpochOrder::seeds(int64_t first, int64_t end) const {
  MATSAMP_CHECK(0 <= first && first <= end && end <= num_minibatches(), "minibatches [", first, ", ", end,
                ") outside the epoch's ", num_minibatches());
  Offsets offsets;
  for (int64_t g = first; g <= end; ++g) offsets.push_back(starts_[g] - starts_[first]);
  return {std::vector<vid_t>(order_.begin() + starts_[first], order_.begin() + starts_[end]), std::move(offsets)};
}

Bulk sample_minibatches(const Sampler& sampler, Context& ctx, const EpochOrder& order, int64_t first, int64_t end,
                        uint32_t epoch, int64_t numbered_from) {
  auto [seeds, offsets] = order.seeds(first, end);
  if (first == end) return Bulk{numbered_from + first, {}, {0}, {}};
  const SeedBatch uploaded = upload_seeds(ctx.backend, std::move(seeds), std::move(offsets));
  const TransferCounts before = ctx.backend.transfer_counts();
  Bulk bulk = sampler.sample(ctx, uploaded, numbered_from + first, epoch);
  if (ctx.stats) ctx.stats->transfers += ctx.backend.transfer_counts() - before;
  return bulk;
}

Bulk sample_minibatches_by_time(const Sampler& sampler, Context& ctx, const EpochOrder& order, int64_t first,
                                int64_t end, uint32_t epoch, const TemporalEpoch& times, int64_t numbered_from,
                                int64_t trees_before) {
  auto [seeds, offsets] = order.seeds(first, end);
  std::vector<int64_t> seed_times(seeds.size());
  for (size_t i = 0; i < seeds.size(); ++i) seed_times[i] = times.vertex_times.at(seeds[i]);
  return sample_trees_by_time(sampler, ctx, std::move(seeds), std::move(seed_times), offsets, numbered_from + first,
                              trees_before + order.starts()[first], epoch, times);
}

Bulk sample_trees_by_time(const Sampler& sampler, Context& ctx, std::vector<vid_t> seeds,
                          std::vector<int64_t> seed_times, const Offsets& minibatch_trees, int64_t first_minibatch,
                          int64_t first_tree, uint32_t epoch, const TemporalEpoch& times) {
  const TemporalSampler& temporal = require_capability<TemporalSampler>(sampler);
  if (minibatch_trees.size() <= 1) return Bulk{first_minibatch, {}, {0}, {}};
  MATSAMP_CHECK(seed_times.size() == seeds.size() && minibatch_trees.back() == static_cast<int64_t>(seeds.size()),
                "trees by time: ", seeds.size(), " seeds, ", seed_times.size(), " seed times, minibatches of ",
                minibatch_trees.back(), " trees");
  const int64_t trees = static_cast<int64_t>(seeds.size());
  Offsets tree_offsets(trees + 1);
  std::iota(tree_offsets.begin(), tree_offsets.end(), 0);
  TemporalBounds bounds{times.order, times.sorted_times, std::move(seed_times), times.strategy};
  Backend& backend = ctx.backend;
  const SeedBatch uploaded = upload_seeds(backend, std::move(seeds), tree_offsets);
  const TransferCounts before = backend.transfer_counts();
  Bulk sampled = temporal.sample_before(ctx, uploaded, first_tree, epoch, bounds);
  // The trees merged into their minibatches (disjoint_trees.h), in the backend.
  Bulk bulk = ctx.timed(&StepStats::extraction, [&] {
    return minibatches_of_trees(backend, std::move(sampled), minibatch_trees, first_minibatch);
  });
  if (ctx.stats) ctx.stats->transfers += backend.transfer_counts() - before;
  return bulk;
}

EpochIterator::EpochIterator(const Sampler& sampler, Context ctx, const std::vector<vid_t>& train_vertices,
                             const EpochOptions& options)
    : sampler_(sampler), ctx_(ctx), options_(options) {
  MATSAMP_CHECK(options.bulk_size >= 0, "bulk size must be positive (or 0 for automatic), got ", options.bulk_size);
  MATSAMP_CHECK(options.bulk_steps >= 0, "bulk steps must be positive (or 0 for automatic), got ", options.bulk_steps);
  EpochLayout layout{options.batch_size,
                     step_lanes(options.minibatches_per_step, options.locality.blocks, options.workers), 1,
                     options.locality};
  MATSAMP_CHECK(layout.lanes > 0 && options.workers > 0 && layout.lanes % options.workers == 0,
                "minibatches per step (", layout.lanes, ") must be a multiple of the ", options.workers,
                " workers that sample");
  const int64_t items = static_cast<int64_t>(training_vertices_to_sample(train_vertices).size());
  const int64_t share = std::max<int64_t>(1, minibatch_count(items, options.batch_size) / options.workers);
  bulk_size_ = options.bulk_size > 0 ? std::min(options.bulk_size, share)
                                     : bulk_size_for_budget(sampler, options.batch_size, share, options.memory_budget,
                                                            options.times != nullptr);
  layout.steps_per_bulk = options.bulk_steps > 0 ? options.bulk_steps
                                                 : std::max<int64_t>(1, bulk_size_ / (layout.lanes / options.workers));
  plan_ = std::make_unique<const EpochPlan>(items, layout);
  order_ = plan_->order(train_vertices, options.seed, options.epoch);
  // The worker's ranges of the layout's bulks, joined where they meet (one worker
  // holds the whole epoch), in calls of at most bulk_size_ minibatches.
  std::vector<std::pair<int64_t, int64_t>> ranges;
  for (const auto& ids : plan_->worker_bulks(options.worker, options.workers))
    if (!ranges.empty() && ranges.back().second == ids.first) ranges.back().second = ids.second;
    else ranges.push_back(ids);
  for (const auto& [first, end] : ranges)
    for (int64_t at = first; at < end; at += bulk_size_) bulks_.emplace_back(at, std::min(end, at + bulk_size_));
}

EpochIterator::~EpochIterator() = default;

int64_t EpochIterator::num_minibatches() const { return plan_->num_minibatches(); }

int64_t EpochIterator::bulk_size() const { return bulk_size_; }

bool EpochIterator::next_resident(Bulk* out, StepStats* times) {
  if (next_bulk_ >= bulks_.size()) return false;
  const auto [first, end] = bulks_[next_bulk_++];
  Context ctx = ctx_;
  if (times) ctx.stats = times;
  *out = options_.times ? sample_minibatches_by_time(sampler_, ctx, order_, first, end, options_.epoch, *options_.times)
                        : sample_minibatches(sampler_, ctx, order_, first, end, options_.epoch);
  return true;
}

bool EpochIterator::next(BulkSample* out, StepStats* times) {
  Bulk bulk;
  if (!next_resident(&bulk, times)) return false;
  *out = to_host(ctx_.backend, std::move(bulk));
  return true;
}

}  // namespace matsamp

namespace matsamp {

std::vector<vid_t> training_vertices(int64_t n, double fraction, uint64_t seed) {
  MATSAMP_CHECK(fraction > 0 && fraction <= 1, "training fraction must be in (0, 1], got ", fraction);
  MATSAMP_CHECK(n > 0, "the graph has no vertices");
  if (fraction == 1) {
    std::vector<vid_t> all(n);
    std::iota(all.begin(), all.end(), 0);
    return all;
  }
  // The k smallest keys of shuffle_vertices(0 .. n-1), kept chunk by chunk: memory
  // O(k + chunk) instead of the shuffle's 24n bytes (a rank of a partitioned graph
  // holds no O(n) array).
  const int64_t k = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(fraction * n)));
  const int64_t chunk = std::max<int64_t>(k, int64_t{1} << 20);
  std::vector<ShuffleKey> smallest;
  smallest.reserve(k + chunk);
  for (int64_t start = 0; start < n; start += chunk) {
    const int64_t end = std::min(n, start + chunk), at = static_cast<int64_t>(smallest.size());
    smallest.resize(at + end - start);
#pragma omp parallel for schedule(static) num_threads(threads_for(end - start))
    for (int64_t i = start; i < end; ++i) smallest[at + i - start] = shuffle_key(seed, 0xFFFFFFFFu, 0, i);
    if (static_cast<int64_t>(smallest.size()) > k) {
      std::nth_element(smallest.begin(), smallest.begin() + k, smallest.end());
      smallest.resize(k);
    }
  }
  std::vector<vid_t> chosen(k);
  for (int64_t j = 0; j < k; ++j) chosen[j] = static_cast<vid_t>(smallest[j].second);
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

}  // namespace matsamp
