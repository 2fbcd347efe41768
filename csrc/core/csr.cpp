#include "core/csr.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace matsamp {

std::string CsrMatrix::shape() const { return detail::concat(rows, " x ", cols, " (", nnz(), " nonzeros)"); }

void check_column_count(int64_t cols, const char* what) {
  MATSAMP_CHECK(cols >= 0 && cols <= std::numeric_limits<col_t>::max(), what, ": ", cols,
                " columns do not fit 32-bit column ids (limit 2^31 - 1)");
}

void validate(const CsrMatrix& m, const std::string& what) {
  MATSAMP_CHECK(m.rows >= 0 && m.cols >= 0, what, ": negative shape ", m.rows, " x ", m.cols);
  check_column_count(m.cols, what.c_str());
  MATSAMP_CHECK(static_cast<int64_t>(m.rowptr.size()) == m.rows + 1, what, ": ", m.rowptr.size(), " row pointers for ",
                m.rows, " rows");
  MATSAMP_CHECK(m.rowptr.front() == 0 && m.rowptr.back() == m.nnz(), what,
                ": row pointers must run from 0 to nnz = ", m.nnz());
  MATSAMP_CHECK(m.values.empty() || m.values.size() == m.colidx.size(), what, ": ", m.values.size(), " values for ",
                m.nnz(), " column ids");
  for (int64_t r = 0; r < m.rows; ++r) {
    MATSAMP_CHECK(m.rowptr[r] <= m.rowptr[r + 1], what, ": row pointers decrease at row ", r);
    for (int64_t e = m.rowptr[r]; e < m.rowptr[r + 1]; ++e) {
      const col_t c = m.colidx[e];
      MATSAMP_CHECK(c >= 0 && c < m.cols, what, ": column id ", c, " out of range [0, ", m.cols, ") in row ", r);
      MATSAMP_CHECK(e == m.rowptr[r] || m.colidx[e - 1] < c, what, ": column ids not sorted and unique in row ", r);
      if (!m.values.empty()) {
        const float v = m.values[e];
        MATSAMP_CHECK(std::isfinite(v) && v >= 0, what, ": value ", v, " in row ", r,
                      " is not a finite non-negative weight");
      }
    }
  }
}

// A counting sort by row (threaded), then each row's slice sorted by (column,
// input position) and its repeats merged in place, rows in parallel; the merged rows
// are then moved down to their final place. O(m) work beside the rows' own
// sorts, and no scratch beyond the entries' input positions and O(rows).
template <class Id>
CsrMatrix csr_from_edges(int64_t rows, int64_t cols, const Id* row_ids, const Id* col_ids, int64_t m,
                         const float* weights, bool with_values, std::vector<int64_t>* origin) {
  check_column_count(cols, "csr_from_triples");
  int64_t bad = m;  // the first entry outside the shape
#pragma omp parallel for reduction(min : bad)
  for (int64_t i = 0; i < m; ++i)
    if (row_ids[i] < 0 || row_ids[i] >= rows || col_ids[i] < 0 || col_ids[i] >= cols) bad = std::min(bad, i);
  MATSAMP_CHECK(bad == m, "csr_from_triples: entry (", bad < m ? static_cast<int64_t>(row_ids[bad]) : 0, ", ",
                bad < m ? static_cast<int64_t>(col_ids[bad]) : 0, ") outside ", rows, " x ", cols);
  // Counted and scattered in any order: the sort by (column, position) below fixes it.
  std::vector<int64_t> row_start(rows + 1, 0);
#pragma omp parallel for
  for (int64_t i = 0; i < m; ++i) {
#pragma omp atomic
    ++row_start[row_ids[i] + 1];
  }
  std::partial_sum(row_start.begin(), row_start.end(), row_start.begin());
  std::vector<int64_t> order(m);
  {
    std::vector<int64_t> next(row_start.begin(), row_start.end() - 1);
#pragma omp parallel for
    for (int64_t i = 0; i < m; ++i) {
      int64_t slot;
#pragma omp atomic capture
      slot = next[row_ids[i]]++;
      order[slot] = i;
    }
  }
  CsrMatrix out(rows, cols);
  std::vector<float> sums(with_values ? m : 0);
#pragma omp parallel for schedule(dynamic, 256)
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t begin = row_start[r], end = row_start[r + 1];
    std::sort(order.begin() + begin, order.begin() + end,
              [&](int64_t x, int64_t y) { return col_ids[x] != col_ids[y] ? col_ids[x] < col_ids[y] : x < y; });
    int64_t at = begin - 1;
    double sum = 0;  // a repeated entry's values summed in input order
    for (int64_t e = begin; e < end; ++e) {
      const int64_t i = order[e];
      const double v = weights ? weights[i] : 1.0;
      if (e > begin && col_ids[i] == col_ids[order[at]]) {
        sum += v;
        continue;
      }
      if (with_values && at >= begin) sums[at] = static_cast<float>(sum);
      order[++at] = i;
      sum = v;
    }
    if (with_values && at >= begin) sums[at] = static_cast<float>(sum);
    out.rowptr[r + 1] = at + 1 - begin;
  }
  std::partial_sum(out.rowptr.begin(), out.rowptr.end(), out.rowptr.begin());
  for (int64_t r = 0; r < rows; ++r) {  // rows move down (never past an unmoved row), in row order
    const int64_t count = out.rowptr[r + 1] - out.rowptr[r];
    std::copy(order.begin() + row_start[r], order.begin() + row_start[r] + count, order.begin() + out.rowptr[r]);
    if (with_values)
      std::copy(sums.begin() + row_start[r], sums.begin() + row_start[r] + count, sums.begin() + out.rowptr[r]);
  }
  const int64_t nnz = out.rowptr[rows];
  order.resize(nnz);
  order.shrink_to_fit();
  if (with_values) {
    sums.resize(nnz);
    sums.shrink_to_fit();
    out.values = std::move(sums);
  }
  out.colidx.resize(nnz);
