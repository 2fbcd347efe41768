#include "shared_row.h"

#include <algorithm>

#include "communicator.h"
#include "ops/its_sample_row.h"

namespace matsamp {

int SharedRowShape::owner(uint64_t target) const {
  // The last block starting at or below target: empty blocks before it start there too.
  const auto after = std::upper_bound(block_start.begin(), block_start.end() - 1, target);
  return static_cast<int>(after - block_start.begin()) - 1;
}

SharedRowBlock::SharedRowBlock(Communicator& column, const RowBlocks& blocks, std::vector<float> values)
    : blocks_(blocks),
      block_(column.rank()),
      first_(static_cast<vid_t>(blocks.begin(block_))),
      values_(std::move(values)) {
  MATSAMP_CHECK(blocks.count == column.size() &&
                    static_cast<int64_t>(values_.size()) == blocks.end(column.rank()) - blocks.begin(column.rank()),
                "shared row: block ", column.rank(), " has ", values_.size(), " values for ", blocks.count,
                " blocks of ", blocks.n, " vertices on ", column.size(), " ranks");
  float block_max = 0;
  int64_t positive = 0;
  for (float v : values_) {
    block_max = std::max(block_max, v);
    positive += v > 0;
  }
  const std::vector<float> maxima = column.all_gatherv(std::vector<float>{block_max});
  shape_.row_max = *std::max_element(maxima.begin(), maxima.end());
  shape_.block_positive = column.all_gatherv(std::vector<int64_t>{positive});
  for (int64_t p : shape_.block_positive) shape_.positive += p;

  prefix_.resize(values_.size());
  uint64_t running = 0;
  for (size_t i = 0; i < values_.size(); ++i) prefix_[i] = running += quantized_weight(values_[i], shape_.row_max);
  const std::vector<uint64_t> totals = column.all_gatherv(std::vector<uint64_t>{running});
  shape_.block_start.assign(1, 0);
  for (uint64_t t : totals) shape_.block_start.push_back(shape_.block_start.back() + t);
  for (uint64_t& p : prefix_) p += shape_.block_start[block_];
}

PrefixHit SharedRowBlock::search(uint64_t target) const {
  MATSAMP_CHECK(target >= shape_.block_start[block_] && target < shape_.block_start[block_ + 1], "shared row: target ",
                target, " is not in the part of vertices [", first_, ", ", end(), ")");
  const auto hit = std::upper_bound(prefix_.begin(), prefix_.end(), target);
  const size_t i = static_cast<size_t>(hit - prefix_.begin());
  return {static_cast<vid_t>(first_ + i), values_[i], *hit - quantized_weight(values_[i], shape_.row_max)};
}

void SharedRowBlock::append_positive(std::vector<col_t>* vertices, std::vector<float>* values) const {
  for (size_t i = 0; i < values_.size(); ++i)
    if (values_[i] > 0) {
      vertices->push_back(static_cast<col_t>(first_ + i));
      values->push_back(values_[i]);
    }
}

SharedRowDraws::SharedRowDraws(int64_t s, const SharedRowShape& shape, const RandomKey& key)
    : s_(s), total_(shape.total()), row_max_(shape.row_max), key_(key) {
  MATSAMP_CHECK(s > 0 && shape.positive > s, "shared row draws: ", s, " picks of a row with ", shape.positive,
                " positive entries (take them all instead)");
}

uint64_t SharedRowDraws::weight(const PrefixHit& h) const { return quantized_weight(h.value, row_max_); }

void SharedRowDraws::targets(std::vector<uint64_t>* out) const {
  const int64_t missing = s_ - static_cast<int64_t>(picked_.size());
  for (int64_t i = 0; i < missing; ++i) {
    // sample_row's target in the prefix without the excluded entries, moved past each
    // excluded entry it reaches: the stored prefix's coordinate of the same entry.
    uint64_t target = scale_to(random_bits(key_, draw_ + static_cast<uint32_t>(i)), total_ - excluded_weight_);
    for (const PrefixHit& e : excluded_) {
      if (e.before > target) break;
      target += weight(e);
    }
    out->push_back(target);
  }
}

void SharedRowDraws::take(const PrefixHit* hits, int64_t count) {
  for (int64_t i = 0; i < count && !done(); ++i) {
    ++draw_;
    const PrefixHit& hit = hits[i];
    const auto at = std::lower_bound(picked_.begin(), picked_.end(), hit.vertex,
                                     [](const PrefixHit& p, vid_t v) { return p.vertex < v; });
    if (at == picked_.end() || at->vertex != hit.vertex) {
      picked_.insert(at, hit);
    } else if (++misses_ > s_) {  // sample_row's rebuild: the draws asked after this one change
      excluded_ = picked_;
      excluded_weight_ = 0;
      for (const PrefixHit& e : excluded_) excluded_weight_ += weight(e);
      misses_ = 0;
      return;
    }
  }
}

}  // namespace matsamp
