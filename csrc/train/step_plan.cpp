#include "train/step_plan.h"

#include <algorithm>

namespace matsamp {

StepPlan::StepPlan(int64_t num_training_vertices, int64_t batch_size, int64_t lanes, int64_t steps_per_bulk,
                   bool balanced)
    : num_vertices_(num_training_vertices), lanes_(lanes), steps_per_bulk_(steps_per_bulk) {
  MATSAMP_CHECK(num_training_vertices > 0, "no training vertices");
  MATSAMP_CHECK(batch_size > 0, "batch size must be positive, got ", batch_size);
  MATSAMP_CHECK(lanes > 0, "minibatches per step must be positive, got ", lanes);
  MATSAMP_CHECK(steps_per_bulk > 0, "steps per bulk must be positive, got ", steps_per_bulk);
  const int64_t n = num_vertices_;
  if (!balanced) {
    num_minibatches_ = (n + batch_size - 1) / batch_size;
    for (int64_t id = 0; id <= num_minibatches_; ++id) starts_.push_back(std::min(n, id * batch_size));
    return;
  }
  const int64_t steps = (n + lanes * batch_size - 1) / (lanes * batch_size);
  if (steps * lanes > n) {  // too few vertices to give every lane one per step: one vertex per minibatch
    num_minibatches_ = n;
    for (int64_t id = 0; id <= n; ++id) starts_.push_back(id);
    return;
  }
  // Lane j trains on n / lanes vertices (the first n % lanes lanes one more), split
  // evenly over the steps (the first ones one more).
  num_minibatches_ = steps * lanes;
  std::vector<int64_t> sizes(num_minibatches_);
  for (int64_t b = 0; b < num_bulks(); ++b) {
    const Bulk bk = bulk(b);
    for (int64_t lane = 0; lane < lanes; ++lane) {
      const int64_t lane_vertices = n / lanes + (lane < n % lanes);
      for (int64_t t = 0; t < bk.lane_length; ++t) {
        const int64_t step = b * steps_per_bulk + t;
        sizes[minibatch(bk, lane, t)] = lane_vertices / steps + (step < lane_vertices % steps);
      }
    }
  }
  starts_.push_back(0);
  for (int64_t size : sizes) starts_.push_back(starts_.back() + size);
}

int64_t StepPlan::num_bulks() const {
  const int64_t per_bulk = lanes_ * steps_per_bulk_;
  return (num_minibatches_ + per_bulk - 1) / per_bulk;
}

StepPlan::Bulk StepPlan::bulk(int64_t index) const {
  MATSAMP_CHECK(index >= 0 && index < num_bulks(), "bulk ", index, " out of range [0, ", num_bulks(), ")");
  Bulk b;
  b.first = index * lanes_ * steps_per_bulk_;
  b.end = std::min(num_minibatches_, b.first + lanes_ * steps_per_bulk_);
  b.lane_length = (b.end - b.first + lanes_ - 1) / lanes_;
  return b;
}

// A short (last) bulk spreads its minibatches evenly: the lanes' lengths differ
// by one at most, the first lanes longer. Then every lane trains once the bulk has
// `lanes` minibatches, and with locality blocks every block is in its first step
// (filling lanes to the full length would leave the trailing ones, and their
// blocks, out of every step but as leftovers).
int64_t StepPlan::lane_start(const Bulk& bulk, int64_t lane) const {
  const int64_t n = bulk.end - bulk.first;
  return lane * (n / lanes_) + std::min(lane, n % lanes_);
}

int64_t StepPlan::minibatch(const Bulk& bulk, int64_t lane, int64_t step) const {
  const int64_t start = lane_start(bulk, lane);
  return step < lane_start(bulk, lane + 1) - start ? bulk.first + start + step : -1;
}

std::pair<int64_t, int64_t> StepPlan::rank_lanes(int rank, int ranks) const {
  MATSAMP_CHECK(ranks > 0 && lanes_ % ranks == 0, "minibatches per step (", lanes_,
                ") must be a multiple of the number of processes (", ranks, ")");
  const int64_t per_rank = lanes_ / ranks;
  return {rank * per_rank, (rank + 1) * per_rank};
}

std::pair<int64_t, int64_t> StepPlan::lane_minibatches(const Bulk& bulk, std::pair<int64_t, int64_t> lanes) const {
  return {bulk.first + lane_start(bulk, lanes.first), bulk.first + lane_start(bulk, lanes.second)};
}

int64_t StepPlan::minibatch_size(int64_t id) const { return starts_[id + 1] - starts_[id]; }

int64_t StepPlan::step_seeds(const Bulk& bulk, int64_t step) const {
  int64_t seeds = 0;
  for (int64_t lane = 0; lane < lanes_; ++lane) {
    const int64_t id = minibatch(bulk, lane, step);
    if (id >= 0) seeds += minibatch_size(id);
  }
  return seeds;
}

std::vector<vid_t> StepPlan::epoch_order(const std::vector<vid_t>& train_vertices, uint64_t seed, uint32_t epoch,
                                         const BatchLocality& locality) const {
  MATSAMP_CHECK(static_cast<int64_t>(train_vertices.size()) == num_vertices_, "epoch order: ", train_vertices.size(),
                " training vertices for a plan of ", num_vertices_);
  if (locality.blocks == 0) return shuffle_vertices(train_vertices, seed, epoch);
  const int64_t blocks = locality.blocks;
  MATSAMP_CHECK(blocks > 0 && lanes_ % blocks == 0, "locality blocks (", blocks,
                ") must divide the minibatches per step (", lanes_, ")");
  std::vector<std::vector<vid_t>> queue = vertices_per_block(train_vertices, locality);
  for (int64_t j = 0; j < blocks; ++j) queue[j] = shuffle_vertices(queue[j], seed, epoch, static_cast<uint32_t>(j));
  std::vector<int64_t> lane_of(num_minibatches_, 0);
  for (int64_t b = 0; b < num_bulks(); ++b) {
    const Bulk bk = bulk(b);
    for (int64_t lane = 0; lane < lanes_; ++lane)
      for (int64_t step = 0; step < bk.lane_length; ++step)
        if (const int64_t id = minibatch(bk, lane, step); id >= 0) lane_of[id] = lane;
  }
  // Each minibatch from its lane's block while the block lasts; then the
  // vertices no lane of their block had room for fill the slots still empty.
  std::vector<vid_t> order(num_vertices_, -1);
  std::vector<size_t> taken(blocks, 0);
  for (int64_t id = 0; id < num_minibatches_; ++id) {
    const std::vector<vid_t>& from = queue[lane_of[id] * blocks / lanes_];
    size_t& next = taken[lane_of[id] * blocks / lanes_];
    for (int64_t at = starts_[id]; at < starts_[id + 1] && next < from.size(); ++at) order[at] = from[next++];
  }
  std::vector<vid_t> rest;
  for (int64_t j = 0; j < blocks; ++j) rest.insert(rest.end(), queue[j].begin() + taken[j], queue[j].end());
  auto next = rest.begin();
  for (vid_t& v : order)
    if (v < 0) v = *next++;
  return order;
}

BulkSample sample_minibatches(const Sampler& sampler, Context& ctx, const EpochOrder& order,
                              std::pair<int64_t, int64_t> ids, uint32_t epoch, int64_t numbered_from) {
  BulkSample bulk =
      to_host(ctx.backend, sample_minibatches(sampler, ctx, order, ids.first, ids.second, epoch, numbered_from));
  ctx.backend.release_cached_memory();  // torch trains on the same GPU: leave it the memory
  return bulk;
}

}  // namespace matsamp
