#include "sampling/epoch.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/philox.h"
#include "core/row_blocks.h"

namespace matsamp {

namespace {
constexpr uint32_t kShuffleTag = 0xFFu;   // a layer value no sampler uses
}

std::vector<vid_t> shuffle_vertices(const std::vector<vid_t>& vertices, uint64_t seed, uint32_t epoch,
                                    uint32_t stream) {
  const int64_t n = static_cast<int64_t>(vertices.size());
  std::vector<std::pair<uint64_t, int64_t>> keyed(n);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i)
    keyed[i] = {random_bits({seed, epoch, kShuffleTag, stream, static_cast<uint64_t>(i)}, 0), i};
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
    MATSAMP_CHECK(v >= 0 && v < locality.vertices, "training vertex ", v, " out of range [0, ",
                  locality.vertices, ")");
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

int64_t bulk_size_for_budget(const Sampler& sampler, int64_t batch_size, int64_t minibatches,
                             int64_t budget_bytes) {
  const int64_t per = std::max<int64_t>(1, sampler.bytes_per_minibatch(batch_size));
  MATSAMP_CHECK(budget_bytes >= per, "memory budget of ", budget_bytes, " bytes is below the ~", per,
                " bytes one minibatch of ", batch_size, " needs; raise the memory budget or lower the batch size");
  return std::min<int64_t>(budget_bytes / per, std::max<int64_t>(1, minibatches));
}

EpochIterator::EpochIterator(const Sampler& sampler, Backend& backend,
                             const std::vector<vid_t>& train_vertices, const EpochOptions& options)
    : sampler_(sampler), backend_(backend), options_(options) {
  MATSAMP_CHECK(options.batch_size > 0, "batch size must be positive, got ", options.batch_size);
  MATSAMP_CHECK(options.bulk_size >= 0, "bulk size must be positive (or 0 for automatic), got ",
                options.bulk_size);
  MATSAMP_CHECK(!train_vertices.empty(), "no training vertices to sample from");
  MATSAMP_CHECK(options.locality.blocks >= 0, "locality blocks must be 0 (off) or positive, got ",
                options.locality.blocks);
  // Appends one shuffled run of vertices, cut into minibatches of batch_size.
  starts_ = {0};
  auto append = [&](const std::vector<vid_t>& shuffled) {
    order_.insert(order_.end(), shuffled.begin(), shuffled.end());
    for (int64_t end = starts_.back(); end < static_cast<int64_t>(order_.size());)
      starts_.push_back(end = std::min<int64_t>(end + options.batch_size, order_.size()));
  };
  if (options.locality.blocks == 0) {
    append(shuffle_vertices(train_vertices, options.seed, options.epoch));
  } else {
    const auto blocks = vertices_per_block(train_vertices, options.locality);
    for (size_t j = 0; j < blocks.size(); ++j)
      append(shuffle_vertices(blocks[j], options.seed, options.epoch, static_cast<uint32_t>(j)));
  }
  num_minibatches_ = static_cast<int64_t>(starts_.size()) - 1;
  next_minibatch_ = options.first_minibatch;
  end_minibatch_ = options.end_minibatch < 0 ? num_minibatches_ : options.end_minibatch;
  MATSAMP_CHECK(0 <= next_minibatch_ && next_minibatch_ <= end_minibatch_ &&
                    end_minibatch_ <= num_minibatches_,
                "minibatch share [", options.first_minibatch, ", ", options.end_minibatch,
                ") outside the epoch's ", num_minibatches_, " minibatches");
  const int64_t share = end_minibatch_ - next_minibatch_;
  bulk_size_ = options.bulk_size > 0
                   ? std::max<int64_t>(1, std::min(options.bulk_size, share))
                   : bulk_size_for_budget(sampler, options.batch_size, share, options.memory_budget);
}

bool EpochIterator::next(BulkSample* out, StepStats* times) {
  if (next_minibatch_ >= end_minibatch_) return false;
  const int64_t first = next_minibatch_;
  const int64_t last = std::min(end_minibatch_, first + bulk_size_);
  Offsets offsets;
  for (int64_t g = first; g <= last; ++g) offsets.push_back(starts_[g] - starts_[first]);
  const std::vector<vid_t> seeds(order_.begin() + starts_[first], order_.begin() + starts_[last]);
  *out = sampler_.sample(seeds, offsets, first, options_.epoch, backend_, times);
  next_minibatch_ = last;
  return true;
}

}  // namespace matsamp

namespace matsamp {

std::vector<vid_t> training_vertices(int64_t n, double fraction, uint64_t seed) {
  MATSAMP_CHECK(fraction > 0 && fraction <= 1, "training fraction must be in (0, 1], got ", fraction);
  MATSAMP_CHECK(n > 0, "the graph has no vertices");
  std::vector<vid_t> all(n);
  std::iota(all.begin(), all.end(), 0);
  if (fraction == 1) return all;
  std::vector<vid_t> chosen = shuffle_vertices(all, seed, 0xFFFFFFFFu);
  chosen.resize(std::max<int64_t>(1, static_cast<int64_t>(std::ceil(fraction * n))));
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

}  // namespace matsamp
