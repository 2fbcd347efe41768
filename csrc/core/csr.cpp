#include "core/csr.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <utility>

#include "util/parallel.h"

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

namespace {

// Entry slots grouped by row: slot e of row r (in [start[r], start[r + 1])) holds
// column cols[e] from input position order[e], in any order within the row.
struct RowSlots {
  std::vector<int64_t> start;
  std::vector<col_t> cols;
  std::vector<int64_t> order;
};

// A counting sort by row, threaded. Each thread counts and places a contiguous
// part of the input, so that a row's slots keep the input's order (then a row
// whose columns came ascending needs no sort); that takes rows counts per
// thread, so where those would outnumber the entries, atomic counts and slots
// instead (the order within a row is then fixed by sorting it).
template <class Id>
RowSlots slots_by_row(int64_t rows, const Id* row_ids, const Id* col_ids, int64_t m) {
  RowSlots s{std::vector<int64_t>(rows + 1, 0), std::vector<col_t>(m), std::vector<int64_t>(m)};
  const int threads = threads_for(m);
  if (static_cast<double>(rows) * threads > static_cast<double>(m) && threads > 1) {
#pragma omp parallel for num_threads(threads)
    for (int64_t i = 0; i < m; ++i) {
#pragma omp atomic
      ++s.start[row_ids[i] + 1];
    }
    std::partial_sum(s.start.begin(), s.start.end(), s.start.begin());
    std::vector<int64_t> next(s.start.begin(), s.start.end() - 1);
#pragma omp parallel for num_threads(threads)
    for (int64_t i = 0; i < m; ++i) {
      int64_t slot;
#pragma omp atomic capture
      slot = next[row_ids[i]]++;
      s.order[slot] = i;
      s.cols[slot] = static_cast<col_t>(col_ids[i]);
    }
    return s;
  }
  std::vector<int64_t> next(static_cast<size_t>(threads) * rows, 0);  // thread t's counts, then its next slots
#pragma omp parallel num_threads(threads)
  {
    const int team = omp_get_num_threads(), t = omp_get_thread_num();
    int64_t* mine = next.data() + static_cast<size_t>(t) * rows;
    const int64_t i0 = m * t / team, i1 = m * (t + 1) / team;
    for (int64_t i = i0; i < i1; ++i) ++mine[row_ids[i]];
#pragma omp barrier
#pragma omp for schedule(static)
    for (int64_t r = 0; r < rows; ++r)
      for (int u = 0; u < team; ++u) s.start[r + 1] += next[static_cast<size_t>(u) * rows + r];
#pragma omp single
    std::partial_sum(s.start.begin(), s.start.end(), s.start.begin());
#pragma omp for schedule(static)
    for (int64_t r = 0; r < rows; ++r) {  // row r's slots: thread 0's entries first, then thread 1's, ...
      int64_t slot = s.start[r];
      for (int u = 0; u < team; ++u) {
        const int64_t count = next[static_cast<size_t>(u) * rows + r];
        next[static_cast<size_t>(u) * rows + r] = slot;
        slot += count;
      }
    }
    for (int64_t i = i0; i < i1; ++i) {
      const int64_t slot = mine[row_ids[i]]++;
      s.order[slot] = i;
      s.cols[slot] = static_cast<col_t>(col_ids[i]);
    }
  }
  return s;
}

// Sorts row r's slots by (column, input position) and merges repeats into the
// first of them, at the row's first slots; returns how many remain. sums[e]:
// the merged entry's weights summed in input order (when sums is not empty).
int64_t merge_row(RowSlots& s, int64_t r, const float* weights, std::vector<float>& sums,
                  std::vector<std::pair<col_t, int64_t>>& row) {
  const int64_t begin = s.start[r], end = s.start[r + 1];
  if (std::is_sorted(s.cols.begin() + begin, s.cols.begin() + end, std::less_equal<col_t>()) &&
      std::is_sorted(s.order.begin() + begin, s.order.begin() + end)) {  // in order and no repeats: as it is
    for (int64_t e = begin; e < end && !sums.empty(); ++e) sums[e] = weights ? weights[s.order[e]] : 1.0f;
    return end - begin;
  }
  row.clear();
  for (int64_t e = begin; e < end; ++e) row.emplace_back(s.cols[e], s.order[e]);
  std::sort(row.begin(), row.end());  // in cache: no reads of the input while sorting
  int64_t at = begin - 1;
  double sum = 0;
  for (size_t j = 0; j < row.size(); ++j) {
    const auto [c, i] = row[j];
    const double v = weights ? weights[i] : 1.0;
    if (j > 0 && c == s.cols[at]) {
      sum += v;
      continue;
    }
    if (!sums.empty() && at >= begin) sums[at] = static_cast<float>(sum);
    ++at;
    s.cols[at] = c;
    s.order[at] = i;
    sum = v;
  }
  if (!sums.empty() && at >= begin) sums[at] = static_cast<float>(sum);
  return at + 1 - begin;
}

// Moves each row's first (rowptr[r + 1] - rowptr[r]) slots down to rowptr[r], in
// row order (a row never moves past one not yet moved), and drops the rest.
template <class T>
void move_rows_down(std::vector<T>& slots, const std::vector<int64_t>& start, const std::vector<int64_t>& rowptr) {
  const int64_t rows = static_cast<int64_t>(rowptr.size()) - 1;
  for (int64_t r = 0; r < rows; ++r)
    std::copy(slots.begin() + start[r], slots.begin() + start[r] + (rowptr[r + 1] - rowptr[r]),
              slots.begin() + rowptr[r]);
  slots.resize(rowptr[rows]);
  slots.shrink_to_fit();
}

}  // namespace

