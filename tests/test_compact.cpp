#include <gtest/gtest.h>

#include <set>

#include "ops/ops.h"
#include "reference.h"

namespace matsamp {
namespace {

TEST(CompactColumns, LeadingFirstThenAscendingPerMinibatch) {
  // Two minibatches over 10 vertices; rows 0-1 belong to block 0, rows 2-4 to block 1.
  CsrMatrix s(5, 10);
  s.rowptr = {0, 2, 3, 5, 5, 7};
  s.colidx = {3, 8, 1, 1, 9, 0, 8};
  s.values = {1, 2, 3, 4, 5, 6, 7};
  const std::vector<vid_t> leading{8, 5, 2, 0, 7};
  const Offsets offsets{0, 2, 5};
  const CompactResult c = compact_columns(s, offsets, leading, offsets);
  EXPECT_EQ(c.col_offsets, (Offsets{0, 4, 10}));
  EXPECT_EQ(c.vertices, (std::vector<vid_t>{8, 5, 1, 3, 2, 0, 7, 1, 8, 9}));
  // Every entry maps back to its original vertex, with its value.
  const testing::Dense d = testing::to_dense(c.adj);
  for (int64_t r = 0; r < 5; ++r)
    for (int64_t e = s.rowptr[r]; e < s.rowptr[r + 1]; ++e) {
      const int64_t g = r < 2 ? 0 : 1;
      int64_t local = -1;
      for (int64_t j = c.col_offsets[g]; j < c.col_offsets[g + 1]; ++j)
        if (c.vertices[j] == s.colidx[e]) local = j;
      ASSERT_GE(local, 0);
      EXPECT_EQ(d[r][local], s.values[e]);
    }
  validate(c.adj, "compacted");
}

TEST(CompactColumns, RandomMatrixInvariants) {
  const CsrMatrix s = testing::random_csr(60, 200, 0.05, 17);
  const Offsets offsets{0, 13, 13, 40, 60};
  std::vector<vid_t> leading;
  for (int64_t r = 0; r < 60; ++r) leading.push_back((r * 37) % 200);
  const CompactResult c = compact_columns(s, offsets, leading, offsets);
  validate(c.adj, "compacted");
  for (int64_t g = 0; g < 4; ++g) {
    const std::vector<vid_t> list(c.vertices.begin() + c.col_offsets[g],
                                  c.vertices.begin() + c.col_offsets[g + 1]);
    EXPECT_EQ(std::set<vid_t>(list.begin(), list.end()).size(), list.size()) << "duplicates";
    for (int64_t i = 0; i < offsets[g + 1] - offsets[g]; ++i) EXPECT_EQ(list[i], leading[offsets[g] + i]);
    for (int64_t r = offsets[g]; r < offsets[g + 1]; ++r)
      for (int64_t e = c.adj.rowptr[r]; e < c.adj.rowptr[r + 1]; ++e) {
        ASSERT_GE(c.adj.colidx[e], c.col_offsets[g]);
        ASSERT_LT(c.adj.colidx[e], c.col_offsets[g + 1]);
      }
  }
  EXPECT_EQ(c.adj.nnz(), s.nnz());
}

TEST(CompactColumns, RejectsRepeatedLeadingVertex) {
  CsrMatrix s(2, 5);
  s.rowptr = {0, 1, 2};
  s.colidx = {1, 2};
  try {
    compact_columns(s, {0, 2}, {3, 3}, {0, 2});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("vertex 3 appears twice"), std::string::npos) << e.what();
  }
}

TEST(CompactColumns, EmptyInput) {
  const CompactResult c = compact_columns(CsrMatrix(0, 5), {0}, {}, {0});
  EXPECT_EQ(c.adj.rows, 0);
  EXPECT_TRUE(c.vertices.empty());
}

}  // namespace
}  // namespace matsamp
