// An epoch of minibatches: the seeded shuffle of the training vertices, the
// epoch order cut into minibatches, and the iterator that samples a worker's
// share of them bulk by bulk (the cut itself: sampling/epoch_plan.h).
#pragma once
#include <memory>
#include <vector>

#include "sampling/capabilities.h"
#include "sampling/sampler.h"

namespace matsamp {

class EpochPlan;

// The training vertices in the order of epoch `epoch` for `seed`: sorted by a
// Philox key per position, so any process computes the same order. Streams give
// independent orders (one per locality block).
std::vector<vid_t> shuffle_vertices(const std::vector<vid_t>& vertices, uint64_t seed, uint32_t epoch,
                                    uint32_t stream = 0);

// Minibatches of batch_size in an epoch over `vertices` training vertices (the last may be short).
int64_t minibatch_count(int64_t vertices, int64_t batch_size);

// Minibatches drawn from one block of vertex ids each (DistDGL-style locality):
// `blocks` equal id ranges of [0, vertices) (RowBlocks), each shuffled apart
// (stream = block), feed the lanes of a step (EpochPlan). After `matsamp
// partition` the ranges are close to the graph's parts, so a minibatch's
// neighbourhood stays mostly in its block, and in the partitioned 1.5D layout
// with as many process rows, on its own ranks. blocks = 0: one shuffle of all.
struct BatchLocality {
  int blocks = 0;
  int64_t vertices = 0;  // n: the id range the blocks split
};
// The training vertices of each locality block (blocks >= 1), in their given order.
std::vector<std::vector<vid_t>> vertices_per_block(const std::vector<vid_t>& train_vertices,
                                                   const BatchLocality& locality);

// A minibatch's estimated bytes as its bulk holds them: by time (`trees`), its
// seeds' trees and their merge at once, twice the estimate.
inline int64_t bulk_bytes_per_minibatch(int64_t estimate, bool trees) { return (trees ? 2 : 1) * estimate; }

// The largest k in [1, minibatches] whose estimated memory fits budget_bytes
// (bulk_bytes_per_minibatch); throws when not even one minibatch fits.
int64_t bulk_size_for_budget(const Sampler& sampler, int64_t batch_size, int64_t minibatches, int64_t budget_bytes,
                             bool trees = false);

// Sampling by time (TemporalSampler): every seed is a tree of its own, sampled
// as of its vertex's time and keyed by its place in the epoch (the same trees at
// any bulk size); a minibatch is its seeds' trees merged hop by hop.
struct TemporalEpoch {
  Ids order, sorted_times;            // the adjacency's TimeOrder (ops.h), in the sampling backend
  std::vector<int64_t> vertex_times;  // each vertex's time as a seed
  TemporalStrategy strategy = TemporalStrategy::uniform;
};

// An epoch as the sample and bench commands take it (the trainer's own options
// add the model's). Distributed runs give each worker its share: its lanes of
// every bulk (EpochPlan); minibatch ids, and so the random keys, stay global.
struct EpochOptions {
  int64_t batch_size = 1024;
  int64_t bulk_size = 0;                     // minibatches a worker samples at once; 0: the most that fit memory_budget
  int64_t memory_budget = int64_t{4} << 30;  // bytes
  uint64_t seed = 1;
  uint32_t epoch = 0;
  BatchLocality locality{};          // blocks = 0: minibatches from all training vertices
  int64_t minibatches_per_step = 0;  // lanes of a step; 0: step_lanes' default for the locality blocks and workers
  // Steps of the layout's bulks (EpochPlan); 0: as many as a worker's bulk holds.
  // Only with locality blocks do they change which vertices a minibatch holds.
  int64_t bulk_steps = 0;
  int64_t worker = 0, workers = 1;               // this worker's share
  std::shared_ptr<const TemporalEpoch> times{};  // null: untimed
};

// The epoch's seed order cut into minibatches: minibatch g is
// order[starts[g], starts[g + 1]). EpochPlan::order makes an epoch's.
class EpochOrder {
 public:
  EpochOrder() = default;  // no minibatches
  // A given order, cut every batch_size vertices.
  EpochOrder(std::vector<vid_t> order, int64_t batch_size);
  // A given order, cut at `starts` (ascending offsets, from 0 to the order's size).
  EpochOrder(std::vector<vid_t> order, std::vector<int64_t> starts);

  int64_t num_minibatches() const { return static_cast<int64_t>(starts_.size()) - 1; }
  const std::vector<vid_t>& order() const { return order_; }
  const std::vector<int64_t>& starts() const { return starts_; }
  // The seeds of minibatches [first, end), stacked, and their offsets.
  std::pair<std::vector<vid_t>, Offsets> seeds(int64_t first, int64_t end) const;

 private:
  std::vector<vid_t> order_;
  std::vector<int64_t> starts_{0};
};

// Samples minibatches [first, end) of an epoch on ctx.backend; the order's minibatch
// i is numbered numbered_from + i (its random draws follow the number).
Bulk sample_minibatches(const Sampler& sampler, Context& ctx, const EpochOrder& order, int64_t first, int64_t end,
                        uint32_t epoch, int64_t numbered_from = 0);
// The same by time (TemporalEpoch): one block per seed, keyed by its place in the
// order (after trees_before of other orders: a share's trees numbered among all
// shares'), then each minibatch's trees merged hop-major by backend ops
// (disjoint_trees.h: the frontier first, a vertex once per tree that reaches it).
Bulk sample_minibatches_by_time(const Sampler& sampler, Context& ctx, const EpochOrder& order, int64_t first,
                                int64_t end, uint32_t epoch, const TemporalEpoch& times, int64_t numbered_from = 0,
                                int64_t trees_before = 0);
// Trees by time, one per seed: tree i (key first_tree + i) sampled as of seed_times[i],
// minibatch g (global id first_minibatch + g) holding trees [minibatch_trees[g],
// minibatch_trees[g + 1]), merged as above. What the epochs by time share.
Bulk sample_trees_by_time(const Sampler& sampler, Context& ctx, std::vector<vid_t> seeds,
                          std::vector<int64_t> seed_times, const Offsets& minibatch_trees, int64_t first_minibatch,
                          int64_t first_tree, uint32_t epoch, const TemporalEpoch& times);

// Samples a worker's share of an epoch (EpochOptions), bulk by bulk.
class EpochIterator {
 public:
  EpochIterator(const Sampler& sampler, Context ctx, const std::vector<vid_t>& train_vertices,
                const EpochOptions& options);
  ~EpochIterator();
  int64_t num_minibatches() const;  // of the whole epoch
  int64_t bulk_size() const;        // minibatches this worker samples at once (the last bulk may have fewer)
  const EpochPlan& plan() const { return *plan_; }
  // Samples the next k minibatches into *out, on the host; false after the last one.
  bool next(BulkSample* out, StepStats* times = nullptr);
  // The same, the layers left in the backend that sampled them.
  bool next_resident(Bulk* out, StepStats* times = nullptr);

 private:
  const Sampler& sampler_;
  Context ctx_;
  EpochOptions options_;
  std::unique_ptr<const EpochPlan> plan_;
  EpochOrder order_;
  int64_t bulk_size_ = 1;
  std::vector<std::pair<int64_t, int64_t>> bulks_;  // this worker's minibatch ids, bulk by bulk
  size_t next_bulk_ = 0;
};

}  // namespace matsamp
namespace matsamp {
// The training vertices: the first ceil(fraction · n) of a seeded shuffle of
// all vertices (epoch-independent), in ascending id.
std::vector<vid_t> training_vertices(int64_t n, double fraction, uint64_t seed);
}  // namespace matsamp
