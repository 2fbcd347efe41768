// How an epoch's training items become minibatches, bulks and steps: the one
// place an epoch is cut, for the sample and bench commands, the trainer, the
// distributed runs and the Python loaders.
//
// A step takes `lanes` minibatches at once (the global batch), and workers (ranks,
// or process rows) share the lanes. Minibatches are sampled in bulks of
// `steps_per_bulk` steps laid out lane-major: lane j of a bulk is a run of
// consecutive minibatch ids, and step t takes the t-th minibatch of every lane (a
// short last bulk spreads its minibatches over all lanes evenly). The layout
// depends on neither the number of workers nor the worker, so any number of them
// sample the same minibatches, and each worker's lanes of a bulk form one
// contiguous id range it samples in one call.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "sampling/epoch.h"

namespace matsamp {

struct EpochLayout {
  int64_t batch_size = 1024;
  int64_t lanes = 1;           // minibatches per step
  int64_t steps_per_bulk = 1;  // steps sampled at once
  // blocks > 0: every minibatch of lane j is filled from the training vertices of
  // id block j·B/lanes (B must divide the lanes), and the steps are balanced.
  BatchLocality locality{};
};

// The lanes of a step: minibatches_per_step, or when that is 0 the smallest
// multiple of the locality blocks (if any) that `workers` can share.
int64_t step_lanes(int64_t minibatches_per_step, int64_t locality_blocks, int64_t workers);

class EpochPlan {
 public:
  // Minibatches of batch_size, the last one short; with locality blocks balanced:
  // as many steps as full lanes of batch_size need, ceil(n / (lanes · batch_size)),
  // of `lanes` minibatches each, every size within one of the others (at most
  // batch_size). Then each step trains on about as many seeds from every block,
  // where one short minibatch would leave a block's leftovers a step of their own
  // (a biased step: a block is a community).
  EpochPlan(int64_t num_items, const EpochLayout& layout);

  struct Bulk {
    int64_t first = 0;        // first minibatch id
    int64_t end = 0;          // one past the last
    int64_t lane_length = 0;  // minibatches of the longest lane, the number of steps of this bulk
  };

  int64_t num_minibatches() const { return num_minibatches_; }
  int64_t num_bulks() const;
  int64_t lanes() const { return layout_.lanes; }
  int64_t steps_per_bulk() const { return layout_.steps_per_bulk; }
  const EpochLayout& layout() const { return layout_; }
  Bulk bulk(int64_t index) const;
  // The minibatch of `lane` at `step` of the bulk, or -1 when that lane has run out.
  int64_t minibatch(const Bulk& bulk, int64_t lane, int64_t step) const;
  // The lanes [first, second) of `worker` out of `workers` (which must divide lanes()).
  std::pair<int64_t, int64_t> rank_lanes(int64_t worker, int64_t workers) const;
  // The minibatch ids [first, second) that the given lanes cover in the bulk.
  std::pair<int64_t, int64_t> lane_minibatches(const Bulk& bulk, std::pair<int64_t, int64_t> lanes) const;
  // The minibatch ids `worker` of `workers` samples, bulk by bulk (empty ranges left out).
  std::vector<std::pair<int64_t, int64_t>> worker_bulks(int64_t worker, int64_t workers) const;
  // Every minibatch id in the order steps train on them: bulk by bulk, step by step, lane by lane.
  std::vector<int64_t> training_sequence() const;
  int64_t minibatch_size(int64_t id) const;
  // Where each minibatch starts in the epoch order, and where the last ends.
  const std::vector<int64_t>& minibatch_starts() const { return starts_; }
  // Seeds of one step over all lanes: what a step's mean loss divides by.
  int64_t step_seeds(const Bulk& bulk, int64_t step) const;

  // The epoch's seed order cut into minibatches: a seeded shuffle of the items
  // (or their given order), or with locality blocks every minibatch of lane j
  // filled from the shuffled training vertices of block j·B/lanes, so that a
  // worker's lanes draw from the blocks it holds. Blocks with more training
  // vertices than their lanes hold lend the rest to the minibatches left
  // unfilled, in block order. Depends on neither the workers nor the worker.
  EpochOrder order(const std::vector<vid_t>& items, uint64_t seed, uint32_t epoch, bool shuffle = true) const;

 private:
  int64_t lane_start(const Bulk& bulk, int64_t lane) const;  // offset of the lane's first minibatch in the bulk
  std::vector<vid_t> locality_order(const std::vector<vid_t>& items, uint64_t seed, uint32_t epoch, bool shuffle) const;

  int64_t num_items_;
  EpochLayout layout_;
  int64_t num_minibatches_ = 0;
  std::vector<int64_t> starts_;  // num_minibatches_ + 1 offsets into the epoch order
};

// The order of a plan of one lane without locality: the seeded shuffle of the
// items cut every batch_size (what single-process benches and pre-sampling take).
EpochOrder shuffled_order(const std::vector<vid_t>& items, int64_t batch_size, uint64_t seed, uint32_t epoch);

}  // namespace matsamp
