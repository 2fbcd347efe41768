// Products with selector matrices, computed directly instead of through spgemm.
#include <algorithm>
#include <numeric>

#include "ops/op_checks.h"
#include "ops/ops.h"
#include "ops/sorted_row.h"
#include "util/parallel.h"

namespace matsamp {

CsrMatrix select_rows(const CsrMatrix& a, const std::vector<vid_t>& rows) {
  const int64_t m = static_cast<int64_t>(rows.size());
  CsrMatrix out(m, a.cols);
  for (int64_t i = 0; i < m; ++i) {
    MATSAMP_CHECK(rows[i] >= 0 && rows[i] < a.rows, "select_rows: row id ", rows[i],
                  " out of range for ", a.shape());
    out.rowptr[i + 1] = out.rowptr[i] + a.row_nnz(rows[i]);
  }
  out.colidx.resize(out.rowptr.back());
  out.values.resize(out.rowptr.back());
#pragma omp parallel for schedule(dynamic, row_chunk(m, 512))
  for (int64_t i = 0; i < m; ++i) {
    const int64_t src = a.rowptr[rows[i]], len = a.row_nnz(rows[i]);
    std::copy_n(a.colidx.begin() + src, len, out.colidx.begin() + out.rowptr[i]);
    if (a.values.empty())
      std::fill_n(out.values.begin() + out.rowptr[i], len, 1.0f);
    else
      std::copy_n(a.values.begin() + src, len, out.values.begin() + out.rowptr[i]);
  }
  return out;
}

CsrMatrix select_cols(const CsrMatrix& a, const std::vector<vid_t>& cols,
                      const std::vector<float>& weights) {
  const int64_t k = static_cast<int64_t>(cols.size());
  return select_cols_blocked(a, {0, a.rows}, cols, {0, k}, weights);
}

CsrMatrix select_cols_blocked(const CsrMatrix& a, const Offsets& row_offsets,
                              const std::vector<vid_t>& cols, const Offsets& col_offsets,
                              const std::vector<float>& weights) {
  const char* op = "select_cols";
  const int64_t total_cols = static_cast<int64_t>(cols.size());
  check_block_offsets(row_offsets, a.rows, op, "row offsets");
  check_block_offsets(col_offsets, total_cols, op, "column offsets");
  MATSAMP_CHECK(row_offsets.size() == col_offsets.size(), op, ": ", row_offsets.size() - 1,
                " row blocks but ", col_offsets.size() - 1, " column blocks");
  MATSAMP_CHECK(weights.empty() || weights.size() == cols.size(), op, ": ", weights.size(),
                " weights for ", cols.size(), " columns");
  check_column_count(total_cols, op);
  for (vid_t c : cols)
    MATSAMP_CHECK(c >= 0 && c < a.cols, op, ": column id ", c, " out of range for ", a.shape());

  // Per block, (original column, selector column) pairs sorted for lookup.
  const int64_t blocks = static_cast<int64_t>(row_offsets.size()) - 1;
  std::vector<std::pair<vid_t, col_t>> selector(cols.size());
  for (int64_t j = 0; j < total_cols; ++j) selector[j] = {cols[j], static_cast<col_t>(j)};
#pragma omp parallel for schedule(dynamic, 1)
  for (int64_t g = 0; g < blocks; ++g)
    std::sort(selector.begin() + col_offsets[g], selector.begin() + col_offsets[g + 1]);

  // Two passes over the rows (count, then fill), in parallel over rows; the
  // block of a row is found by binary search in row_offsets. Most entries of a
  // row miss the selector (few sampled vertices per minibatch), so each thread
  // keeps a bitmap of its current block's columns and searches only on a hit.
  struct BlockFilter {
    int64_t block = -1;
    std::vector<uint64_t> columns;
  };
  auto enter = [&](BlockFilter& f, int64_t g) {
    if (f.block == g) return;
    if (f.columns.empty()) f.columns.assign((a.cols + 63) / 64, 0);
    if (f.block >= 0)
      for (int64_t j = col_offsets[f.block]; j < col_offsets[f.block + 1]; ++j) f.columns[selector[j].first >> 6] = 0;
    for (int64_t j = col_offsets[g]; j < col_offsets[g + 1]; ++j)
      f.columns[selector[j].first >> 6] |= uint64_t{1} << (selector[j].first & 63);
    f.block = g;
  };
  auto matches = [&](int64_t r, BlockFilter& f, auto&& emit) {
    const int64_t g = std::upper_bound(row_offsets.begin(), row_offsets.end(), r) - row_offsets.begin() - 1;
    enter(f, g);
    const auto first = selector.begin() + col_offsets[g], last = selector.begin() + col_offsets[g + 1];
    for (int64_t e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e) {
      const col_t c = a.colidx[e];
      if (!(f.columns[c >> 6] >> (c & 63) & 1)) continue;
      auto hit = std::lower_bound(first, last, std::pair<vid_t, col_t>{c, 0});
      for (; hit != last && hit->first == c; ++hit) emit(e, hit->second);
    }
  };
  CsrMatrix out(a.rows, total_cols);
#pragma omp parallel
  {
    BlockFilter filter;
#pragma omp for schedule(dynamic, row_chunk(a.rows, 256))
    for (int64_t r = 0; r < a.rows; ++r) {
      int64_t count = 0;
      matches(r, filter, [&](int64_t, col_t) { ++count; });
      out.rowptr[r + 1] = count;
    }
  }
  for (int64_t r = 0; r < a.rows; ++r) out.rowptr[r + 1] += out.rowptr[r];
  out.colidx.resize(out.rowptr.back());
  out.values.resize(out.rowptr.back());
#pragma omp parallel
  {
    BlockFilter filter;
    RowEntries row;
#pragma omp for schedule(dynamic, row_chunk(a.rows, 256))
    for (int64_t r = 0; r < a.rows; ++r) {
      row.clear();
      matches(r, filter, [&](int64_t e, col_t j) {
        const float v = a.values.empty() ? 1.0f : a.values[e];
        row.push_back({j, weights.empty() ? v : v * weights[j]});
      });
      write_sorted_row(row, out, r);
    }
  }
  return out;
}

}  // namespace matsamp
