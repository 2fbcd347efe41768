#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "compact_cases.h"
#include "error_checks.h"
#include "ops/ops.h"
#include "reference.h"

namespace matsamp {
namespace {

TEST(CompactColumns, LeadingFirstThenAscendingPerMinibatch) {
  const testing::CompactCase two = testing::compact_two_minibatches();
  const CsrMatrix& s = two.s;
  const CompactResult c = compact_columns(s, two.offsets, two.leading, two.offsets);
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

TEST(CompactColumns, RejectsBadBlocksAndLeadingVertices) {
  const CsrMatrix s = testing::random_csr(6, 10, 0.4, 3);
  testing::expect_error(
      [&] {
        compact_columns(s, {0, 5}, {}, {0, 0});
      },
      "compact_columns: row offsets must run from 0 to 6");
  testing::expect_error(
      [&] {
        compact_columns(s, {0, 3, 6}, {1}, {0, 1});
      },
      "compact_columns: 1 leading blocks for 2 row blocks");
  testing::expect_error(
      [&] {
        compact_columns(s, {0, 6}, {10}, {0, 1});
      },
      "compact_columns: leading vertex 10 out of range for " + s.shape());
}

TEST(CompactColumns, RandomMatrixInvariants) {
  const testing::CompactCase random = testing::compact_random();
  const CsrMatrix& s = random.s;
  const Offsets& offsets = random.offsets;
  const std::vector<vid_t>& leading = random.leading;
  const CompactResult c = compact_columns(s, offsets, leading, offsets);
  validate(c.adj, "compacted");
  for (int64_t g = 0; g < 4; ++g) {
    const std::vector<vid_t> list(c.vertices.begin() + c.col_offsets[g], c.vertices.begin() + c.col_offsets[g + 1]);
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

// compact_columns spelled out with ordered containers.
CompactResult naive_compact(const CsrMatrix& s, const Offsets& offsets, const std::vector<vid_t>& leading) {
  CompactResult out{CsrMatrix(s.rows, 0), {}, {0}};
  out.adj.rowptr = s.rowptr;
  for (size_t g = 0; g + 1 < offsets.size(); ++g) {
    std::map<vid_t, col_t> local;
    std::vector<vid_t> list(leading.begin() + offsets[g], leading.begin() + offsets[g + 1]);
    std::set<vid_t> fresh;
    for (int64_t e = s.rowptr[offsets[g]]; e < s.rowptr[offsets[g + 1]]; ++e)
      if (std::find(list.begin(), list.end(), s.colidx[e]) == list.end()) fresh.insert(s.colidx[e]);
    list.insert(list.end(), fresh.begin(), fresh.end());
    for (size_t j = 0; j < list.size(); ++j) local[list[j]] = static_cast<col_t>(out.col_offsets.back() + j);
    for (int64_t r = offsets[g]; r < offsets[g + 1]; ++r) {
      std::vector<std::pair<col_t, float>> row;
      for (int64_t e = s.rowptr[r]; e < s.rowptr[r + 1]; ++e) row.push_back({local[s.colidx[e]], s.values[e]});
      std::sort(row.begin(), row.end());
      for (const auto& [c, v] : row) {
        out.adj.colidx.push_back(c);
        out.adj.values.push_back(v);
      }
    }
    out.vertices.insert(out.vertices.end(), list.begin(), list.end());
    out.col_offsets.push_back(static_cast<int64_t>(out.vertices.size()));
  }
  out.adj.cols = out.col_offsets.back();
  return out;
}

// A call that touches few of the graph's vertices relabels through a hash table
// sized by its work (new vertices sorted); one that touches many through an
// index over all vertices (new vertices read off a bitmap): both regimes,
// against the naive op.
TEST(CompactColumns, MatchesNaiveCompactWhenFewOrManyVerticesAreTouched) {
  for (const auto& [rows, cols, density] : {std::tuple{40, 100000, 0.00005}, std::tuple{300, 500, 0.2}}) {
    const CsrMatrix s = testing::random_csr(rows, cols, density, 5);
    const Offsets offsets{0, rows / 4, rows / 4, rows};  // one empty block
    std::vector<vid_t> leading;
    for (int64_t r = 0; r < rows; ++r) leading.push_back((r * 7919) % cols);
    const CompactResult got = compact_columns(s, offsets, leading, offsets);
    const CompactResult want = naive_compact(s, offsets, leading);
    EXPECT_EQ(got.vertices, want.vertices) << cols << " columns";
    EXPECT_EQ(got.col_offsets, want.col_offsets);
    EXPECT_TRUE(got.adj == want.adj) << cols << " columns";
  }
}

TEST(CompactColumns, RejectsRepeatedLeadingVertex) {
  testing::CompactCase c = testing::compact_repeated_leader();
  testing::expect_repeated_leader_error([&] { compact_columns(c.s, c.offsets, c.leading, c.offsets); });
  c.s.cols = 1 << 20;  // far more vertices than entries: the hash table's path
  testing::expect_repeated_leader_error([&] { compact_columns(c.s, c.offsets, c.leading, c.offsets); });
}

TEST(CompactColumns, EmptyInput) {
  const CompactResult c = compact_columns(CsrMatrix(0, 5), {0}, {}, {0});
  EXPECT_EQ(c.adj.rows, 0);
  EXPECT_TRUE(c.vertices.empty());
}

}  // namespace
}  // namespace matsamp
