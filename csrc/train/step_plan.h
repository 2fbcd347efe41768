// How the minibatches of an epoch become optimizer steps on p ranks.
//
// A step trains on `lanes` minibatches at once (the global batch), and the
// ranks share the lanes. Minibatches are sampled in bulks of `steps_per_bulk`
// steps laid out lane-major: lane j of a bulk is a run of consecutive minibatch
// ids, and step t takes the t-th minibatch of every lane (a short last bulk
// spreads its minibatches over all lanes evenly). The layout depends on
// neither p nor the rank, so p = 1 and p = 2 train on the same minibatches per
// step, and each rank's lanes form one contiguous id range it samples in one call.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "sampling/epoch.h"
#include "sampling/sampler.h"

namespace matsamp {

class StepPlan {
 public:
  // Minibatches of batch_size, the last one short; or `balanced` (for locality
  // blocks): as many steps as full lanes of batch_size need, ceil(n / (lanes ·
  // batch_size)), of `lanes` minibatches each, every size within one of the others
  // (at most batch_size). Then each step trains on about as many seeds from every
  // block, where one short minibatch would leave a block's leftovers a step of their
  // own (a biased step: a block is a community).
  StepPlan(int64_t num_training_vertices, int64_t batch_size, int64_t lanes, int64_t steps_per_bulk,
           bool balanced = false);

  struct Bulk {
    int64_t first = 0;        // first minibatch id
    int64_t end = 0;          // one past the last
    int64_t lane_length = 0;  // minibatches of the longest lane, the number of steps of this bulk
  };

  int64_t num_minibatches() const { return num_minibatches_; }
  int64_t num_bulks() const;
  int64_t lanes() const { return lanes_; }
  int64_t steps_per_bulk() const { return steps_per_bulk_; }
  Bulk bulk(int64_t index) const;
  // The minibatch of `lane` at `step` of the bulk, or -1 when that lane has run out.
  int64_t minibatch(const Bulk& bulk, int64_t lane, int64_t step) const;
  // The lanes [first, second) of `rank` out of `ranks` (which must divide lanes()).
  std::pair<int64_t, int64_t> rank_lanes(int rank, int ranks) const;
  // The minibatch ids [first, second) that the given lanes cover in the bulk.
  std::pair<int64_t, int64_t> lane_minibatches(const Bulk& bulk, std::pair<int64_t, int64_t> lanes) const;
  int64_t minibatch_size(int64_t id) const;
  // Where each minibatch starts in the epoch order, and where the last ends.
  const std::vector<int64_t>& minibatch_starts() const { return starts_; }
  // Seeds of one step over all lanes: what a step's mean loss divides by.
  int64_t step_seeds(const Bulk& bulk, int64_t step) const;

  // The epoch's seed order (cut into minibatches at minibatch_starts()): a shuffle of
  // train_vertices, or with locality blocks B (B must divide the lanes), every
  // minibatch of lane j filled from the shuffled training vertices of block
  // j·B/lanes, so that a rank's lanes draw from the blocks of its process row.
  // Blocks with more training vertices than their lanes hold lend the rest to
  // the minibatches left unfilled, in block order. Depends on neither p nor the rank.
  std::vector<vid_t> epoch_order(const std::vector<vid_t>& train_vertices, uint64_t seed, uint32_t epoch,
                                 const BatchLocality& locality) const;

 private:
  int64_t lane_start(const Bulk& bulk, int64_t lane) const;  // offset of the lane's first minibatch in the bulk

  int64_t num_vertices_, lanes_, steps_per_bulk_, num_minibatches_;
  std::vector<int64_t> starts_;  // num_minibatches_ + 1 offsets into the epoch order
};

// Samples minibatches [ids.first, ids.second) of an epoch cut as `order`, on
// the host. Empty when the range is. `numbered_from`: the number of the order's
// first minibatch, when it is a share of a larger epoch.
BulkSample sample_minibatches(const Sampler& sampler, Context& ctx, const EpochOrder& order,
                              std::pair<int64_t, int64_t> ids, uint32_t epoch, int64_t numbered_from = 0);

}  // namespace matsamp
