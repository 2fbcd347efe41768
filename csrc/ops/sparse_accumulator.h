// Gustavson's dense accumulator for one sparse row at a time, with the touched
// columns marked in a bitmap, and the bitmap trick that puts them in order.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/csr.h"

namespace matsamp {

// Puts items[first, end) in ascending order, where `marks` has exactly their
// bits set, and clears the marks. Few items are sorted; many are read off the
// bitmap in one pass over its words, which is cheaper once m log m exceeds them.
template <class T>
void sort_marked(std::vector<T>& items, size_t first, std::vector<uint64_t>& marks) {
  const double count = static_cast<double>(items.size() - first);
  if (count * std::log2(count + 2) < static_cast<double>(marks.size())) {
    std::sort(items.begin() + first, items.end());
    for (size_t i = first; i < items.size(); ++i) marks[items[i] >> 6] = 0;
    return;
  }
  items.resize(first);
  for (size_t q = 0; q < marks.size(); ++q) {
    for (uint64_t w = marks[q]; w != 0; w &= w - 1) items.push_back(static_cast<T>(q * 64 + __builtin_ctzll(w)));
    marks[q] = 0;
  }
}

class SparseAccumulator {
 public:
  explicit SparseAccumulator(int64_t cols) : cols_(cols) {}

  // Call before each row: the O(cols) arrays are made on first use only, so
  // threads that get no row pay nothing.
  void start_row() {
    if (sums_.empty() && cols_ > 0) {
      sums_.assign(cols_, 0.0f);
      marks_.assign((cols_ + 63) / 64, 0);
    }
  }

  // Symbolic: marks column j.
  void touch(col_t j) {
    if (mark(j)) touched_.push_back(j);
  }

  // Numeric: the first value of a column is assigned, later ones added, so a
  // column's result is the sum of its terms in the order they came.
  void add(col_t j, float value) {
    if (mark(j)) {
      sums_[j] = value;
      touched_.push_back(j);
    } else {
      sums_[j] += value;
    }
  }

  int64_t touched() const { return static_cast<int64_t>(touched_.size()); }

  // Ends a symbolic row.
  void forget() {
    for (col_t j : touched_) marks_[j >> 6] = 0;
    touched_.clear();
  }

  // Ends a numeric row: emit(column, sum) in ascending column order.
  template <class Emit>
  void drain(Emit emit) {
    sort_marked(touched_, 0, marks_);
    for (col_t j : touched_) emit(j, sums_[j]);
    touched_.clear();
  }

 private:
  // Sets j's bit; true when it was clear.
  bool mark(col_t j) {
    uint64_t& word = marks_[j >> 6];
    const uint64_t bit = uint64_t{1} << (j & 63);
    const bool fresh = !(word & bit);
    word |= bit;
    return fresh;
  }

  int64_t cols_;
  std::vector<float> sums_;
  std::vector<uint64_t> marks_;
  std::vector<col_t> touched_;
};

}  // namespace matsamp
