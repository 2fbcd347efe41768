// Accumulators for one sparse row of a product at a time. Both sum a column's terms
// in the order they came (the first assigned, later ones added) and emit columns in
// ascending order, so they give the same bits:
// - SparseAccumulator, Gustavson's dense one: arrays over all columns (4.125 bytes
//   per column per thread), touched columns marked in a bitmap that also orders them
//   (sort_marked.h); right when the call's terms are a fair share of the columns;
// - SortingAccumulator: the row's terms, stably sorted by column at the end; memory
//   sized by the row, right when the columns far outnumber the terms (a rank's share
//   of a graph with 10^8 vertices).
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>
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

class SortingAccumulator {
 public:
  void start_row() {}
  void add(col_t j, float value) { terms_.emplace_back(j, value); }
  void prefetch(col_t) const {}

  template <class Emit>
  void drain(Emit emit) {
    std::stable_sort(terms_.begin(), terms_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (size_t t = 0; t < terms_.size();) {
      const col_t j = terms_[t].first;
      float sum = terms_[t++].second;
      for (; t < terms_.size() && terms_[t].first == j; ++t) sum += terms_[t].second;
      emit(j, sum);
    }
    terms_.clear();
  }

 private:
  std::vector<std::pair<col_t, float>> terms_;
};

// Whether the dense accumulator pays for its per-thread arrays: while the call's
// terms are at least a 32nd of the columns (as compact.cpp's dense vertex index).
inline bool dense_accumulator_pays(int64_t cols, int64_t terms) { return cols <= 32 * terms; }

}  // namespace matsamp
