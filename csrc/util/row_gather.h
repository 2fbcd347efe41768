// Copies rows of a dense table by id (the features of sampled vertices). Each
// row is a random read the hardware prefetcher cannot guess, so the rows some
// ids ahead are prefetched while a row is copied; the team is sized by the
// bytes (threads_for).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "util/parallel.h"

namespace matsamp {

// out[i] = table[ids[i]] for rows of row_bytes bytes; the ids are in range.
template <class Id>
void gather_row_bytes(const char* table, int64_t row_bytes, const Id* ids, int64_t n, char* out) {
  constexpr int64_t kLookahead = 16, kLine = 64;
  if (row_bytes == 0) return;                                          // an empty table has no address to copy from
  const int64_t prefetched = std::min<int64_t>(row_bytes, 8 * kLine);  // longer rows stream on their own
#pragma omp parallel for schedule(static) num_threads(threads_for(n*(1 + row_bytes / kLine)))
  for (int64_t i = 0; i < n; ++i) {
    if (i + kLookahead < n) {
      const char* ahead = table + static_cast<int64_t>(ids[i + kLookahead]) * row_bytes;
      for (int64_t b = 0; b < prefetched; b += kLine) __builtin_prefetch(ahead + b);
    }
    std::memcpy(out + i * row_bytes, table + static_cast<int64_t>(ids[i]) * row_bytes, row_bytes);
  }
}

}  // namespace matsamp
