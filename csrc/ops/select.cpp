// Products with selector matrices, computed directly instead of through spgemm.
#include <algorithm>
#include <numeric>

#include "ops/build_rows.h"
#include "ops/op_checks.h"
#include "ops/ops.h"
#include "ops/prefetch.h"
#include "ops/sorted_row.h"
#include "util/parallel.h"

namespace matsamp {

namespace {

// select_cols_blocked of the matrix whose row i is row source[i] of A (row i
// itself when source is null), m rows, without forming that matrix.
CsrMatrix select_cols_of_rows(const CsrMatrix& a, const vid_t* source, int64_t m, const Offsets& row_offsets,
                              const std::vector<vid_t>& cols, const Offsets& col_offsets,
                              const std::vector<float>& weights) {
  check_select_cols(a, m, row_offsets, cols, col_offsets, weights);
  const int64_t total_cols = static_cast<int64_t>(cols.size());

  // In parallel over rows; the block of a row is found by binary search in
  // row_offsets. Most entries of a row miss the selector (few sampled vertices
  // per minibatch): each thread keeps a bitmap of its current block's columns,
  // and the block's (original column, selector column) pairs sorted, searched on
  // a hit. Where the selectors name most of A's columns (a reordering of them, as
  // the merge of disjoint trees has), every entry hits: each thread keeps each
  // column's places in its block's selector as a chain instead (no sort, no search).
  const bool dense = a.cols <= 2 * total_cols;
  const int64_t blocks = static_cast<int64_t>(row_offsets.size()) - 1;
  std::vector<std::pair<vid_t, col_t>> selector;
  if (!dense) {
    selector.resize(cols.size());
    for (int64_t j = 0; j < total_cols; ++j) selector[j] = {cols[j], static_cast<col_t>(j)};
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads_for(total_cols))
    for (int64_t g = 0; g < blocks; ++g)
      std::sort(selector.begin() + col_offsets[g], selector.begin() + col_offsets[g + 1]);
  }
  struct BlockFilter {
    int64_t block = -1;
    std::vector<uint64_t> columns;  // sparse: a bit per column of A
    std::vector<int32_t> place;     // dense: a column's first place in the block's selector, -1 if none,
    std::vector<int32_t> next;      // and each place's next one with the same column
  };
  auto enter = [&](BlockFilter& f, int64_t g) {
    if (f.block == g) return;
    if (dense && f.place.empty()) f.place.assign(a.cols, -1);
    if (!dense && f.columns.empty()) f.columns.assign((a.cols + 63) / 64, 0);
    if (f.block >= 0)
      for (int64_t j = col_offsets[f.block]; j < col_offsets[f.block + 1]; ++j) {
        if (dense) f.place[cols[j]] = -1;
        else f.columns[cols[j] >> 6] = 0;
      }
    const int64_t first = col_offsets[g], size = col_offsets[g + 1] - first;
    if (dense) f.next.resize(size);
    for (int64_t j = size - 1; j >= 0; --j) {  // backwards: each chain ascends
      const vid_t c = cols[first + j];
      if (!dense) {
        f.columns[c >> 6] |= uint64_t{1} << (c & 63);
        continue;
      }
      f.next[j] = f.place[c];
      f.place[c] = static_cast<int32_t>(j);
    }
    f.block = g;
  };
  return build_rows_once(m, total_cols, 256, rows_work(a, m), [&] {
    return [&, filter = BlockFilter(), row = RowEntries()](int64_t r, auto&& emit) mutable {
      const int64_t g = std::upper_bound(row_offsets.begin(), row_offsets.end(), r) - row_offsets.begin() - 1;
      enter(filter, g);
      if (source) prefetch_rows_ahead(a, source, m, r);
      const int64_t src = source ? source[r] : r;
      row.clear();
      const auto keep = [&](int64_t j, float v) {
        row.push_back({static_cast<col_t>(j), weights.empty() ? v : v * weights[j]});
      };
      for (int64_t e = a.rowptr[src]; e < a.rowptr[src + 1]; ++e) {
        const col_t c = a.colidx[e];
        const float v = a.values.empty() ? 1.0f : a.values[e];
        if (dense) {
          for (int32_t at = filter.place[c]; at >= 0; at = filter.next[at]) keep(col_offsets[g] + at, v);
          continue;
        }
        if (!(filter.columns[c >> 6] >> (c & 63) & 1)) continue;
        const auto last = selector.begin() + col_offsets[g + 1];
        for (auto hit = std::lower_bound(selector.begin() + col_offsets[g], last, std::pair<vid_t, col_t>{c, 0});
             hit != last && hit->first == c; ++hit)
          keep(hit->second, v);
      }
      std::sort(row.begin(), row.end());
      for (const auto& [j, value] : row) emit(j, value);
    };
  });
}

}  // namespace

