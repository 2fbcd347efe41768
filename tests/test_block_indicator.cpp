// block_indicator (LADIES' frontier indicator Q) and reciprocals (the layer-wise
// importance weights).
#include <gtest/gtest.h>

#include <set>

#include "error_checks.h"
#include "graph/transform.h"
#include "host_ops.h"
#include "io/graph_io.h"
#include "reference.h"
#include "test_data.h"

namespace matsamp {
namespace {

// Q built from sets: row g holds block g's distinct ids.
CsrMatrix indicator_of_sets(const std::vector<vid_t>& ids, const Offsets& offsets, int64_t cols) {
  std::vector<int64_t> rows, columns;
  for (size_t g = 0; g + 1 < offsets.size(); ++g) {
    const std::set<vid_t> distinct(ids.begin() + offsets[g], ids.begin() + offsets[g + 1]);
    for (vid_t v : distinct) {
      rows.push_back(static_cast<int64_t>(g));
      columns.push_back(v);
    }
  }
  return csr_from_triples(static_cast<int64_t>(offsets.size()) - 1, cols, rows, columns, {});
}

// Blocks of random ids in [0, n), repeats included, some blocks empty.
std::pair<std::vector<vid_t>, Offsets> random_blocks(int64_t n, uint64_t seed) {
  std::vector<vid_t> ids;
  Offsets offsets{0};
  uint64_t x = seed;
  for (int g = 0; g < 6; ++g) {
    const int64_t size = g == 2 ? 0 : 1 + static_cast<int64_t>(x % 40);
    for (int64_t i = 0; i < size; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      ids.push_back(static_cast<vid_t>((x >> 33) % static_cast<uint64_t>(n)));
    }
    offsets.push_back(static_cast<int64_t>(ids.size()));
  }
  return {ids, offsets};
}

TEST(BlockIndicator, MarksTheDistinctIdsOfEachBlock) {
  auto cpu = make_cpu_backend();
  testing::HostOps ops(*cpu);
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const auto [ids, offsets] = random_blocks(50, seed);
    const CsrMatrix want = indicator_of_sets(ids, offsets, 50);
    EXPECT_EQ(block_indicator(ids, offsets, 50), want) << "seed " << seed;
    EXPECT_EQ(ops.block_indicator(ids, offsets, 50), want) << "seed " << seed;
  }
  EXPECT_EQ(block_indicator({}, {0}, 7), CsrMatrix(0, 7));
  EXPECT_EQ(block_indicator({}, {0, 0, 0}, 7), CsrMatrix(2, 7));
}

TEST(BlockIndicator, GivesLadiesDistributionOnCora) {
  // Q·(Â∘Â) with Q the indicator of each frontier: p_g(v) ∝ Σ_{u in frontier g} Â_uv².
  const Graph g = read_npz_graph(testing::data_file("cora.npz"));
  const CsrMatrix squared = square_values(gcn_normalize(symmetrize(g.adj)));
  const int64_t n = g.num_vertices();
  std::vector<vid_t> frontier;
  for (vid_t v = 0; v < 300; ++v) frontier.push_back((v * 37) % n);
  const Offsets offsets{0, 100, 100, 300};
  auto cpu = make_cpu_backend();
  testing::HostOps ops(*cpu);
  const CsrMatrix q = ops.block_indicator(frontier, offsets, n);
  EXPECT_EQ(q, indicator_of_sets(frontier, offsets, n));
  const CsrMatrix p = spgemm(q, squared);
  for (int64_t b = 0; b < 3; ++b) {
    const CsrMatrix rows =
        select_rows(squared, std::vector<vid_t>(frontier.begin() + offsets[b], frontier.begin() + offsets[b + 1]));
    std::vector<double> column_sums(n, 0);
    for (int64_t e = 0; e < rows.nnz(); ++e) column_sums[rows.colidx[e]] += rows.values[e];
    for (int64_t e = p.rowptr[b]; e < p.rowptr[b + 1]; ++e)
      EXPECT_NEAR(p.values[e], column_sums[p.colidx[e]], 1e-6) << "block " << b << " column " << p.colidx[e];
  }
}

TEST(BlockIndicator, RejectsIdsOutOfRangeAndBadOffsets) {
  testing::expect_error([] { block_indicator({1, 9}, {0, 2}, 5); }, "block_indicator: id 9 out of range for 5 columns");
  testing::expect_error([] { block_indicator({1, 2}, {0, 1}, 5); }, "block_indicator: id offsets must run from 0 to 2");
  testing::expect_error([] { block_indicator({1, 2}, {0, 2, 1, 2}, 5); }, "id offsets decrease at block 2");
}

TEST(Reciprocals, AreOneOverFactorTimesValue) {
  const std::vector<float> values{0.5f, 0.125f, 3, 1e-3f};
  const std::vector<float> got = reciprocals(values, 64);
  ASSERT_EQ(got.size(), values.size());
  for (size_t i = 0; i < values.size(); ++i) EXPECT_EQ(got[i], 1.0f / (64.0f * values[i]));
  auto cpu = make_cpu_backend();
  EXPECT_EQ(testing::HostOps(*cpu).reciprocals(values, 64), got);
  EXPECT_TRUE(reciprocals({}, 2).empty());
}

}  // namespace
}  // namespace matsamp
