// Draws with replacement (ops.h: sample_rows_with_replacement; GraphSAGE's
// replace option): s independent draws per row with a positive entry, each
// entry with its normalized weight's chance, repeats kept in a's order.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "error_checks.h"
#include "graph/transform.h"
#include "io/graph_io.h"
#include "reference.h"
#include "sampling/registry.h"
#include "sampling/sample.h"
#include "sampling/sampling_graph.h"
#include "statistics.h"
#include "test_data.h"

namespace matsamp {
namespace {

// One row of weights 1, 2, 0, 5 and an empty one, drawn 3 times per key row:
// the counts follow the multinomial of 1/8, 2/8, 0, 5/8; the empty row draws nothing.
TEST(SampleRowsWithReplacement, DrawsFollowTheWeights) {
  CsrMatrix a(2, 4);
  a.rowptr = {0, 4, 4};
  a.colidx = {0, 1, 2, 3};
  a.values = {1, 2, 0, 5};
  const int64_t draws_per_row = 3, rows = 4000;
  std::vector<vid_t> picked_rows(rows, 0);
  picked_rows[7] = 1;
  const SampleKeys keys{11, 0, 0, 0, {0, rows / 2, rows}};
  std::vector<vid_t> positions;
  const CsrMatrix got = sample_rows_with_replacement(a, picked_rows, draws_per_row, keys, false, &positions);
  std::vector<double> counts(4, 0);
  for (int64_t i = 0; i < got.rows; ++i) {
    ASSERT_EQ(got.row_nnz(i), i == 7 ? 0 : draws_per_row) << "row " << i;
    ASSERT_TRUE(std::is_sorted(got.colidx.begin() + got.rowptr[i], got.colidx.begin() + got.rowptr[i + 1]));
    for (int64_t e = got.rowptr[i]; e < got.rowptr[i + 1]; ++e) {
      counts[got.colidx[e]] += 1;
      EXPECT_EQ(positions[e], got.colidx[e]);
      EXPECT_EQ(got.values[e], a.values[got.colidx[e]] / 8.0f);
    }
  }
  EXPECT_EQ(counts[2], 0);
  const double n = static_cast<double>(draws_per_row * (rows - 1));
  const std::vector<double> observed{counts[0], counts[1], counts[3]};
  EXPECT_LT(testing::chi_square(observed, {n / 8, n * 2 / 8, n * 5 / 8}), testing::chi_square_critical(2));
  // Some rows repeat an entry (three draws of a row of weight 5/8 mostly do).
  int64_t repeats = 0;
  for (int64_t e = 1; e < got.nnz(); ++e) repeats += got.colidx[e] == got.colidx[e - 1];
  EXPECT_GT(repeats, rows);
}

// Equal values: the uniform path (no row read) picks what the prefix path does,
// each entry about equally often, and the same keys give the same draws.
TEST(SampleRowsWithReplacement, UniformRowsDrawAlike) {
  const CsrMatrix adj = symmetrize(read_npz_graph(testing::data_file("cora.npz")).adj);
  std::vector<vid_t> rows;
  for (vid_t v = 0; v < adj.rows; v += 5) rows.push_back(v);
  const SampleKeys keys{2, 1, 0, 4, {0, 100, static_cast<int64_t>(rows.size())}};
  std::vector<vid_t> fast_positions, read_positions;
  const CsrMatrix fast = sample_rows_with_replacement(adj, rows, 6, keys, true, &fast_positions);
  const CsrMatrix read = sample_rows_with_replacement(adj, rows, 6, keys, false, &read_positions);
  EXPECT_EQ(fast, read);
  EXPECT_EQ(fast_positions, read_positions);
  for (size_t i = 0; i < rows.size(); ++i) {
    ASSERT_EQ(fast.row_nnz(i), adj.row_nnz(rows[i]) > 0 ? 6 : 0);
    for (int64_t e = fast.rowptr[i]; e < fast.rowptr[i + 1]; ++e) {
      EXPECT_GE(fast_positions[e], adj.rowptr[rows[i]]);
      EXPECT_LT(fast_positions[e], adj.rowptr[rows[i] + 1]);
      EXPECT_EQ(fast.colidx[e], adj.colidx[fast_positions[e]]);
    }
  }
  // Rows of degree 2 draw each neighbour half the time.
  int64_t first = 0, draws = 0;
  for (size_t i = 0; i < rows.size(); ++i)
    if (adj.row_nnz(rows[i]) == 2)
      for (int64_t e = fast.rowptr[i]; e < fast.rowptr[i + 1]; ++e, ++draws)
        first += fast_positions[e] == adj.rowptr[rows[i]];
  EXPECT_GT(draws, 300);
  EXPECT_TRUE(testing::within_binomial(static_cast<double>(first), static_cast<double>(draws), 0.5));
}

// GraphSAGE with replace: every frontier vertex with a neighbour keeps exactly
// its fanout of entries, repeats summed by the mean weights; only graphsage takes it.
TEST(GraphSageWithReplacement, EveryVertexDrawsItsFanout) {
  const CsrMatrix adj = symmetrize(read_npz_graph(testing::data_file("cora.npz")).adj);
  auto backend = make_cpu_backend();
  LocalGraph graph(*backend, adj);
  const SamplerSpec& spec = find_sampler("graphsage");
  const auto sampler = make_sampler("graphsage", graph, params_from_sizes(spec, {5, 3}, true, false, true));
  std::vector<vid_t> seeds;
  for (vid_t v = 0; v < 200; ++v) seeds.push_back(v);
  Context ctx{*backend, 9};
  const BulkSample bulk = to_host(*backend, sampler->sample(ctx, seeds, {0, 100, 200}, 0, 0));
  ASSERT_EQ(bulk.layers.size(), 2u);
  int64_t repeated = 0;
  for (size_t l = 0; l < 2; ++l) {
    const CsrMatrix& m = bulk.layers[l].adj;
    for (int64_t i = 0; i < m.rows; ++i) {
      EXPECT_EQ(m.row_nnz(i), l == 0 ? 5 : 3) << "layer " << l << ", row " << i;  // Cora has no isolated vertex
      for (int64_t e = m.rowptr[i] + 1; e < m.rowptr[i + 1]; ++e) repeated += m.colidx[e] == m.colidx[e - 1];
    }
  }
  EXPECT_GT(repeated, 50);
  testing::expect_error([&] { params_from_sizes(find_sampler("ladies"), {5}, true, false, true); },
                        "the ladies sampler does not draw with replacement (graphsage does)");
}

}  // namespace
}  // namespace matsamp
