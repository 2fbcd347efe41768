// One row of inverse transform sampling; shared by the CPU op and its tests.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/philox.h"
#include "core/philox_batch.h"
#include "ops/sort_marked.h"

namespace matsamp {

// Integer weight of a value relative to the row maximum: 0 for non-positive
// values, otherwise ceil(value / row_max · 2^24), in [1, 2^24]. IEEE division and
// an exact ceiling make it the same everywhere; the CUDA backend calls it on the
// device (MATSAMP_HD) for identical weights. The ceiling is a truncation plus
// one for a fraction: std::ceil is a libm call on baseline x86-64, and this is
// the inner loop of every prefix built.
MATSAMP_HD uint64_t quantized_weight(float value, float row_max) {
  if (!(value > 0)) return 0;
  const double scaled = static_cast<double>(value) / row_max * 16777216.0;  // in (0, 2^24]
  const int64_t whole = static_cast<int64_t>(scaled);
  return static_cast<uint64_t>(whole + (static_cast<double>(whole) < scaled));
}

class RowSampler {
 public:
  // Picks min(s, #positive) distinct positions of values[0, len); returns how
  // many. picked() lists them in ascending order.
  int64_t sample(const float* values, int64_t len, int64_t s, const RandomKey& key) {
    picked_.clear();
    float row_max = 0;
    int64_t positive = 0;
    for (int64_t i = 0; i < len; ++i) {
      row_max = std::max(row_max, values[i]);
      positive += values[i] > 0;
    }
    if (positive <= s) {  // everything is taken; no randomness needed
      for (int64_t i = 0; i < len; ++i)
        if (values[i] > 0) picked_.push_back(i);
      return positive;
    }
    prefix_.resize(len);
    taken_.assign(len, 0);
    build_prefix(values, len, row_max);
    uint32_t draw = 0;
    int64_t misses = 0;
    while (static_cast<int64_t>(picked_.size()) < s) {
      const uint64_t target = scale_to(random_bits(key, draw++), prefix_[len - 1]);
      const int64_t i = std::upper_bound(prefix_.begin(), prefix_.end(), target) - prefix_.begin();
      if (!taken_[i]) {
        taken_[i] = 1;
        picked_.push_back(i);
      } else if (++misses > s) {
        // Skewed rows repeat often: take the chosen entries out of the prefix
        // and go on. The distribution of what follows is unchanged.
        build_prefix(values, len, row_max);
        misses = 0;
      }
    }
    std::sort(picked_.begin(), picked_.end());
    return s;
  }

  // The same picks as sample() on a row of len equal positive values, in
  // O(s) instead of O(len): every weight is 2^24, so a draw lands on the
  // (target >> 24)-th entry not excluded at the last prefix rebuild. Picks are
  // marked in a bitmap that outlives the row (sort_marked, which orders them,
  // clears only this row's words), so the repeat test needs no branchy search.
  int64_t sample_uniform(int64_t len, int64_t s, const RandomKey& key) {
    picked_.clear();
    if (len <= s) {
      for (int64_t i = 0; i < len; ++i) picked_.push_back(i);
      return len;
    }
    excluded_.clear();
    const int64_t words = (len + 63) / 64;
    if (static_cast<int64_t>(marks_.size()) < words) marks_.resize(words, 0);
    // The first s draws' bits in one batch (AVX2 where the machine has it),
    // any redraws one at a time.
    bits_.resize(s);
    random_bits_of_draws(key, 0, s, bits_.data());
    uint32_t draw = 0;
    int64_t misses = 0;
    while (static_cast<int64_t>(picked_.size()) < s) {
      const uint64_t total = static_cast<uint64_t>(len - static_cast<int64_t>(excluded_.size())) << 24;
      const uint64_t bits = draw < static_cast<uint64_t>(s) ? bits_[draw] : random_bits(key, draw);
      ++draw;
      int64_t i = static_cast<int64_t>(scale_to(bits, total) >> 24);
      for (int64_t e : excluded_) {
        if (e > i) break;
        ++i;
      }
      uint64_t& word = marks_[i >> 6];
      const uint64_t bit = uint64_t{1} << (i & 63);
      if (!(word & bit)) {
        word |= bit;
        picked_.push_back(i);
      } else if (++misses > s) {  // mirrors the prefix rebuild of sample()
        excluded_ = picked_;
        std::sort(excluded_.begin(), excluded_.end());
        misses = 0;
      }
    }
    sort_marked(picked_, 0, marks_.data(), static_cast<size_t>(words));
    return s;
  }

  const std::vector<int64_t>& picked() const { return picked_; }

 private:
  void build_prefix(const float* values, int64_t len, float row_max) {
    uint64_t running = 0;
    for (int64_t i = 0; i < len; ++i) {
      running += taken_[i] ? 0 : quantized_weight(values[i], row_max);
      prefix_[i] = running;
    }
  }

  std::vector<uint64_t> prefix_;
  std::vector<char> taken_;
  std::vector<int64_t> picked_;
  std::vector<int64_t> excluded_;  // sorted; sample_uniform only
  std::vector<uint64_t> marks_;    // picked entries; all zero between rows
  std::vector<uint64_t> bits_;     // sample_uniform's first draws
};

}  // namespace matsamp
