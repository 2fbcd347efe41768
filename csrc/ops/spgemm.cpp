// Gustavson's row-by-row SpGEMM with a dense accumulator per thread.
#include <algorithm>
#include <numeric>

#include "ops/ops.h"
#include "ops/sparse_accumulator.h"
#include "util/parallel.h"

namespace matsamp {

CsrMatrix spgemm(const CsrMatrix& a, const CsrMatrix& b) {
  MATSAMP_CHECK(a.cols == b.rows, "spgemm: inner dimensions differ: A is ", a.shape(), ", B is ",
                b.shape());
  CsrMatrix c(a.rows, b.cols);
  const float* bval = b.values.empty() ? nullptr : b.values.data();
  const float* aval = a.values.empty() ? nullptr : a.values.data();

  // Symbolic pass: the number of distinct columns of each row of C.
#pragma omp parallel
  {
    SparseAccumulator acc(b.cols);
#pragma omp for schedule(dynamic, row_chunk(a.rows, 256))
    for (int64_t r = 0; r < a.rows; ++r) {
      acc.start_row();
      for (int64_t e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e) {
        const col_t k = a.colidx[e];
        for (int64_t f = b.rowptr[k]; f < b.rowptr[k + 1]; ++f) acc.touch(b.colidx[f]);
      }
      c.rowptr[r + 1] = acc.touched();
      acc.forget();
    }
  }
  std::partial_sum(c.rowptr.begin(), c.rowptr.end(), c.rowptr.begin());
  c.colidx.resize(c.rowptr.back());
  c.values.resize(c.rowptr.back());

  // Numeric pass: accumulate each row in the order of A's row, then emit sorted.
#pragma omp parallel
  {
    SparseAccumulator acc(b.cols);
#pragma omp for schedule(dynamic, row_chunk(a.rows, 256))
    for (int64_t r = 0; r < a.rows; ++r) {
      acc.start_row();
      for (int64_t e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e) {
        const col_t k = a.colidx[e];
        const float av = aval ? aval[e] : 1.0f;
        for (int64_t f = b.rowptr[k]; f < b.rowptr[k + 1]; ++f) acc.add(b.colidx[f], av * (bval ? bval[f] : 1.0f));
      }
      int64_t out = c.rowptr[r];
      acc.drain([&](col_t j, float sum) {
        c.colidx[out] = j;
        c.values[out++] = sum;
      });
    }
  }
  return c;
}

}  // namespace matsamp
