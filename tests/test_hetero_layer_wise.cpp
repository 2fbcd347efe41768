// The heterogeneous layer-wise (HGT-style) sampler: every sampled entry is an
// edge of its relation, rows are distributions, each type draws at most its
// budget, draws follow p ∝ (Σ_r Σ_u Â_r[u, v])² (chi-square against a count of
// the edges), and minibatches do not depend on the bulk size.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "backend/backend.h"
#include "error_checks.h"
#include "hetero_test_graph.h"
#include "sampling/hetero_layer_wise.h"
#include "sampling_checks.h"
#include "statistics.h"

namespace matsamp {
namespace {

using testing::relation_edges;
using testing::small_hetero_graph;

TEST(HeteroLayerWise, EntriesAreEdgesRowsAreDistributionsAndBudgetsHold) {
  const HeteroGraph g = small_hetero_graph();
  auto cpu = make_cpu_backend();
  const auto budgets = parse_type_budgets(g, "paper=20,10;author=15,8;topic=4,2");
  const HeteroLayerWiseSampler sampler(*cpu, g, budgets);
  const std::vector<vid_t> seeds{0, 1, 2, 3, 4, 50, 60, 70, 80, 90};
  Context ctx{*cpu, 5};
  const HeteroBulkSample bulk = to_host(*cpu, sampler.sample(ctx, 0, seeds, {0, 5, 10}, 0, 0));
  ASSERT_EQ(bulk.layers.size(), 2u);
  std::vector<std::vector<vid_t>> frontier{seeds, {}, {}};
  std::vector<Offsets> frontier_offsets{{0, 5, 10}, {0, 0, 0}, {0, 0, 0}};
  int64_t sampled_entries = 0;
  for (size_t l = 0; l < bulk.layers.size(); ++l) {
    const HeteroSampledLayer& layer = bulk.layers[l];
    for (size_t t = 0; t < g.types.size(); ++t)
      for (int64_t mb = 0; mb < 2; ++mb) {
        const Offsets& was = frontier_offsets[t];
        const Offsets& now = layer.vertex_offsets[t];
        const int64_t kept = was[mb + 1] - was[mb];
        ASSERT_GE(now[mb + 1] - now[mb], kept);
        EXPECT_LE(now[mb + 1] - now[mb] - kept, budgets[t][l]) << g.types[t].name << " drew over its budget";
        for (int64_t i = 0; i < kept; ++i)
          EXPECT_EQ(layer.vertices[t][now[mb] + i], frontier[t][was[mb] + i]) << "the frontier leads";
      }
    for (size_t r = 0; r < g.relations.size(); ++r) {
      const CsrMatrix& a = layer.adj[r];
      if (a.rows == 0) continue;
      const std::vector<vid_t>& rows = frontier[g.type_index(g.relations[r].destination)];
      for (int64_t mb = 0; mb < 2; ++mb)
        for (const auto& [v, u] : relation_edges(bulk, g, l, r, mb, rows))
          EXPECT_TRUE(testing::has_entry(g.relations[r].adj, v, u))
              << g.relations[r].key() << ": (" << v << ", " << u << ") is not an edge";
      for (int64_t i = 0; i < a.rows; ++i) {
        double sum = 0;
        for (int64_t e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e) sum += a.values[e];
        if (a.rowptr[i + 1] > a.rowptr[i]) {
          EXPECT_NEAR(sum, 1.0, 1e-5) << g.relations[r].key() << " row " << i;
        }
      }
      sampled_entries += a.nnz();
    }
    frontier = layer.vertices;
    frontier_offsets = layer.vertex_offsets;
  }
  EXPECT_GT(sampled_entries, 50);
  EXPECT_GT(bulk.layers[1].adj[g.relation_index("rev_writes")].nnz(), 0) << "authors sample papers in layer 1";
}

TEST(HeteroLayerWise, MinibatchesDoNotDependOnTheBulkSize) {
  const HeteroGraph g = small_hetero_graph();
  auto cpu = make_cpu_backend();
  testing::expect_minibatches_independent_of_bulk(HeteroLayerWiseSampler(*cpu, g, parse_type_budgets(g, "12,6")), *cpu);
}

// Authors write and review papers: p(a) ∝ (Σ_{r, p in seeds} 1/deg_r(p) [a r p])².
TEST(HeteroLayerWise, DrawsFollowTheSquaredNormalisedDegree) {
  HeteroGraph g;
  g.types = {{"paper", 4}, {"author", 6}};
  add_relation(g, "author", "writes", "paper", {0, 1, 2, 1, 3, 4, 5, 5}, {0, 0, 0, 1, 1, 2, 2, 3});
  add_relation(g, "author", "reviews", "paper", {2, 3, 4, 0}, {0, 1, 1, 2});
  auto cpu = make_cpu_backend();
  const HeteroLayerWiseSampler sampler(*cpu, g, parse_type_budgets(g, "paper=0;author=1"));
  const std::vector<vid_t> papers{0, 1, 2};  // paper 3 is not a seed: author 5 gets only paper 2's share

  std::vector<double> weight(6, 0);
  for (const Relation& r : g.relations)
    for (vid_t p : papers) {
      const int64_t degree = r.adj.row_nnz(p);
      for (int64_t e = r.adj.rowptr[p]; e < r.adj.rowptr[p + 1]; ++e)
        weight[r.adj.colidx[e]] += r.adj.values[e] / static_cast<double>(degree);
    }
  double total = 0;
  for (double& w : weight) total += (w = w * w);

  constexpr int64_t kPerCall = 16, kCalls = 400;
  std::vector<vid_t> seeds;
  Offsets offsets{0};
  for (int64_t mb = 0; mb < kPerCall; ++mb) {
    seeds.insert(seeds.end(), papers.begin(), papers.end());
    offsets.push_back(static_cast<int64_t>(seeds.size()));
  }
  std::vector<double> observed(6, 0);
  Context ctx{*cpu, 21};
  for (int64_t call = 0; call < kCalls; ++call) {
    const HeteroBulkSample bulk = to_host(*cpu, sampler.sample(ctx, 0, seeds, offsets, call * kPerCall, 0));
    const std::vector<vid_t>& authors = bulk.layers[0].vertices[1];
    ASSERT_EQ(authors.size(), static_cast<size_t>(kPerCall)) << "one author per minibatch";
    for (vid_t a : authors) observed[a] += 1;
  }
  std::vector<double> expected(6);
  for (int a = 0; a < 6; ++a) expected[a] = kPerCall * kCalls * weight[a] / total;
  EXPECT_LT(testing::chi_square(observed, expected), testing::chi_square_critical(5))
      << "observed " << ::testing::PrintToString(observed) << ", expected " << ::testing::PrintToString(expected);
}

TEST(HeteroLayerWise, BadBudgetsAreOneLineErrors) {
  const HeteroGraph g = small_hetero_graph();
  auto cpu = make_cpu_backend();
  testing::expect_error([&] { parse_type_budgets(g, "venue=3"); }, "venue");
  testing::expect_error([&] { parse_type_budgets(g, "paper=3,2;author=1"); }, "type author has 1 layers, the others 2");
  testing::expect_error([&] { parse_type_budgets(g, "paper=3;paper=2"); }, "type paper is given twice");
  testing::expect_error([&] { HeteroLayerWiseSampler(*cpu, g, {{1}, {1}}); }, "budgets for 2 vertex types");
  const HeteroLayerWiseSampler sampler(*cpu, g, parse_type_budgets(g, "4"));
  Context ctx{*cpu, 1};
  testing::expect_error([&] { sampler.sample(ctx, 1, {500}, {0, 1}, 0, 0); }, "seed 500 is not a author vertex");
}

}  // namespace
}  // namespace matsamp
