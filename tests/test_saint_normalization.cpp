// GraphSAINT's aggregator normalization: the counts of subgraphs and entries,
// the scaled matrix, and that the scaled layers aggregate without bias: averaged
// over many epochs a root's batch-layer row sums to its row sum in Â.
#include <gtest/gtest.h>

#include "graph/transform.h"
#include "io/graph_io.h"
#include "sampling/saint_normalization.h"
#include "test_data.h"
#include "test_sampler.h"

namespace matsamp {
namespace {

TEST(SaintNormalization, CountsSubgraphsVerticesAndEntriesInside) {
  CsrMatrix a(3, 3);  // a path 0 - 1 - 2 with self-loops, as Â has them
  a.rowptr = {0, 2, 5, 7};
  a.colidx = {0, 1, 0, 1, 2, 1, 2};
  a.values = {0.5f, 0.4f, 0.4f, 0.3f, 0.4f, 0.4f, 0.5f};
  SubgraphCounts counts(a);
  counts.add(a, {{0, 1}, {1, 2}, {0, 1, 2}, {1}});
  EXPECT_EQ(counts.subgraphs, 4);
  EXPECT_EQ(counts.sampled_vertices, 8);
  EXPECT_EQ(counts.vertex, (std::vector<int64_t>{2, 4, 2}));
  EXPECT_EQ(counts.entry, (std::vector<int64_t>{2, 2, 2, 4, 2, 2, 2}));
  const CsrMatrix scaled = aggregator_normalized(a, counts);
  // Entry (1, 0): C_1 / C_10 = 4 / 2; the diagonal and rows 0 and 2 keep their values.
  EXPECT_EQ(scaled.values, (std::vector<float>{0.5f, 0.4f, 0.8f, 0.3f, 0.8f, 0.4f, 0.5f}));
  SubgraphCounts none(a);
  EXPECT_EQ(aggregator_normalized(a, none).values, a.values);  // never sampled: unscaled
}

// saint_node on karate, batches of 4, 16 vertices drawn: u joins a root's
// subgraph with probability α ≈ 0.4, the pre-sampling (50·n = 1700 vertices,
// ≈ 95 subgraphs) counts C_v ≈ 50 and C_uv ≈ 20, so each 1/α is off by ≈ 25%
// and a row (≈ 5 entries, the self-loop exact) by ≈ 11%: over 34 roots the mean
// ratio to the full row sum is within ≈ 2% (bound 7%), each root's within 50%.
// Without the normalization rows sum to 1 instead.
TEST(SaintNormalization, ScaledLayersAggregateWithoutBias) {
  const Graph g = read_matrix_market(testing::data_file("karate.mtx"));
  const CsrMatrix normalized = gcn_normalize(g.adj);
  const auto sampler = testing::make_test_sampler(
      "saint_node", g.adj, SamplerParams().set("budget", 16).set("layers", 1).set("saint_norm", 1), 5);
  auto cpu = make_cpu_backend();
  std::vector<vid_t> all(g.num_vertices());
  for (int64_t v = 0; v < g.num_vertices(); ++v) all[v] = v;
  std::vector<double> sum(g.num_vertices(), 0);
  const int epochs = 600;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    EpochOptions options;
    options.batch_size = 4;
    options.bulk_size = 9;
    options.epoch = static_cast<uint32_t>(epoch);
    for (const Minibatch& mb : testing::collect_minibatches(*sampler, *cpu, all, options)) {
      const CsrMatrix& layer = mb.layers[0].adj;
      for (size_t r = 0; r < mb.seeds.size(); ++r)
        for (int64_t e = layer.rowptr[r]; e < layer.rowptr[r + 1]; ++e) sum[mb.seeds[r]] += layer.values[e];
    }
  }
  double mean_ratio = 0;
  for (vid_t v = 0; v < g.num_vertices(); ++v) {
    double full = 0;
    for (int64_t e = normalized.rowptr[v]; e < normalized.rowptr[v + 1]; ++e) full += normalized.values[e];
    const double ratio = sum[v] / epochs / full;
    EXPECT_GT(ratio, 0.5) << "vertex " << v;
    EXPECT_LT(ratio, 1.5) << "vertex " << v;
    mean_ratio += ratio / static_cast<double>(g.num_vertices());
  }
  EXPECT_NEAR(mean_ratio, 1.0, 0.07);
}

}  // namespace
}  // namespace matsamp
