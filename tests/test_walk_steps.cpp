// add_entries and first_columns (a random walk's bookkeeping in the backend)
// against brute-force definitions on random matrices and Cora's walks, and the
// edge endpoints matrix GraphSAINT's edge sampler multiplies its draw by.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "error_checks.h"
#include "graph/transform.h"
#include "host_ops.h"
#include "io/graph_io.h"
#include "reference.h"
#include "sampling/sampling_graph.h"
#include "test_data.h"

namespace matsamp {
namespace {

// Entry (r, c) -> value of a matrix.
std::map<std::pair<int64_t, col_t>, float> entries(const CsrMatrix& m) {
  std::map<std::pair<int64_t, col_t>, float> out;
  for (int64_t r = 0; r < m.rows; ++r)
    for (int64_t e = m.rowptr[r]; e < m.rowptr[r + 1]; ++e) out[{r, m.colidx[e]}] = m.values[e];
  return out;
}

TEST(AddEntries, EveryEntryOfEitherWithSharedOnesSummed) {
  auto cpu = make_cpu_backend();
  for (uint32_t seed : {1u, 2u, 3u}) {
    const CsrMatrix a = testing::random_csr(40, 70, 0.1, seed), b = testing::random_csr(40, 70, 0.15, seed + 10);
    std::map<std::pair<int64_t, col_t>, float> want = entries(a);
    for (const auto& [at, value] : entries(b)) {
      const auto found = want.find(at);
      if (found == want.end()) want[at] = value;
      else found->second = found->second + value;
    }
    const CsrMatrix sum = add_entries(a, b);
    EXPECT_EQ(entries(sum), want);
    EXPECT_EQ(sum.nnz(), static_cast<int64_t>(want.size()));  // sorted, unique columns per row
    EXPECT_EQ(testing::HostOps(*cpu).add_entries(a, b), sum);
  }
  testing::expect_error([] { add_entries(CsrMatrix(2, 3), CsrMatrix(2, 4)); }, "add_entries: A is 2 x 3");
}

TEST(FirstColumns, TakesEachRowsFirstColumnOrItsFallback) {
  const CsrMatrix m = testing::random_csr(50, 30, 0.05, 4);
  std::vector<vid_t> fallback(50);
  for (int64_t r = 0; r < 50; ++r) fallback[r] = 100 + r;
  const std::vector<vid_t> got = first_columns(m, fallback);
  int64_t empty = 0;
  for (int64_t r = 0; r < 50; ++r) {
    empty += m.row_nnz(r) == 0;
    EXPECT_EQ(got[r], m.row_nnz(r) ? m.colidx[m.rowptr[r]] : 100 + r);
  }
  EXPECT_GT(empty, 0);
  auto cpu = make_cpu_backend();
  EXPECT_EQ(testing::HostOps(*cpu).first_columns(m, fallback), got);
  testing::expect_error([&] { first_columns(m, {1, 2}); }, "first_columns: 2 fallback ids for a matrix of 50 rows");
}

// Walks on Cora as the walk sampler takes them: each step's picks summed, and
// the walkers moved to their picks; the sum's row i is walker i's visits.
TEST(AddEntries, SumsCorasWalkStepsIntoEachWalkersVisits) {
  const CsrMatrix adj = symmetrize(read_npz_graph(testing::data_file("cora.npz")).adj);
  std::vector<vid_t> position;
  for (vid_t v = 0; v < 2708; v += 9) position.push_back(v);
  const Offsets offsets{0, static_cast<int64_t>(position.size())};
  std::vector<std::vector<vid_t>> visits(position.size());
  CsrMatrix visited(static_cast<int64_t>(position.size()), adj.cols);
  for (uint32_t step = 0; step < 4; ++step) {
    const CsrMatrix picks = sample_rows(adj, position, 1, {5, 0, step, 0, offsets}, true);
    for (size_t i = 0; i < position.size(); ++i)
      if (picks.row_nnz(i)) visits[i].push_back(picks.colidx[picks.rowptr[i]]);
    position = first_columns(picks, position);
    visited = add_entries(visited, picks);
  }
  for (size_t i = 0; i < visits.size(); ++i) {
    std::sort(visits[i].begin(), visits[i].end());
    visits[i].erase(std::unique(visits[i].begin(), visits[i].end()), visits[i].end());
    EXPECT_EQ(
        std::vector<vid_t>(visited.colidx.begin() + visited.rowptr[i], visited.colidx.begin() + visited.rowptr[i + 1]),
        visits[i]);
    ASSERT_FALSE(visits[i].empty());
    EXPECT_TRUE(std::binary_search(visits[i].begin(), visits[i].end(), position[i]));
  }
}

TEST(EdgeEndpoints, RowEHoldsBothEndsOfEntryE) {
  CsrMatrix a(3, 3);
  a.rowptr = {0, 2, 3, 4};
  a.colidx = {1, 2, 1, 0};
  a.values = {1, 1, 1, 1};
  const CsrMatrix b = edge_endpoints(a);
  EXPECT_EQ(b.rows, 4);
  EXPECT_EQ(b.cols, 3);
  EXPECT_EQ(b.rowptr, (Offsets{0, 2, 4, 5, 7}));
  EXPECT_EQ(b.colidx, (std::vector<col_t>{0, 1, 0, 2, 1, 0, 2}));  // (1, 1), a self loop: once
}

}  // namespace
}  // namespace matsamp
