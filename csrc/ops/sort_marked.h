// Putting a set of ids in order when a bitmap marks them: sort the ids, or,
// when they are many, read them off the bitmap.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace matsamp {

// Puts items[first, end) in ascending order, where marks[0, words) has exactly
// their bits set, and clears those marks. Few items are sorted; many are read
// off the bitmap in one pass over its words, cheaper once m log m exceeds them.
template <class T>
void sort_marked(std::vector<T>& items, size_t first, uint64_t* marks, size_t words) {
  const double count = static_cast<double>(items.size() - first);
  if (count * std::log2(count + 2) < static_cast<double>(words)) {
    std::sort(items.begin() + first, items.end());
    for (size_t i = first; i < items.size(); ++i) marks[items[i] >> 6] = 0;
    return;
  }
  items.resize(first);
  for (size_t q = 0; q < words; ++q) {
    for (uint64_t w = marks[q]; w != 0; w &= w - 1) items.push_back(static_cast<T>(q * 64 + __builtin_ctzll(w)));
    marks[q] = 0;
  }
}

}  // namespace matsamp
