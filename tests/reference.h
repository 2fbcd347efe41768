// Naive dense references and small or random inputs for the op and sampler tests.
#pragma once
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "core/csr.h"

namespace matsamp::testing {

using Dense = std::vector<std::vector<double>>;

inline Dense to_dense(const CsrMatrix& m) {
  Dense d(m.rows, std::vector<double>(m.cols, 0.0));
  for (int64_t r = 0; r < m.rows; ++r)
    for (int64_t e = m.rowptr[r]; e < m.rowptr[r + 1]; ++e) d[r][m.colidx[e]] += m.values.empty() ? 1.0 : m.values[e];
  return d;
}

inline Dense dense_product(const Dense& a, const Dense& b, int64_t inner, int64_t cols) {
  Dense c(a.size(), std::vector<double>(cols, 0.0));
  for (size_t i = 0; i < a.size(); ++i)
    for (int64_t k = 0; k < inner; ++k)
      if (a[i][k] != 0)
        for (int64_t j = 0; j < cols; ++j) c[i][j] += a[i][k] * b[k][j];
  return c;
}

// A selector matrix with one nonzero per row: S[i, ids[i]] = 1.
inline Dense row_selector(const std::vector<vid_t>& ids, int64_t cols) {
  Dense s(ids.size(), std::vector<double>(cols, 0.0));
  for (size_t i = 0; i < ids.size(); ++i) s[i][ids[i]] = 1.0;
  return s;
}

// A random CSR with the given density, some empty rows and, when asked, some
// rows whose stored values are all zero.
inline CsrMatrix random_csr(int64_t rows, int64_t cols, double density, uint64_t seed, bool zero_rows = false) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  CsrMatrix m(rows, cols);
  for (int64_t r = 0; r < rows; ++r) {
    const bool empty = unit(rng) < 0.15;
    const bool zeros = zero_rows && unit(rng) < 0.15;
    for (int64_t c = 0; c < cols && !empty; ++c)
      if (unit(rng) < density) {
        m.colidx.push_back(static_cast<col_t>(c));
        m.values.push_back(zeros ? 0.0f : static_cast<float>(0.25 + unit(rng)));
      }
    m.rowptr[r + 1] = static_cast<int64_t>(m.colidx.size());
  }
  return m;
}

// A random matrix whose rows hold equal values (0.5, 1.5 or 2.5 by row; some rows
// empty, lengths up to 40, some near a fanout, so sampling must rebuild after repeats).
inline CsrMatrix uniform_rows_matrix(int64_t rows, int64_t cols, uint64_t seed) {
  CsrMatrix m = random_csr(rows, cols, 0.3, seed);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t e = m.rowptr[r]; e < m.rowptr[r + 1]; ++e) m.values[e] = 0.5f + (r % 3);
  return m;
}

// n copies of one row with the given values.
inline CsrMatrix repeated_row(const std::vector<float>& values, int64_t n) {
  CsrMatrix m(n, static_cast<int64_t>(values.size()));
  for (int64_t r = 0; r < n; ++r) {
    for (size_t c = 0; c < values.size(); ++c) {
      m.colidx.push_back(static_cast<col_t>(c));
      m.values.push_back(values[c]);
    }
    m.rowptr[r + 1] = static_cast<int64_t>(m.colidx.size());
  }
  return m;
}

// The directed ring on n vertices: vertex v's one edge goes to (v + 1) mod n.
// A pattern matrix (no stored values).
inline CsrMatrix ring_graph(int64_t n) {
  CsrMatrix ring(n, n);
  for (int64_t v = 0; v < n; ++v) {
    ring.colidx.push_back(static_cast<col_t>((v + 1) % n));
    ring.rowptr[v + 1] = v + 1;
  }
  return ring;
}

// Every row has sorted unique in-range columns and the values match the dense
// reference within a relative tolerance.
inline void expect_matches(const CsrMatrix& got, const Dense& want, double tolerance = 1e-5) {
  ASSERT_EQ(got.rows, static_cast<int64_t>(want.size()));
  validate(got, "result");
  const Dense dense = to_dense(got);
  for (int64_t r = 0; r < got.rows; ++r)
    for (int64_t c = 0; c < got.cols; ++c)
      ASSERT_NEAR(dense[r][c], want[r][c], tolerance * (1 + std::abs(want[r][c]))) << "at (" << r << ", " << c << ")";
  // Structural zeros of the product must not appear as stored entries either.
  for (int64_t r = 0; r < got.rows; ++r)
    for (int64_t e = got.rowptr[r]; e < got.rowptr[r + 1]; ++e)
      EXPECT_TRUE(want[r][got.colidx[e]] != 0 || got.values[e] == 0) << "spurious entry in row " << r;
}

}  // namespace matsamp::testing
