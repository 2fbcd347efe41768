#include <gtest/gtest.h>
#include <omp.h>

#include <map>
#include <tuple>

#include "error_checks.h"
#include "ops/ops.h"
#include "reference.h"

namespace matsamp {
namespace {

using testing::dense_product;
using testing::expect_matches;
using testing::random_csr;
using testing::to_dense;

TEST(Spgemm, MatchesDenseReferenceOnRandomMatrices) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    const CsrMatrix a = random_csr(37, 23, 0.15, seed, /*zero_rows=*/true);
    const CsrMatrix b = random_csr(23, 41, 0.2, seed + 100);
    const CsrMatrix c = spgemm(a, b);
    EXPECT_EQ(c.cols, 41);
    expect_matches(c, dense_product(to_dense(a), to_dense(b), 23, 41));
  }
}

// Gustavson spelled out: each column of a row of C is its terms summed in the
// order of A's row (the first one assigned), which every backend must match.
CsrMatrix ordered_sum_product(const CsrMatrix& a, const CsrMatrix& b) {
  CsrMatrix c(a.rows, b.cols);
  for (int64_t r = 0; r < a.rows; ++r) {
    std::map<col_t, float> row;
    for (int64_t e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e)
      for (int64_t f = b.rowptr[a.colidx[e]]; f < b.rowptr[a.colidx[e] + 1]; ++f) {
        const float term = a.values[e] * b.values[f];
        const auto [at, first] = row.emplace(b.colidx[f], term);
        if (!first) at->second += term;
      }
    for (const auto& [j, v] : row) {
      c.colidx.push_back(j);
      c.values.push_back(v);
    }
    c.rowptr[r + 1] = static_cast<int64_t>(c.colidx.size());
  }
  return c;
}

// Rows of C are put in column order by a sort when they touch few of C's
// columns, and off a bitmap when they touch many: both, exactly.
TEST(Spgemm, EqualsOrderedSumsWhenRowsTouchFewOrManyColumns) {
  for (const auto& [inner, cols, density] : {std::tuple{60, 200000, 0.00005}, std::tuple{60, 300, 0.3}}) {
    const CsrMatrix a = random_csr(50, inner, 0.2, 3), b = random_csr(inner, cols, density, 4);
    EXPECT_EQ(spgemm(a, b), ordered_sum_product(a, b)) << cols << " columns";
  }
}

TEST(Spgemm, EmptyMatrices) {
  const CsrMatrix a(0, 5), b(5, 3);
  const CsrMatrix c = spgemm(a, b);
  EXPECT_EQ(c.rows, 0);
  EXPECT_EQ(c.cols, 3);
  EXPECT_EQ(c.nnz(), 0);
  const CsrMatrix d = spgemm(CsrMatrix(4, 5), CsrMatrix(5, 6));
  EXPECT_EQ(d.rows, 4);
  EXPECT_EQ(d.nnz(), 0);
}

TEST(Spgemm, ThreadCountDoesNotChangeResult) {
  const CsrMatrix a = random_csr(200, 150, 0.05, 7), b = random_csr(150, 180, 0.05, 8);
  omp_set_num_threads(1);
  const CsrMatrix one = spgemm(a, b);
  omp_set_num_threads(2);
  EXPECT_EQ(one, spgemm(a, b));
}

TEST(Spgemm, RejectsMismatchedShapes) {
  testing::expect_error([] { spgemm(CsrMatrix(3, 4), CsrMatrix(5, 2)); }, "inner dimensions differ");
}

}  // namespace
}  // namespace matsamp