CsrMatrix select_rows(const CsrMatrix& a, const std::vector<vid_t>& rows) {
  check_row_ids(a, rows, "select_rows");
  const int64_t m = static_cast<int64_t>(rows.size());
  CsrMatrix out(m, a.cols);
  for (int64_t i = 0; i < m; ++i) out.rowptr[i + 1] = out.rowptr[i] + a.row_nnz(rows[i]);
  out.colidx.resize(out.rowptr.back());
  out.values.resize(out.rowptr.back());
#pragma omp parallel for schedule(dynamic, row_chunk(m, 512)) num_threads(threads_for(m + out.nnz()))
  for (int64_t i = 0; i < m; ++i) {
    const int64_t src = a.rowptr[rows[i]], len = a.row_nnz(rows[i]);
    std::copy_n(a.colidx.begin() + src, len, out.colidx.begin() + out.rowptr[i]);
    if (a.values.empty()) std::fill_n(out.values.begin() + out.rowptr[i], len, 1.0f);
    else std::copy_n(a.values.begin() + src, len, out.values.begin() + out.rowptr[i]);
  }
  return out;
}

CsrMatrix mask_entries(CsrMatrix p, const CsrMatrix& mask) {
  MATSAMP_CHECK(mask.rows == p.rows && mask.cols == p.cols, "mask_entries: the mask is ", mask.rows, " x ", mask.cols,
                ", the matrix ", p.rows, " x ", p.cols);
  if (mask.nnz() == 0) return p;
  if (p.values.empty()) p.values.assign(p.colidx.size(), 1.0f);
  // Kept entries move left in place, row by row (rows only shrink).
  int64_t out = 0;
  for (int64_t r = 0; r < p.rows; ++r) {
    const int64_t begin = p.rowptr[r], end = p.rowptr[r + 1];
    p.rowptr[r] = out;
    const auto masked_begin = mask.colidx.begin() + mask.rowptr[r],
               masked_end = mask.colidx.begin() + mask.rowptr[r + 1];
    for (int64_t e = begin; e < end; ++e) {
      if (masked_begin != masked_end && std::binary_search(masked_begin, masked_end, p.colidx[e])) continue;
      p.colidx[out] = p.colidx[e];
      p.values[out++] = p.values[e];
    }
  }
  p.rowptr[p.rows] = out;
  p.colidx.resize(out);
  p.values.resize(out);
  return p;
}

CsrMatrix select_cols(const CsrMatrix& a, const std::vector<vid_t>& cols, const std::vector<float>& weights) {
  const int64_t k = static_cast<int64_t>(cols.size());
  return select_cols_blocked(a, {0, a.rows}, cols, {0, k}, weights);
}

CsrMatrix select_cols_blocked(const CsrMatrix& a, const Offsets& row_offsets, const std::vector<vid_t>& cols,
                              const Offsets& col_offsets, const std::vector<float>& weights) {
  return select_cols_of_rows(a, nullptr, a.rows, row_offsets, cols, col_offsets, weights);
}

CsrMatrix select_rows_cols_blocked(const CsrMatrix& a, const std::vector<vid_t>& rows, const Offsets& row_offsets,
                                   const std::vector<vid_t>& cols, const Offsets& col_offsets,
                                   const std::vector<float>& weights) {
  check_row_ids(a, rows, "select_rows");
  return select_cols_of_rows(a, rows.data(), static_cast<int64_t>(rows.size()), row_offsets, cols, col_offsets,
                             weights);
}

}  // namespace matsamp
