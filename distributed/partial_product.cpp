#include "partial_product.h"

#include <algorithm>

#include "ops/build_rows.h"
#include "ops/sparse_accumulator.h"
#include "util/parallel.h"

namespace matsamp {

CsrMatrix continue_product(const CsrMatrix& q, const FetchedRows& fetched, vid_t lo, vid_t hi,
                           const CsrMatrix& running) {
  const CsrMatrix& b = fetched.rows;
  const int64_t cols = b.cols;
  MATSAMP_CHECK(running.rows == q.rows && running.cols == cols, "continue_product: running sum is ", running.shape(),
                " but Q is ", q.shape(), " and A has ", cols, " columns");
  MATSAMP_CHECK(static_cast<int64_t>(fetched.ids.size()) == b.rows, "continue_product: ", fetched.ids.size(),
                " ids for ", b.shape());
  // Where a vertex sits among the fetched rows (-1: not fetched): a search of the
  // ascending ids rather than a table over [lo, hi), which would be O(n) per call.
  const std::vector<vid_t>& ids = fetched.ids;
  MATSAMP_CHECK(std::is_sorted(ids.begin(), ids.end()), "continue_product: fetched rows out of order");
  const auto slot = [&ids](col_t v) -> int64_t {
    const auto at = std::lower_bound(ids.begin(), ids.end(), static_cast<vid_t>(v));
    return at != ids.end() && *at == v ? at - ids.begin() : -1;
  };
  const float* qval = q.values.empty() ? nullptr : q.values.data();

  // Per row of Q: its entries [term_begin, term_end) with columns in [lo, hi), and where
  // the row comes from. Rows that need no addition are copied (selectors: GraphSAGE, row
  // extraction): with no running sum and a single term, that row of A times the entry of Q
  // (spgemm's first-touch assignments, already sorted); with no term here, the running sum.
  constexpr int64_t kAccumulate = -1, kKeepRunning = -2;
  std::vector<int64_t> term_begin(q.rows), term_end(q.rows), source(q.rows);
  int64_t missing = 0;      // terms whose row of A was not fetched (checked outside the parallel loop)
  int64_t accumulated = 0;  // products summed by the accumulator, which sizes it
#pragma omp parallel for schedule(static) reduction(+ : missing, accumulated) num_threads(threads_for(q.nnz()))
  for (int64_t r = 0; r < q.rows; ++r) {
    const auto row_begin = q.colidx.begin() + q.rowptr[r], row_end = q.colidx.begin() + q.rowptr[r + 1];
    const auto first = std::lower_bound(row_begin, row_end, static_cast<col_t>(lo));
    term_begin[r] = first - q.colidx.begin();
    term_end[r] = std::lower_bound(first, row_end, static_cast<col_t>(hi)) - q.colidx.begin();
    int64_t products = running.row_nnz(r);
    for (int64_t e = term_begin[r]; e < term_end[r]; ++e) {
      const int64_t k = slot(q.colidx[e]);
      if (k < 0) ++missing;
      else products += b.row_nnz(k);
    }
    const int64_t terms = term_end[r] - term_begin[r];
    source[r] = terms == 0                             ? kKeepRunning
                : terms > 1 || running.row_nnz(r) != 0 ? kAccumulate
                                                       : slot(q.colidx[term_begin[r]]);
    if (source[r] == kAccumulate) accumulated += products;
  }
  MATSAMP_CHECK(missing == 0, "continue_product: ", missing, " terms of Q need rows of A that were not fetched");
  auto scale_of = [&](int64_t e) { return qval ? qval[e] : 1.0f; };
  // Calls term(column, product) for each term of row r in spgemm's order.
  auto for_each_term = [&](int64_t r, auto&& term) {
    for (int64_t e = term_begin[r]; e < term_end[r]; ++e) {
      const int64_t k = slot(q.colidx[e]);
      for (int64_t f = b.rowptr[k]; f < b.rowptr[k + 1]; ++f) term(b.colidx[f], scale_of(e) * b.values[f]);
    }
  };

  auto rows_with = [&](auto accumulator) {
    return [&, acc = accumulator](int64_t r, auto&& emit) mutable {
      if (source[r] == kKeepRunning) {
        for (int64_t e = running.rowptr[r]; e < running.rowptr[r + 1]; ++e) emit(running.colidx[e], running.values[e]);
      } else if (source[r] >= 0) {
        for (int64_t f = b.rowptr[source[r]]; f < b.rowptr[source[r] + 1]; ++f)
          emit(b.colidx[f], scale_of(term_begin[r]) * b.values[f]);
      } else {
        // Summed in spgemm's order (first term assigned), so equal to the CPU op.
        acc.start_row();
        for (int64_t e = running.rowptr[r]; e < running.rowptr[r + 1]; ++e)
          acc.add(running.colidx[e], running.values[e]);
        for_each_term(r, [&](col_t j, float value) { acc.add(j, value); });
        acc.drain(emit);
      }
    };
  };
  // A rank's share of a large graph sums few products over many columns: the dense
  // accumulator's O(columns) arrays per thread would outweigh the rank's block.
  const int64_t work = q.rows + running.nnz() + rows_work(b, q.nnz());
  if (dense_accumulator_pays(cols, accumulated))
    return build_rows_once(q.rows, cols, 256, work, [&] { return rows_with(SparseAccumulator(cols)); });
  return build_rows_once(q.rows, cols, 256, work, [&] { return rows_with(SortingAccumulator()); });
}

}  // namespace matsamp
