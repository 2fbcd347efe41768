// An epoch of minibatches: a seeded shuffle of the training vertices cut into
// batches of b, sampled k at a time.
#pragma once
#include <vector>

#include "sampling/sampler.h"

namespace matsamp {

// The training vertices in the order of epoch `epoch` for `seed`: sorted by a
// Philox key per position, so any process computes the same order.
std::vector<vid_t> shuffle_vertices(const std::vector<vid_t>& vertices, uint64_t seed, uint32_t epoch);

// Minibatches of batch_size in an epoch over `vertices` training vertices (the last may be short).
int64_t minibatch_count(int64_t vertices, int64_t batch_size);

// The largest k in [1, minibatches] whose estimated memory fits budget_bytes;
// throws when not even one minibatch fits.
int64_t bulk_size_for_budget(const Sampler& sampler, int64_t batch_size, int64_t minibatches,
                             int64_t budget_bytes);

struct EpochOptions {
  int64_t batch_size = 1024;
  int64_t bulk_size = 0;                    // 0: the largest that fits memory_budget
  int64_t memory_budget = int64_t{4} << 30; // bytes
  uint64_t seed = 1;
  uint32_t epoch = 0;
  // The share of the epoch to sample: global minibatch ids [first_minibatch,
  // end_minibatch), end < 0 meaning the last. Distributed runs give each
  // worker a share; ids, and so the random keys, stay global.
  int64_t first_minibatch = 0;
  int64_t end_minibatch = -1;
};

class EpochIterator {
 public:
  EpochIterator(const Sampler& sampler, Backend& backend, const std::vector<vid_t>& train_vertices,
                const EpochOptions& options);
  int64_t num_minibatches() const { return num_minibatches_; }   // of the whole epoch
  int64_t bulk_size() const { return bulk_size_; }
  // Samples the next k minibatches into *out; false after the last one.
  bool next(BulkSample* out, StepStats* times = nullptr);

 private:
  const Sampler& sampler_;
  Backend& backend_;
  EpochOptions options_;
  std::vector<vid_t> order_;
  int64_t num_minibatches_ = 0;
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
