#include "sampling/epoch_plan.h"

#include <algorithm>
#include <numeric>

namespace matsamp {

int64_t step_lanes(int64_t minibatches_per_step, int64_t locality_blocks, int64_t workers) {
  MATSAMP_CHECK(workers > 0, "workers must be positive, got ", workers);
  if (minibatches_per_step > 0) return minibatches_per_step;
  return std::lcm(std::max<int64_t>(locality_blocks, 1), workers);
}

EpochPlan::EpochPlan(int64_t num_items, const EpochLayout& layout) : num_items_(num_items), layout_(layout) {
  const int64_t n = num_items, batch_size = layout.batch_size, lanes = layout.lanes;
  MATSAMP_CHECK(n > 0, "no training items to sample from");
  MATSAMP_CHECK(batch_size > 0, "batch size must be positive, got ", batch_size);
  MATSAMP_CHECK(lanes > 0, "minibatches per step must be positive, got ", lanes);
  MATSAMP_CHECK(layout.steps_per_bulk > 0, "steps per bulk must be positive, got ", layout.steps_per_bulk);
  MATSAMP_CHECK(layout.locality.blocks >= 0, "locality blocks must be 0 (off) or positive, got ",
                layout.locality.blocks);
  MATSAMP_CHECK(lanes % std::max(layout.locality.blocks, 1) == 0, "locality blocks (", layout.locality.blocks,
                ") must divide the minibatches per step (", lanes, ")");
  if (layout.locality.blocks == 0) {
    num_minibatches_ = minibatch_count(n, batch_size);
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
        const int64_t step = b * layout.steps_per_bulk + t;
        sizes[minibatch(bk, lane, t)] = lane_vertices / steps + (step < lane_vertices % steps);
      }
    }
  }
  starts_.push_back(0);
  for (int64_t size : sizes) starts_.push_back(starts_.back() + size);
}

int64_t EpochPlan::num_bulks() const {
  const int64_t per_bulk = layout_.lanes * layout_.steps_per_bulk;
  return (num_minibatches_ + per_bulk - 1) / per_bulk;
}

EpochPlan::Bulk EpochPlan::bulk(int64_t index) const {
  MATSAMP_CHECK(index >= 0 && index < num_bulks(), "bulk ", index, " out of range [0, ", num_bulks(), ")");
  Bulk b;
  b.first = index * layout_.lanes * layout_.steps_per_bulk;
  b.end = std::min(num_minibatches_, b.first + layout_.lanes * layout_.steps_per_bulk);
  b.lane_length = (b.end - b.first + layout_.lanes - 1) / layout_.lanes;
  return b;
}

// A short (last) bulk spreads its minibatches evenly: the lanes' lengths differ
// by one at most, the first lanes longer. Then every lane trains once the bulk has
// `lanes` minibatches, and with locality blocks every block is in its first step
// (filling lanes to the full length would leave the trailing ones, and their
// blocks, out of every step but as leftovers).
int64_t EpochPlan::lane_start(const Bulk& bulk, int64_t lane) const {
  const int64_t n = bulk.end - bulk.first;
  return lane * (n / layout_.lanes) + std::min(lane, n % layout_.lanes);
}

int64_t EpochPlan::minibatch(const Bulk& bulk, int64_t lane, int64_t step) const {
  const int64_t start = lane_start(bulk, lane);
  return step < lane_start(bulk, lane + 1) - start ? bulk.first + start + step : -1;
}

std::pair<int64_t, int64_t> EpochPlan::rank_lanes(int64_t worker, int64_t workers) const {
  MATSAMP_CHECK(workers > 0 && layout_.lanes % workers == 0, "minibatches per step (", layout_.lanes,
                ") must be a multiple of the number of processes (", workers, ")");
  MATSAMP_CHECK(worker >= 0 && worker < workers, "worker ", worker, " out of range [0, ", workers, ")");
  const int64_t per_worker = layout_.lanes / workers;
  return {worker * per_worker, (worker + 1) * per_worker};
}

std::pair<int64_t, int64_t> EpochPlan::lane_minibatches(const Bulk& bulk, std::pair<int64_t, int64_t> lanes) const {
  return {bulk.first + lane_start(bulk, lanes.first), bulk.first + lane_start(bulk, lanes.second)};
}

