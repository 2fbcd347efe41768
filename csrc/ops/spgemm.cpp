// Gustavson's row-by-row SpGEMM with a dense accumulator per thread.
#include <algorithm>
#include <numeric>

#include "ops/ops.h"

namespace matsamp {

namespace {

// Marks which columns of the current row are touched; reused across rows and
// sized on first use, so threads without rows (small products) pay nothing.
struct Accumulator {
  explicit Accumulator(int64_t cols) : cols(cols) {}
  void ready() {
    if (mark.empty() && cols > 0) {
      mark.assign(cols, -1);
      sum.assign(cols, 0.0f);
    }
  }
  int64_t cols;
  std::vector<int64_t> mark;   // row that last touched the column
  std::vector<float> sum;
  std::vector<col_t> touched;
};

}  // namespace

CsrMatrix spgemm(const CsrMatrix& a, const CsrMatrix& b) {
  MATSAMP_CHECK(a.cols == b.rows, "spgemm: inner dimensions differ: A is ", a.shape(), ", B is ",
                b.shape());
  CsrMatrix c(a.rows, b.cols);
  const float* bval = b.values.empty() ? nullptr : b.values.data();
  const float* aval = a.values.empty() ? nullptr : a.values.data();

  // Symbolic pass: the number of distinct columns of each row of C.
#pragma omp parallel
  {
    Accumulator acc(b.cols);
#pragma omp for schedule(dynamic, 256)
    for (int64_t r = 0; r < a.rows; ++r) {
      acc.ready();
      int64_t count = 0;
      for (int64_t e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e) {
        const col_t k = a.colidx[e];
        for (int64_t f = b.rowptr[k]; f < b.rowptr[k + 1]; ++f)
          if (acc.mark[b.colidx[f]] != r) {
            acc.mark[b.colidx[f]] = r;
            ++count;
          }
      }
      c.rowptr[r + 1] = count;
    }
  }
  std::partial_sum(c.rowptr.begin(), c.rowptr.end(), c.rowptr.begin());
  c.colidx.resize(c.rowptr.back());
  c.values.resize(c.rowptr.back());

  // Numeric pass: accumulate each row in the order of A's row, then emit sorted.
#pragma omp parallel
  {
    Accumulator acc(b.cols);
#pragma omp for schedule(dynamic, 256)
    for (int64_t r = 0; r < a.rows; ++r) {
      acc.ready();
      acc.touched.clear();
      for (int64_t e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e) {
        const col_t k = a.colidx[e];
        const float av = aval ? aval[e] : 1.0f;
        for (int64_t f = b.rowptr[k]; f < b.rowptr[k + 1]; ++f) {
          const col_t j = b.colidx[f];
          const float product = av * (bval ? bval[f] : 1.0f);
          if (acc.mark[j] != r) {
            acc.mark[j] = r;
            acc.sum[j] = product;
            acc.touched.push_back(j);
          } else {
            acc.sum[j] += product;
          }
        }
      }
      std::sort(acc.touched.begin(), acc.touched.end());
      int64_t out = c.rowptr[r];
      for (col_t j : acc.touched) {
        c.colidx[out] = j;
        c.values[out++] = acc.sum[j];
      }
    }
  }
  return c;
}

}  // namespace matsamp
