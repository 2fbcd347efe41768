// One row of P that every minibatch shares (FastGCN's and GraphSAINT's node
// sampler's p(v) ∝ ‖Â[:,v]‖²) when no rank holds it: block q of the process column
// holds the values of vertices [begin(q), end(q)) and their inclusive prefix of
// quantized weights in the whole row's coordinates. A draw of its_sample is then a
// search for a target in that prefix, answered by the block holding the target.
//
// SharedRowDraws replays prefix_sampling.h's sample_row for one row's key against
// such searches, in rounds: the targets of the picks still missing go out
// together; a prefix rebuild (more than s repeats) changes the targets after it,
// so the draws behind one are asked again. The picks are those of its_sample on
// the whole row, bit for bit.
#pragma once
#include <cstdint>
#include <vector>

#include "core/csr.h"
#include "core/philox.h"
#include "core/row_blocks.h"

namespace matsamp {

// A search's answer: the first vertex whose inclusive prefix exceeds the target,
// its value, and the prefix before it.
struct PrefixHit {
  vid_t vertex = 0;
  float value = 0;
  uint64_t before = 0;
};

// The whole row's shape, the same on every block.
struct SharedRowShape {
  float row_max = 0;                  // the row's largest value (the quantization's scale)
  int64_t positive = 0;               // entries > 0 in the whole row
  std::vector<uint64_t> block_start;  // the prefix before each block, then the row's total
  std::vector<int64_t> block_positive;

  uint64_t total() const { return block_start.back(); }
  // The block whose part of the prefix holds target (< total()).
  int owner(uint64_t target) const;
};

// This block's part.
class SharedRowBlock {
 public:
  // Collective over `column` (rank q holds block q of `blocks`): `values` are the
  // row's values at this block's vertices (0 where the row has no entry).
  SharedRowBlock(class Communicator& column, const RowBlocks& blocks, std::vector<float> values);

  const RowBlocks& blocks() const { return blocks_; }
  const SharedRowShape& shape() const { return shape_; }
  vid_t first() const { return first_; }
  vid_t end() const { return first_ + static_cast<vid_t>(values_.size()); }
  bool holds(vid_t v) const { return v >= first_ && v < end(); }
  float value(vid_t v) const { return values_[v - first_]; }
  // target must lie in this block's part of the prefix.
  PrefixHit search(uint64_t target) const;
  // The positive entries, ascending: (vertex, value) pairs.
  void append_positive(std::vector<col_t>* vertices, std::vector<float>* values) const;

 private:
  RowBlocks blocks_;
  int block_ = 0;
  vid_t first_ = 0;
  std::vector<float> values_;
  std::vector<uint64_t> prefix_;  // inclusive, whole-row coordinates
  SharedRowShape shape_;
};

class SharedRowDraws {
 public:
  // The row must have more than s positive entries (else every row takes them all).
  SharedRowDraws(int64_t s, const SharedRowShape& shape, const RandomKey& key);

  bool done() const { return static_cast<int64_t>(picked_.size()) == s_; }
  // Appends the targets of the next draws (as many as picks are missing).
  void targets(std::vector<uint64_t>* out) const;
  // The answers to the last targets(), in order.
  void take(const PrefixHit* hits, int64_t count);
  // The picks, ascending by vertex.
  const std::vector<PrefixHit>& picked() const { return picked_; }

 private:
  uint64_t weight(const PrefixHit& h) const;

  int64_t s_;
  uint64_t total_;
  float row_max_;
  RandomKey key_;
  uint32_t draw_ = 0;  // the next draw's number
  int64_t misses_ = 0;
  std::vector<PrefixHit> picked_;
  std::vector<PrefixHit> excluded_;  // the picks at the last rebuild
  uint64_t excluded_weight_ = 0;
};

}  // namespace matsamp
