#include <algorithm>

#include "ops/op_checks.h"
#include "ops/ops.h"
#include "util/parallel.h"

namespace matsamp {

std::vector<vid_t> entry_positions(const CsrMatrix& a, const std::vector<vid_t>& rows, const CsrMatrix& s,
                                   const std::vector<vid_t>& columns) {
  check_entry_positions(s.rows, s.cols, static_cast<int64_t>(rows.size()), static_cast<int64_t>(columns.size()));
  check_ids_below(rows, a.rows, "entry_positions", "row id", a.shape());
  check_ids_below(columns, a.cols, "entry_positions", "column id", a.shape());
  std::vector<vid_t> out(s.nnz());
// Each entry a binary search in its row of a.
#pragma omp parallel for schedule(dynamic, 256) num_threads(threads_for(8 * s.nnz()))
  for (int64_t i = 0; i < s.rows; ++i) {
    const auto first = a.colidx.begin() + a.rowptr[rows[i]], last = a.colidx.begin() + a.rowptr[rows[i] + 1];
    for (int64_t e = s.rowptr[i]; e < s.rowptr[i + 1]; ++e) {
      const col_t c = static_cast<col_t>(columns[s.colidx[e]]);
      const auto hit = std::lower_bound(first, last, c);
      out[e] = hit != last && *hit == c ? hit - a.colidx.begin() : -1;
    }
  }
  return out;
}

}  // namespace matsamp
