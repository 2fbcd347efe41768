#include <gtest/gtest.h>
#include <omp.h>

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
