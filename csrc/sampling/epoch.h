// An epoch of minibatches: a seeded shuffle of the training vertices cut into
// batches of b (optionally per locality block), sampled k at a time.
#pragma once
#include <vector>

#include "sampling/sampler.h"

namespace matsamp {

// The training vertices in the order of epoch `epoch` for `seed`: sorted by a
// Philox key per position, so any process computes the same order. Streams give
// independent orders (one per locality block).
std::vector<vid_t> shuffle_vertices(const std::vector<vid_t>& vertices, uint64_t seed, uint32_t epoch,
                                    uint32_t stream = 0);

// Minibatches of batch_size in an epoch over `vertices` training vertices (the last may be short).
int64_t minibatch_count(int64_t vertices, int64_t batch_size);

// Minibatches drawn from one block of vertex ids each (DistDGL-style locality).
// With blocks > 0, the training vertices of each of `blocks` equal id ranges of
// [0, vertices) (RowBlocks) are shuffled (stream = block) and cut into minibatches
// apart, blocks in order; a block's last minibatch may be short. After `matsamp
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
// The number of minibatches of each locality block (one entry without locality).
std::vector<int64_t> minibatches_per_block(const std::vector<vid_t>& train_vertices, int64_t batch_size,
                                           const BatchLocality& locality);

// The largest k in [1, minibatches] whose estimated memory fits budget_bytes;
// throws when not even one minibatch fits.
int64_t bulk_size_for_budget(const Sampler& sampler, int64_t batch_size, int64_t minibatches, int64_t budget_bytes);

struct EpochOptions {
  int64_t batch_size = 1024;
  int64_t bulk_size = 0;                     // 0: the largest that fits memory_budget
  int64_t memory_budget = int64_t{4} << 30;  // bytes
  uint64_t seed = 1;
  uint32_t epoch = 0;
  // The share of the epoch to sample: global minibatch ids [first_minibatch,
  // end_minibatch), end < 0 meaning the last. Distributed runs give each
  // worker a share; ids, and so the random keys, stay global.
  int64_t first_minibatch = 0;
  int64_t end_minibatch = -1;
  BatchLocality locality{};  // blocks = 0: minibatches from all training vertices
};

// The epoch's seed order cut into minibatches: minibatch g is
// order[starts[g], starts[g + 1]). The one place an epoch is cut, for the
// epoch iterator, the trainer and the Python loader.
class EpochOrder {
 public:
  // A seeded shuffle of the training vertices (per locality block, blocks in
  // order, each block cut apart) in minibatches of batch_size; unshuffled, the
  // vertices keep their given order within each block.
  EpochOrder(const std::vector<vid_t>& train_vertices, int64_t batch_size, uint64_t seed, uint32_t epoch,
             const BatchLocality& locality = {}, bool shuffle = true);
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
  void append(const std::vector<vid_t>& run, int64_t batch_size);
  std::vector<vid_t> order_;
  std::vector<int64_t> starts_{0};
};

// Samples minibatches [first, end) of an epoch on ctx.backend; the order's minibatch
// i is numbered numbered_from + i (its random draws follow the number).
Bulk sample_minibatches(const Sampler& sampler, Context& ctx, const EpochOrder& order, int64_t first, int64_t end,
                        uint32_t epoch, int64_t numbered_from = 0);

class EpochIterator {
 public:
  EpochIterator(const Sampler& sampler, Context ctx, const std::vector<vid_t>& train_vertices,
                const EpochOptions& options);
  int64_t num_minibatches() const { return order_.num_minibatches(); }  // of the whole epoch
  int64_t bulk_size() const { return bulk_size_; }
  // Samples the next k minibatches into *out, on the host; false after the last one.
  bool next(BulkSample* out, StepStats* times = nullptr);
  // The same, the layers left in the backend that sampled them.
  bool next_resident(Bulk* out, StepStats* times = nullptr);

 private:
  const Sampler& sampler_;
  Context ctx_;
  EpochOptions options_;
  EpochOrder order_;
  int64_t bulk_size_ = 1;
  int64_t next_minibatch_ = 0;
  int64_t end_minibatch_ = 0;
};

}  // namespace matsamp
namespace matsamp {
// The training vertices: the first ceil(fraction · n) of a seeded shuffle of
// all vertices (epoch-independent), in ascending id.
std::vector<vid_t> training_vertices(int64_t n, double fraction, uint64_t seed);
}  // namespace matsamp
