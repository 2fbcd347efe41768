// its_sample of a row every minibatch shares, when each block of the process column
// holds only its vertices' part (FastGCN's distribution, partitioned): the picks equal
// its_sample on the whole row bit for bit, for skewed rows whose repeats force prefix
// rebuilds, rows with fewer positive entries than picks, one key row or many, every
// valid c and both row works; the row's values at given vertices equal the whole row's.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "distributed/graph_product.h"
#include "error_checks.h"
#include "mpi_test_env.h"
#include "ops/ops.h"

namespace matsamp {
namespace {

using RowWork = GraphProduct::RowWork;

// n values spread over many binades with a few heavy entries and some zeros: the
// picks repeat often, so s near the positive count rebuilds the prefix.
std::vector<float> skewed_row(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<float> row(n);
  for (float& v : row) {
    const double u = unit(rng);
    v = u < 0.2    ? 0.0f
        : u > 0.97 ? 1000.0f
                   : static_cast<float>(std::ldexp(0.5 + unit(rng), -static_cast<int>(unit(rng) * 20)));
  }
  return row;
}

CsrMatrix as_csr_row(const std::vector<float>& dense) {
  CsrMatrix m(1, static_cast<int64_t>(dense.size()));
  for (size_t v = 0; v < dense.size(); ++v)
    if (dense[v] != 0) {
      m.colidx.push_back(static_cast<col_t>(v));
      m.values.push_back(dense[v]);
    }
  m.rowptr[1] = m.nnz();
  return m;
}

struct Setup {
  int replication;
  RowWork work;
};

std::vector<Setup> setups() {
  std::vector<Setup> out;
  for (int c : testing::valid_replications()) {
    out.push_back({c, RowWork::shared});
    if (c > 1) out.push_back({c, RowWork::split});
  }
  return out;
}

// The picks of every (s, rows) case on the row split over the grid's blocks.
void expect_whole_row_picks(const std::vector<float>& dense, const std::vector<std::pair<int64_t, int64_t>>& cases) {
  const CsrMatrix whole = as_csr_row(dense);
  for (const Setup& setup : setups()) {
    ProcessGrid grid(testing::world(), setup.replication);
    const RowBlocks blocks{static_cast<int64_t>(dense.size()), grid.process_rows()};
    const int64_t first = blocks.begin(grid.row()), end = blocks.end(grid.row());
    const SharedRowBlock block(grid.col_comm(), blocks, std::vector<float>(dense.begin() + first, dense.begin() + end));
    GraphProduct product(grid, GraphProduct::Exchange::sparsity_aware, setup.work);
    const int id = product.add_shared_row(block);
    for (const auto& [s, rows] : cases) {
      const SampleKeys keys{7, 3, 1, 100, one_row_per_minibatch(rows)};
      const CsrMatrix want = its_sample(whole, s, keys);
      EXPECT_TRUE(product.sample_shared_row(id, s, keys) == want)
          << "s = " << s << ", " << rows << " rows, c = " << setup.replication
          << (setup.work == RowWork::split ? ", split" : "");
    }
    product.finish();
  }
}

TEST(SharedRow, PicksEqualItsSampleOnTheWholeRow) {
  const std::vector<float> row = skewed_row(3000, 11);
  int64_t positive = 0;
  for (float v : row) positive += v > 0;
  // Few picks; picks where the heavy entries repeat (rebuilds); nearly all positive
  // entries; more picks than positive entries; one key row (one rank of a row has none).
  expect_whole_row_picks(row, {{16, 40}, {200, 9}, {positive - 3, 3}, {positive + 5, 4}, {50, 1}});
}

TEST(SharedRow, RowsWithEmptyBlocks) {
  std::vector<float> row(997, 0.0f);  // positive entries in the first and last blocks only
  for (int v = 0; v < 40; ++v) row[v] = static_cast<float>(v + 1);
  for (int v = 990; v < 997; ++v) row[v] = 0.25f;
  expect_whole_row_picks(row, {{10, 6}, {46, 2}, {47, 2}});
}

TEST(SharedRow, ValuesAtVerticesEqualTheWholeRow) {
  const std::vector<float> row = skewed_row(500, 5);
  ProcessGrid grid(testing::world(), 1);
  const RowBlocks blocks{500, grid.process_rows()};
  const SharedRowBlock block(
      grid.col_comm(), blocks,
      std::vector<float>(row.begin() + blocks.begin(grid.row()), row.begin() + blocks.end(grid.row())));
  GraphProduct product(grid, GraphProduct::Exchange::sparsity_aware);
  const int id = product.add_shared_row(block);
  const std::vector<vid_t> at{499, 0, 17, 17, 250, static_cast<vid_t>(grid.rank())};  // repeats, unsorted
  const std::vector<float> got = product.shared_row_values(id, at);
  for (size_t i = 0; i < at.size(); ++i) EXPECT_EQ(got[i], row[at[i]]) << "vertex " << at[i];
  testing::expect_error([&] { product.shared_row_values(id, {500}); },
                        "shared row values: vertex 500 out of range for 500 vertices");
  product.finish();
}

TEST(SharedRow, BlockOfTheWrongSizeIsAnError) {
  ProcessGrid grid(testing::world(), 1);
  testing::expect_error(
      [&] {
        SharedRowBlock(grid.col_comm(), RowBlocks{10, grid.process_rows()}, std::vector<float>(11));
      },
      "shared row: block " + std::to_string(grid.row()) + " has 11 values for " + std::to_string(grid.process_rows()) +
          " blocks of 10 vertices");
}

}  // namespace
}  // namespace matsamp