#pragma omp parallel for
  for (int64_t e = 0; e < nnz; ++e) out.colidx[e] = static_cast<col_t>(col_ids[order[e]]);
  if (origin) *origin = std::move(order);
  return out;
}

template CsrMatrix csr_from_edges<int32_t>(int64_t, int64_t, const int32_t*, const int32_t*, int64_t, const float*,
                                           bool, std::vector<int64_t>*);
template CsrMatrix csr_from_edges<int64_t>(int64_t, int64_t, const int64_t*, const int64_t*, int64_t, const float*,
                                           bool, std::vector<int64_t>*);

CsrMatrix csr_from_triples(int64_t rows, int64_t cols, std::vector<int64_t> row_ids, std::vector<int64_t> col_ids,
                           std::vector<float> vals, std::vector<int64_t>* origin) {
  const int64_t m = static_cast<int64_t>(row_ids.size());
  MATSAMP_CHECK(static_cast<int64_t>(col_ids.size()) == m && (vals.empty() || static_cast<int64_t>(vals.size()) == m),
                "csr_from_triples: triple arrays differ in length");
  return csr_from_edges(rows, cols, row_ids.data(), col_ids.data(), m, vals.empty() ? nullptr : vals.data(), true,
                        origin);
}

CsrMatrix transpose(const CsrMatrix& m, std::vector<int64_t>* origin) {
  check_column_count(m.rows, "transpose");
  CsrMatrix t(m.cols, m.rows);
  if (origin) origin->assign(m.nnz(), 0);
  for (col_t c : m.colidx) ++t.rowptr[c + 1];
  std::partial_sum(t.rowptr.begin(), t.rowptr.end(), t.rowptr.begin());
  t.colidx.resize(m.nnz());
  t.values.resize(m.nnz());
  std::vector<int64_t> next(t.rowptr.begin(), t.rowptr.end() - 1);
  for (int64_t r = 0; r < m.rows; ++r)
    for (int64_t e = m.rowptr[r]; e < m.rowptr[r + 1]; ++e) {
      const int64_t pos = next[m.colidx[e]]++;
      t.colidx[pos] = static_cast<col_t>(r);
      t.values[pos] = m.values.empty() ? 1.0f : m.values[e];
      if (origin) (*origin)[pos] = e;
    }
  return t;
}

bool is_pattern_symmetric(const CsrMatrix& m) {
  if (m.rows != m.cols) return false;
  const CsrMatrix t = transpose(m);
  return t.rowptr == m.rowptr && t.colidx == m.colidx;
}

CsrMatrix indicator_rows(int64_t k, int64_t cols,
                         const std::function<void(int64_t g, std::vector<vid_t>& row)>& row_ids) {
  CsrMatrix q(k, cols);
  std::vector<vid_t> row;
  for (int64_t g = 0; g < k; ++g) {
    row.clear();
    row_ids(g, row);
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    for (vid_t v : row) q.colidx.push_back(static_cast<col_t>(v));
    q.rowptr[g + 1] = static_cast<int64_t>(q.colidx.size());
  }
  q.values.assign(q.colidx.size(), 1.0f);
  return q;
}

}  // namespace matsamp
