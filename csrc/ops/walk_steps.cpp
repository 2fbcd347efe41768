// add_entries and first_columns: the bookkeeping of a random walk's steps
// (GraphSAINT's walk sampler), kept in the backend between its draws.
#include <algorithm>

#include "ops/ops.h"

namespace matsamp {

CsrMatrix add_entries(const CsrMatrix& a, const CsrMatrix& b) {
  MATSAMP_CHECK(a.rows == b.rows && a.cols == b.cols, "add_entries: A is ", a.shape(), ", B is ", b.shape());
  const auto value = [](const CsrMatrix& m, int64_t e) { return m.values.empty() ? 1.0f : m.values[e]; };
  CsrMatrix c(a.rows, a.cols);
  c.colidx.reserve(a.colidx.size() + b.colidx.size());
  c.values.reserve(c.colidx.capacity());
  for (int64_t r = 0; r < a.rows; ++r) {
    int64_t i = a.rowptr[r], j = b.rowptr[r];
    const int64_t i_end = a.rowptr[r + 1], j_end = b.rowptr[r + 1];
    while (i < i_end || j < j_end) {
      if (j == j_end || (i < i_end && a.colidx[i] < b.colidx[j])) {
        c.colidx.push_back(a.colidx[i]);
        c.values.push_back(value(a, i++));
      } else if (i == i_end || b.colidx[j] < a.colidx[i]) {
        c.colidx.push_back(b.colidx[j]);
        c.values.push_back(value(b, j++));
      } else {
        c.colidx.push_back(a.colidx[i]);
        c.values.push_back(value(a, i++) + value(b, j++));
      }
    }
    c.rowptr[r + 1] = static_cast<int64_t>(c.colidx.size());
  }
  return c;
}

std::vector<vid_t> first_columns(const CsrMatrix& m, const std::vector<vid_t>& fallback) {
  MATSAMP_CHECK(static_cast<int64_t>(fallback.size()) == m.rows, "first_columns: ", fallback.size(),
                " fallback ids for a matrix of ", m.rows, " rows");
  std::vector<vid_t> out(fallback);
  for (int64_t r = 0; r < m.rows; ++r)
    if (m.row_nnz(r) > 0) out[r] = m.colidx[m.rowptr[r]];
  return out;
}

}  // namespace matsamp
