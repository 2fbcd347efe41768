// Gustavson's dense accumulator for one sparse row at a time, with the touched
// columns marked in a bitmap, which also puts them in order (sort_marked.h).
#pragma once
#include <cstdint>
#include <vector>

#include "core/csr.h"
#include "ops/sort_marked.h"

namespace matsamp {

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

  // The first value of a column is assigned, later ones added, so a
  // column's result is the sum of its terms in the order they came.
  void add(col_t j, float value) {
    if (mark(j)) {
      sums_[j] = value;
      touched_.push_back(j);
    } else {
      sums_[j] += value;
    }
  }

  // Asks for column j's sum and mark ahead of an add: rows of a product touch
  // the n-sized arrays at random, so a scatter stalls on each miss otherwise.
  // (always_inline: GCC drops prefetches in helpers it proves side-effect free.)
  [[gnu::always_inline]] void prefetch(col_t j) const {
    __builtin_prefetch(sums_.data() + j, 1);
    __builtin_prefetch(marks_.data() + (j >> 6), 1);
  }

  // Ends the row: emit(column, sum) in ascending column order.
  template <class Emit>
  void drain(Emit emit) {
    sort_marked(touched_, 0, marks_.data(), marks_.size());
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
