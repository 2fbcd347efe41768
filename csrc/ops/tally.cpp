// Tallies of ids and of induced entries, and the rows they rescale (ops.h).
#include <algorithm>

#include "core/error.h"
#include "ops/op_checks.h"
#include "ops/ops.h"
#include "util/parallel.h"

namespace matsamp {

std::vector<int64_t> tally_ids(std::vector<int64_t> counts, const std::vector<vid_t>& ids) {
  check_ids_below(ids, static_cast<int64_t>(counts.size()), "tally_ids", "id",
                  std::to_string(counts.size()) + " tallies");
  // One pass, no threads: a chunk's ids are few, and threads would share cache lines of counts.
  for (vid_t id : ids) ++counts[id];
  return counts;
}

std::vector<int64_t> tally_induced_entries(std::vector<int64_t> counts, const CsrMatrix& a,
                                           const std::vector<vid_t>& ids, const Offsets& offsets) {
  MATSAMP_CHECK(a.rows == a.cols, "tally_induced_entries: the matrix is not square (", a.shape(), ")");
  MATSAMP_CHECK(static_cast<int64_t>(counts.size()) == a.nnz(), "tally_induced_entries: ", counts.size(),
                " tallies for ", a.shape());
  check_ids_below(ids, a.rows, "tally_induced_entries", "id", a.shape());
  check_block_offsets(offsets, static_cast<int64_t>(ids.size()), "tally_induced_entries", "block offsets");
  const int64_t k = static_cast<int64_t>(offsets.size()) - 1;
#pragma omp parallel num_threads(threads_for(rows_work(a, static_cast <int64_t>(ids.size()))))
  {
    std::vector<char> inside(a.rows, 0);  // this thread's membership marks
    std::vector<vid_t> block;
#pragma omp for schedule(dynamic, 1)
    for (int64_t g = 0; g < k; ++g) {
      // Rows in ascending order: a's rows and the counts are then read in address order.
      block.assign(ids.begin() + offsets[g], ids.begin() + offsets[g + 1]);
      std::sort(block.begin(), block.end());
      for (vid_t v : block) inside[v] = 1;
      for (vid_t v : block)
        for (int64_t e = a.rowptr[v]; e < a.rowptr[v + 1]; ++e)
          if (inside[a.colidx[e]]) __atomic_fetch_add(&counts[e], 1, __ATOMIC_RELAXED);
      for (vid_t v : block) inside[v] = 0;
    }
  }
  return counts;
}

CsrMatrix normalize_rows_by_tallies(const CsrMatrix& a, const std::vector<int64_t>& row_tallies,
                                    const std::vector<int64_t>& entry_tallies) {
  MATSAMP_CHECK(static_cast<int64_t>(row_tallies.size()) == a.rows &&
                    static_cast<int64_t>(entry_tallies.size()) == a.nnz(),
                "normalize_rows_by_tallies: ", row_tallies.size(), " row and ", entry_tallies.size(),
                " entry tallies for ", a.shape());
  CsrMatrix out = a;
  out.values.resize(a.nnz());
#pragma omp parallel for schedule(static) num_threads(threads_for(a.rows + a.nnz()))
  for (int64_t v = 0; v < a.rows; ++v) {
    double row_sum = 0;
    for (int64_t e = a.rowptr[v]; e < a.rowptr[v + 1]; ++e) row_sum += a.values.empty() ? 1.0 : a.values[e];
    for (int64_t e = a.rowptr[v]; e < a.rowptr[v + 1]; ++e) {
      const double value = a.values.empty() ? 1.0 : a.values[e];
      const double scale = row_tallies[v] > 0 && entry_tallies[e] > 0
                               ? static_cast<double>(row_tallies[v]) / static_cast<double>(entry_tallies[e])
                               : 1.0;
      out.values[e] = row_sum > 0 ? static_cast<float>(value / row_sum * scale) : 0.0f;
    }
  }
  return out;
}

}  // namespace matsamp
