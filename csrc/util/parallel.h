// How OpenMP regions over rows are sized: the team by the work, the dynamic
// schedule's chunks by the rows.
#pragma once
#include <omp.h>

#include <algorithm>
#include <cstdint>

namespace matsamp {

// Threads for a parallel region over `work` items (rows drawn or copied, entries
// scanned, ids written): every thread for a large op, one for a small one. A team
// costs a wake-up and barriers, and on cores shared with other processes or with
// torch's threads a spinning barrier can wait a whole time slice for a partner
// that was descheduled: thousands of small ops (a Cora minibatch, one relation of
// a small heterogeneous graph) run faster alone. Results never depend on it.
inline int threads_for(int64_t work) {
  constexpr int64_t kMinWorkPerThread = 2048;
  return static_cast<int>(std::clamp<int64_t>(work / kMinWorkPerThread, 1, omp_get_max_threads()));
}

// About how many entries `rows` rows of the sparse matrix `a` hold, by its
// average row: the work of reading them.
template <class Matrix>
int64_t rows_work(const Matrix& a, int64_t rows) {
  return rows * (1 + a.nnz() / std::max<int64_t>(1, a.rows));
}

// At most max_chunk rows per chunk, and few enough that every thread gets
// several chunks: a product with one heavy row per minibatch (LADIES' P has k
// rows) must not land on a single thread.
inline int64_t row_chunk(int64_t rows, int64_t max_chunk) {
  const int64_t per_thread = rows / (4 * static_cast<int64_t>(omp_get_max_threads()));
  return std::clamp<int64_t>(per_thread, 1, max_chunk);
}

}  // namespace matsamp