std::vector<std::pair<int64_t, int64_t>> EpochPlan::worker_bulks(int64_t worker, int64_t workers) const {
  const std::pair<int64_t, int64_t> lanes = rank_lanes(worker, workers);
  std::vector<std::pair<int64_t, int64_t>> out;
  for (int64_t b = 0; b < num_bulks(); ++b)
    if (const auto ids = lane_minibatches(bulk(b), lanes); ids.first < ids.second) out.push_back(ids);
  return out;
}

std::vector<int64_t> EpochPlan::training_sequence() const {
  std::vector<int64_t> out;
  out.reserve(num_minibatches_);
  for (int64_t b = 0; b < num_bulks(); ++b) {
    const Bulk bk = bulk(b);
    for (int64_t step = 0; step < bk.lane_length; ++step)
      for (int64_t lane = 0; lane < layout_.lanes; ++lane)
        if (const int64_t id = minibatch(bk, lane, step); id >= 0) out.push_back(id);
  }
  return out;
}

int64_t EpochPlan::minibatch_size(int64_t id) const { return starts_[id + 1] - starts_[id]; }

int64_t EpochPlan::step_seeds(const Bulk& bulk, int64_t step) const {
  int64_t seeds = 0;
  for (int64_t lane = 0; lane < layout_.lanes; ++lane) {
    const int64_t id = minibatch(bulk, lane, step);
    if (id >= 0) seeds += minibatch_size(id);
  }
  return seeds;
}

EpochOrder EpochPlan::order(const std::vector<vid_t>& items, uint64_t seed, uint32_t epoch, bool shuffle) const {
  MATSAMP_CHECK(static_cast<int64_t>(items.size()) == num_items_, "epoch order: ", items.size(),
                " training items for a plan of ", num_items_);
  if (layout_.locality.blocks > 0) return EpochOrder(locality_order(items, seed, epoch, shuffle), starts_);
  return EpochOrder(shuffle ? shuffle_vertices(items, seed, epoch) : items, starts_);
}

std::vector<vid_t> EpochPlan::locality_order(const std::vector<vid_t>& items, uint64_t seed, uint32_t epoch,
                                             bool shuffle) const {
  const int64_t blocks = layout_.locality.blocks, lanes = layout_.lanes;
  std::vector<std::vector<vid_t>> queue = vertices_per_block(items, layout_.locality);
  if (shuffle)
    for (int64_t j = 0; j < blocks; ++j) queue[j] = shuffle_vertices(queue[j], seed, epoch, static_cast<uint32_t>(j));
  std::vector<int64_t> lane_of(num_minibatches_, 0);
  for (int64_t b = 0; b < num_bulks(); ++b) {
    const Bulk bk = bulk(b);
    for (int64_t lane = 0; lane < lanes; ++lane)
      for (int64_t step = 0; step < bk.lane_length; ++step)
        if (const int64_t id = minibatch(bk, lane, step); id >= 0) lane_of[id] = lane;
  }
  // Each minibatch from its lane's block while the block lasts; then the
  // vertices no lane of their block had room for fill the slots still empty.
  std::vector<vid_t> order(num_items_, -1);
  std::vector<size_t> taken(blocks, 0);
  for (int64_t id = 0; id < num_minibatches_; ++id) {
    const int64_t block = lane_of[id] * blocks / lanes;
    const std::vector<vid_t>& from = queue[block];
    for (int64_t at = starts_[id]; at < starts_[id + 1] && taken[block] < from.size(); ++at)
      order[at] = from[taken[block]++];
  }
  std::vector<vid_t> rest;
  for (int64_t j = 0; j < blocks; ++j) rest.insert(rest.end(), queue[j].begin() + taken[j], queue[j].end());
  auto next = rest.begin();
  for (vid_t& v : order)
    if (v < 0) v = *next++;
  return order;
}

EpochOrder shuffled_order(const std::vector<vid_t>& items, int64_t batch_size, uint64_t seed, uint32_t epoch) {
  EpochLayout layout;
  layout.batch_size = batch_size;
  return EpochPlan(static_cast<int64_t>(items.size()), layout).order(items, seed, epoch);
}

}  // namespace matsamp