// A counting sort by row, then each row sorted and its repeats merged in place,
// rows in parallel, and the merged rows moved down: O(m) work beside the rows'
// own sorts, and no scratch beyond the outputs (columns, input positions,
// values) and O(rows).
template <class Id>
CsrMatrix csr_from_edges(int64_t rows, int64_t cols, const Id* row_ids, const Id* col_ids, int64_t m,
                         const float* weights, bool with_values, std::vector<int64_t>* origin) {
  check_column_count(cols, "csr_from_triples");
  int64_t bad = m;  // the first entry outside the shape
#pragma omp parallel for reduction(min : bad) num_threads(threads_for(m))
  for (int64_t i = 0; i < m; ++i)
    if (row_ids[i] < 0 || row_ids[i] >= rows || col_ids[i] < 0 || col_ids[i] >= cols) bad = std::min(bad, i);
  MATSAMP_CHECK(bad == m, "csr_from_triples: entry (", bad < m ? static_cast<int64_t>(row_ids[bad]) : 0, ", ",
                bad < m ? static_cast<int64_t>(col_ids[bad]) : 0, ") outside ", rows, " x ", cols);
  RowSlots s = slots_by_row(rows, row_ids, col_ids, m);
  CsrMatrix out(rows, cols);
  std::vector<float> sums(with_values ? m : 0);
#pragma omp parallel num_threads(threads_for(rows + m))
  {
    std::vector<std::pair<col_t, int64_t>> row;
#pragma omp for schedule(dynamic, 256)
    for (int64_t r = 0; r < rows; ++r) out.rowptr[r + 1] = merge_row(s, r, weights, sums, row);
  }
  std::partial_sum(out.rowptr.begin(), out.rowptr.end(), out.rowptr.begin());
  move_rows_down(s.cols, s.start, out.rowptr);
  move_rows_down(s.order, s.start, out.rowptr);
  if (with_values) {
    move_rows_down(sums, s.start, out.rowptr);
    out.values = std::move(sums);
  }
  out.colidx = std::move(s.cols);
  if (origin) *origin = std::move(s.order);
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
