// Gustavson's row-by-row SpGEMM with a dense accumulator per thread, in one pass
// (the accumulation is the cost, so it is not repeated to count each row first).
#include "ops/build_rows.h"
#include "ops/ops.h"
#include "ops/prefetch.h"
#include "ops/sparse_accumulator.h"

namespace matsamp {

namespace {

// How many terms ahead the accumulator's entries are prefetched (rows of B, read
// at random, are prefetched by prefetch_rows_ahead).
constexpr int64_t kScatterLookahead = 16;

}  // namespace

CsrMatrix spgemm(const CsrMatrix& a, const CsrMatrix& b) {
  MATSAMP_CHECK(a.cols == b.rows, "spgemm: inner dimensions differ: A is ", a.shape(), ", B is ", b.shape());
  const float* bval = b.values.empty() ? nullptr : b.values.data();
  const float* aval = a.values.empty() ? nullptr : a.values.data();
  // Each row is accumulated in the order of A's row, then emitted sorted.
  // The work: A's entries, each a row of B.
  return build_rows_once(a.rows, b.cols, 256, rows_work(b, a.nnz()) + a.rows, [&] {
    return [&, acc = SparseAccumulator(b.cols)](int64_t r, auto&& emit) mutable {
      acc.start_row();
      const int64_t a_begin = a.rowptr[r], a_len = a.row_nnz(r);
      for (int64_t e = a_begin; e < a_begin + a_len; ++e) {
        prefetch_rows_ahead(b, a.colidx.data() + a_begin, a_len, e - a_begin);
        const col_t k = a.colidx[e];
        const float av = aval ? aval[e] : 1.0f;
        const int64_t b_end = b.rowptr[k + 1];
        for (int64_t f = b.rowptr[k]; f < b_end; ++f) {
          if (f + kScatterLookahead < b_end) acc.prefetch(b.colidx[f + kScatterLookahead]);
          acc.add(b.colidx[f], av * (bval ? bval[f] : 1.0f));
        }
      }
      acc.drain(emit);
    };
  });
}

}  // namespace matsamp
