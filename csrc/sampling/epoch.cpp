#include "sampling/epoch.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/philox.h"
#include "core/row_blocks.h"

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
#pragma omp parallel for schedule(static)
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

std::vector<int64_t> minibatches_per_block(const std::vector<vid_t>& train_vertices, int64_t batch_size,
                                           const BatchLocality& locality) {
  const int64_t all = static_cast<int64_t>(train_vertices.size());
  if (locality.blocks == 0) return {minibatch_count(all, batch_size)};
  std::vector<int64_t> counts;
  for (const auto& block : vertices_per_block(train_vertices, locality))
    counts.push_back(minibatch_count(static_cast<int64_t>(block.size()), batch_size));
  return counts;
}

int64_t bulk_size_for_budget(const Sampler& sampler, int64_t batch_size, int64_t minibatches, int64_t budget_bytes) {
  const int64_t per = std::max<int64_t>(1, sampler.bytes_per_minibatch(batch_size));
  MATSAMP_CHECK(budget_bytes >= per, "memory budget of ", budget_bytes, " bytes is below the ~", per,
                " bytes one minibatch of ", batch_size, " needs; raise the memory budget or lower the batch size");
  return std::min<int64_t>(budget_bytes / per, std::max<int64_t>(1, minibatches));
}

EpochOrder::EpochOrder(const std::vector<vid_t>& train_vertices, int64_t batch_size, uint64_t seed, uint32_t epoch,
                       const BatchLocality& locality, bool shuffle) {
  MATSAMP_CHECK(batch_size > 0, "batch size must be positive, got ", batch_size);
  MATSAMP_CHECK(locality.blocks >= 0, "locality blocks must be 0 (off) or positive, got ", locality.blocks);
  const auto order = [&](const std::vector<vid_t>& run, uint32_t stream) {
    return shuffle ? shuffle_vertices(run, seed, epoch, stream) : run;
  };
  if (locality.blocks == 0) {
    append(order(train_vertices, 0), batch_size);
    return;
  }
  const auto blocks = vertices_per_block(train_vertices, locality);
  for (size_t j = 0; j < blocks.size(); ++j) append(order(blocks[j], static_cast<uint32_t>(j)), batch_size);
}

EpochOrder::EpochOrder(std::vector<vid_t> order, int64_t batch_size) {
  MATSAMP_CHECK(batch_size > 0, "batch size must be positive, got ", batch_size);
  append(order, batch_size);
}

EpochOrder::EpochOrder(std::vector<vid_t> order, std::vector<int64_t> starts)
    : order_(std::move(order)), starts_(std::move(starts)) {
  MATSAMP_CHECK(!starts_.empty() && starts_.front() == 0 && starts_.back() == static_cast<int64_t>(order_.size()) &&
                    std::is_sorted(starts_.begin(), starts_.end()),
                "epoch order: minibatch starts must ascend from 0 to the order's ", order_.size(), " vertices");
}

void EpochOrder::append(const std::vector<vid_t>& run, int64_t batch_size) {
  order_.insert(order_.end(), run.begin(), run.end());
  for (int64_t end = starts_.back(); end < static_cast<int64_t>(order_.size());)
    starts_.push_back(end = std::min<int64_t>(end + batch_size, order_.size()));
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

EpochIterator::EpochIterator(const Sampler& sampler, Context ctx, const std::vector<vid_t>& train_vertices,
                             const EpochOptions& options)
    : sampler_(sampler),
      ctx_(ctx),
      options_(options),
      order_(training_vertices_to_sample(train_vertices), options.batch_size, options.seed, options.epoch,
             options.locality) {
  MATSAMP_CHECK(options.bulk_size >= 0, "bulk size must be positive (or 0 for automatic), got ", options.bulk_size);
  const int64_t num_minibatches = order_.num_minibatches();
  next_minibatch_ = options.first_minibatch;
  end_minibatch_ = options.end_minibatch < 0 ? num_minibatches : options.end_minibatch;
  MATSAMP_CHECK(0 <= next_minibatch_ && next_minibatch_ <= end_minibatch_ && end_minibatch_ <= num_minibatches,
                "minibatch share [", options.first_minibatch, ", ", options.end_minibatch, ") outside the epoch's ",
                num_minibatches, " minibatches");
  const int64_t share = end_minibatch_ - next_minibatch_;
  bulk_size_ = options.bulk_size > 0 ? std::max<int64_t>(1, std::min(options.bulk_size, share))
                                     : bulk_size_for_budget(sampler, options.batch_size, share, options.memory_budget);
}

bool EpochIterator::next_resident(Bulk* out, StepStats* times) {
  if (next_minibatch_ >= end_minibatch_) return false;
  const int64_t first = next_minibatch_, last = std::min(end_minibatch_, first + bulk_size_);
  Context ctx = ctx_;
  if (times) ctx.stats = times;
  *out = sample_minibatches(sampler_, ctx, order_, first, last, options_.epoch);
  next_minibatch_ = last;
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
#pragma omp parallel for schedule(static)
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
