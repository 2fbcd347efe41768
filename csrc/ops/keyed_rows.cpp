// select_rows_by_key: rows of a keyed matrix looked up per block (link
// prediction's masks), and sequence_ids.
#include <algorithm>
#include <numeric>

#include "ops/op_checks.h"
#include "ops/ops.h"
#include "util/parallel.h"

namespace matsamp {

CsrMatrix select_rows_by_key(const CsrMatrix& m, const std::vector<vid_t>& keys, const Offsets& key_offsets,
                             const std::vector<vid_t>& rows, const Offsets& row_offsets) {
  check_select_rows_by_key(m.rows, static_cast<int64_t>(keys.size()), key_offsets, static_cast<int64_t>(rows.size()),
                           row_offsets);
  for (size_t g = 0; g + 1 < key_offsets.size(); ++g)
    for (int64_t j = key_offsets[g] + 1; j < key_offsets[g + 1]; ++j)
      MATSAMP_CHECK(keys[j - 1] < keys[j], "select_rows_by_key: the keys of block ", g,
                    " are not ascending and distinct (", keys[j - 1], " then ", keys[j], ")");
  // Pass 1: each row's source in m (-1: none) and length; pass 2 copies the rows into place.
  const int64_t n = static_cast<int64_t>(rows.size());
  CsrMatrix out(n, m.cols);
  std::vector<int64_t> source(n, -1);
  const int64_t blocks = static_cast<int64_t>(row_offsets.size()) - 1;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads_for(16 * n))
  for (int64_t g = 0; g < blocks; ++g) {
    const auto begin = keys.begin() + key_offsets[g], end = keys.begin() + key_offsets[g + 1];
    for (int64_t i = row_offsets[g]; i < row_offsets[g + 1]; ++i) {
      const auto at = std::lower_bound(begin, end, rows[i]);
      if (at == end || *at != rows[i]) continue;
      source[i] = at - keys.begin();
      out.rowptr[i + 1] = m.row_nnz(source[i]);
    }
  }
  std::partial_sum(out.rowptr.begin(), out.rowptr.end(), out.rowptr.begin());
  out.colidx.resize(out.rowptr.back());
  out.values.resize(out.rowptr.back());
#pragma omp parallel for schedule(dynamic, row_chunk(n, 1024)) num_threads(threads_for(n + out.nnz()))
  for (int64_t i = 0; i < n; ++i) {
    if (source[i] < 0) continue;
    const int64_t from = m.rowptr[source[i]], len = m.row_nnz(source[i]);
    std::copy_n(m.colidx.begin() + from, len, out.colidx.begin() + out.rowptr[i]);
    if (m.values.empty()) std::fill_n(out.values.begin() + out.rowptr[i], len, 1.0f);
    else std::copy_n(m.values.begin() + from, len, out.values.begin() + out.rowptr[i]);
  }
  return out;
}

std::vector<vid_t> sequence_ids(int64_t n) {
  MATSAMP_CHECK(n >= 0, "sequence_ids: a negative count ", n);
  std::vector<vid_t> ids(n);
  std::iota(ids.begin(), ids.end(), vid_t{0});
  return ids;
}

}  // namespace matsamp
