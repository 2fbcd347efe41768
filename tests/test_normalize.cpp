#include <gtest/gtest.h>

#include "ops/ops.h"
#include "reference.h"

namespace matsamp {
namespace {

TEST(NormalizeRows, RowsSumToOneAndKeepProportions) {
  for (bool square : {false, true}) {
    const CsrMatrix before = testing::random_csr(40, 30, 0.2, 21, /*zero_rows=*/true);
    CsrMatrix p = before;
    normalize_rows(p, square);
    for (int64_t r = 0; r < p.rows; ++r) {
      double want_sum = 0, got_sum = 0;
      for (int64_t e = p.rowptr[r]; e < p.rowptr[r + 1]; ++e) {
        const double v = before.values[e];
        want_sum += square ? v * v : v;
      }
      for (int64_t e = p.rowptr[r]; e < p.rowptr[r + 1]; ++e) {
        const double v = before.values[e];
        got_sum += p.values[e];
        if (want_sum > 0) {
          EXPECT_NEAR(p.values[e], (square ? v * v : v) / want_sum, 1e-6);
        }
      }
      if (want_sum > 0) {
        EXPECT_NEAR(got_sum, 1.0, 1e-5);
      } else {
        EXPECT_EQ(got_sum, 0.0) << "all-zero row " << r << " must stay zero";
      }
    }
    EXPECT_EQ(p.colidx, before.colidx);
  }
}

TEST(NormalizeRows, PatternMatrixBecomesUniform) {
  CsrMatrix p(2, 4);
  p.colidx = {0, 1, 3, 2};
  p.rowptr = {0, 3, 4};
  normalize_rows(p);
  EXPECT_EQ(p.values, (std::vector<float>{1.0f / 3, 1.0f / 3, 1.0f / 3, 1.0f}));
}

}  // namespace
}  // namespace matsamp
