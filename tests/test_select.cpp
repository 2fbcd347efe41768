#include <gtest/gtest.h>

#include "ops/ops.h"
#include "reference.h"

namespace matsamp {
namespace {

using testing::Dense;
using testing::dense_product;
using testing::expect_matches;
using testing::random_csr;
using testing::row_selector;
using testing::to_dense;

TEST(SelectRows, EqualsProductWithRowSelector) {
  const CsrMatrix a = random_csr(30, 25, 0.2, 3, true);
  const std::vector<vid_t> rows{4, 0, 29, 4, 17, 3};
  expect_matches(select_rows(a, rows), dense_product(row_selector(rows, 30), to_dense(a), 30, 25));
}

TEST(SelectRows, EmptySelectionAndEmptyMatrix) {
  EXPECT_EQ(select_rows(random_csr(5, 5, 0.5, 1), {}).rows, 0);
  const CsrMatrix empty(3, 0);
  EXPECT_EQ(select_rows(empty, {2, 1}).nnz(), 0);
}

TEST(SelectRows, RejectsIdOutOfRange) {
  EXPECT_THROW(select_rows(CsrMatrix(3, 3), {3}), Error);
  EXPECT_THROW(select_rows(CsrMatrix(3, 3), {-1}), Error);
}

// C with C[cols[j], j] = w_j.
Dense column_selector(const std::vector<vid_t>& cols, const std::vector<float>& w, int64_t rows) {
  Dense c(rows, std::vector<double>(cols.size(), 0.0));
  for (size_t j = 0; j < cols.size(); ++j) c[cols[j]][j] = w.empty() ? 1.0 : w[j];
  return c;
}

TEST(SelectCols, EqualsProductWithWeightedColumnSelector) {
  const CsrMatrix a = random_csr(20, 30, 0.25, 5, true);
  const std::vector<vid_t> cols{7, 2, 29, 2, 0, 13};
  const std::vector<float> w{0.5f, 2.0f, 1.0f, 3.0f, 0.25f, 1.5f};
  expect_matches(select_cols(a, cols, w), dense_product(to_dense(a), column_selector(cols, w, 30), 30, 6));
  expect_matches(select_cols(a, cols), dense_product(to_dense(a), column_selector(cols, {}, 30), 30, 6));
}

// The full product A·C with everything outside the diagonal blocks zeroed.
Dense blocked_product(const CsrMatrix& a, const Offsets& row_offsets, const std::vector<vid_t>& cols,
                      const Offsets& col_offsets, const std::vector<float>& w) {
  const int64_t k = static_cast<int64_t>(cols.size());
  Dense want = dense_product(to_dense(a), column_selector(cols, w, a.cols), a.cols, k);
  for (size_t g = 0; g + 1 < row_offsets.size(); ++g)
    for (int64_t r = row_offsets[g]; r < row_offsets[g + 1]; ++r)
      for (int64_t j = 0; j < k; ++j)
        if (j < col_offsets[g] || j >= col_offsets[g + 1]) want[r][j] = 0;
  return want;
}

TEST(SelectCols, BlockDiagonalEqualsPerBlockProducts) {
  const CsrMatrix a = random_csr(24, 40, 0.3, 9, true);
  const Offsets row_offsets{0, 10, 10, 24};  // the middle block has no rows
  const std::vector<vid_t> cols{3, 9, 39, 1, 5, 9, 20, 22};
  const Offsets col_offsets{0, 3, 5, 8};
  const std::vector<float> w{1, 2, 3, 4, 5, 6, 7, 8};
  expect_matches(select_cols_blocked(a, row_offsets, cols, col_offsets, w),
                 blocked_product(a, row_offsets, cols, col_offsets, w));
}

// Selectors naming most of A's columns (a reordering of them, as the temporal
// epoch's merge of trees has; repeats within a block too) give the same product.
TEST(SelectCols, SelectorsCoveringTheColumnsEqualPerBlockProducts) {
  const CsrMatrix a = random_csr(30, 12, 0.5, 4, true);
  const Offsets row_offsets{0, 12, 12, 30};
  const std::vector<vid_t> cols{11, 3, 3, 0, 7, 5, 2, 9, 1, 4, 6, 8, 10, 2, 10};
  const Offsets col_offsets{0, 5, 8, 15};
  std::vector<float> w(cols.size());
  for (size_t j = 0; j < w.size(); ++j) w[j] = 0.5f + static_cast<float>(j);
  for (const auto& weights : {w, std::vector<float>{}})
    expect_matches(select_cols_blocked(a, row_offsets, cols, col_offsets, weights),
                   blocked_product(a, row_offsets, cols, col_offsets, weights));
}

TEST(SelectRowsCols, EqualsSelectRowsThenBlockedColumns) {
  const CsrMatrix a = random_csr(300, 300, 0.05, 17, true);
  // Repeated and out-of-order rows (more than the prefetch distance), an empty block,
  // a repeated column within a block.
  std::vector<vid_t> rows;
  for (int i = 0; i < 60; ++i) rows.push_back(static_cast<vid_t>((i * 37) % 300));
  rows.push_back(rows[3]);
  const Offsets row_offsets{0, 25, 25, 61};
  const std::vector<vid_t> cols{12, 299, 0, 12, 150, 7, 77, 208, 3};
  const Offsets col_offsets{0, 4, 6, 9};
  std::vector<float> w(cols.size());
  for (size_t j = 0; j < w.size(); ++j) w[j] = 0.5f + static_cast<float>(j);
  for (const auto& weights : {w, std::vector<float>{}}) {
    const CsrMatrix want = select_cols_blocked(select_rows(a, rows), row_offsets, cols, col_offsets, weights);
    ASSERT_GT(want.nnz(), 0);
    EXPECT_EQ(select_rows_cols_blocked(a, rows, row_offsets, cols, col_offsets, weights), want);
  }
  // A pattern matrix: every kept entry is its weight.
  CsrMatrix pattern = a;
  pattern.values.clear();
  EXPECT_EQ(select_rows_cols_blocked(pattern, rows, row_offsets, cols, col_offsets, w),
            select_cols_blocked(select_rows(pattern, rows), row_offsets, cols, col_offsets, w));
}

TEST(SelectRowsCols, RejectsBadArgumentsLikeTheTwoOps) {
  const CsrMatrix a = random_csr(4, 4, 0.5, 1);
  const auto message = [&](const std::vector<vid_t>& rows, const Offsets& row_offsets, const std::vector<vid_t>& cols) {
    try {
      select_rows_cols_blocked(a, rows, row_offsets, cols, {0, static_cast<int64_t>(cols.size())});
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message({4}, {0, 1}, {0}), "select_rows: row id 4 out of range for " + a.shape());
  EXPECT_EQ(message({1, 2}, {0, 1}, {0}), "select_cols: row offsets must run from 0 to 2");
  EXPECT_EQ(message({1}, {0, 1}, {9}), "select_cols: column id 9 out of range for " + a.shape());
}

TEST(SelectCols, RejectsBadArguments) {
  const CsrMatrix a = random_csr(4, 4, 0.5, 1);
  EXPECT_THROW(select_cols(a, {4}), Error);
  EXPECT_THROW(select_cols(a, {1, 2}, {1.0f}), Error);
  EXPECT_THROW(select_cols_blocked(a, {0, 2, 4}, {1}, {0, 1}), Error);
}

}  // namespace
}  // namespace matsamp
