// Chunk sizes for OpenMP's dynamic schedule over rows.
#pragma once
#include <omp.h>

#include <algorithm>
#include <cstdint>

namespace matsamp {

// At most max_chunk rows per chunk, and few enough that every thread gets
// several chunks: a product with one heavy row per minibatch (LADIES' P has k
// rows) must not land on a single thread.
inline int64_t row_chunk(int64_t rows, int64_t max_chunk) {
  const int64_t per_thread = rows / (4 * static_cast<int64_t>(omp_get_max_threads()));
  return std::clamp<int64_t>(per_thread, 1, max_chunk);
}

}  // namespace matsamp
