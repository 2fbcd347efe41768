#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <set>

#include "error_checks.h"
#include "graph/transform.h"
#include "io/graph_io.h"
#include "reference.h"
#include "sampling/epoch.h"
#include "sampling/sampler.h"
#include "sampling_checks.h"
#include "statistics.h"
#include "test_data.h"

namespace matsamp {
namespace {

using testing::data_file;
using testing::Dense;
using testing::sample_repeated;

// Â = D^-1/2 (A + I) D^-1/2, computed densely as an independent reference.
Dense gcn_dense(const CsrMatrix& a) {
  Dense d = testing::to_dense(a);
  const size_t n = d.size();
  std::vector<double> degree(n, 0);
  for (size_t i = 0; i < n; ++i) {
    d[i][i] += 1;
    degree[i] = std::accumulate(d[i].begin(), d[i].end(), 0.0);
  }
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) d[i][j] /= std::sqrt(degree[i] * degree[j]);
  return d;
}

// The LADIES distribution of a frontier, or FastGCN's when frontier is empty.
std::vector<double> layer_distribution(const Dense& hat, const std::vector<vid_t>& frontier) {
  const size_t n = hat.size();
  std::vector<double> p(n, 0);
  for (size_t u = 0; u < n; ++u) {
    const bool in = frontier.empty() || std::find(frontier.begin(), frontier.end(), vid_t(u)) != frontier.end();
    if (!in) continue;
    for (size_t v = 0; v < n; ++v) p[v] += hat[u][v] * hat[u][v];
  }
  const double total = std::accumulate(p.begin(), p.end(), 0.0);
  for (double& x : p) x /= total;
  return p;
}

// With s = 1 and the frontier excluded, layer 0 of each minibatch is one draw of p.
void expect_follows(const std::string& kind, const Graph& g, const std::vector<vid_t>& seeds, int64_t n) {
  auto sampler = testing::layer_wise(kind, g.adj, {1}, 17, /*include_frontier=*/false);
  const BulkSample bulk = sample_repeated(*sampler, seeds, n);
  const std::vector<double> p = layer_distribution(gcn_dense(g.adj), kind == "ladies" ? seeds : std::vector<vid_t>{});
  std::vector<double> counts(p.size(), 0);
  ASSERT_EQ(static_cast<int64_t>(bulk.layers[0].vertices.size()), n);
  for (vid_t v : bulk.layers[0].vertices) counts[v] += 1;
  // Pool vertices with small expectations so every chi-square cell expects >= 5.
  std::vector<double> observed{0}, expected{0};
  for (size_t v = 0; v < p.size(); ++v) {
    if (p[v] == 0) {
      EXPECT_EQ(counts[v], 0) << "vertex " << v << " has probability 0 but was sampled";
      continue;
    }
    if (n * p[v] >= 5) {
      observed.push_back(counts[v]);
      expected.push_back(n * p[v]);
    } else {
      observed[0] += counts[v];
      expected[0] += n * p[v];
    }
  }
  if (expected[0] < 5) {  // too small to stand alone: fold into the next cell
    observed[1] += observed[0];
    expected[1] += expected[0];
    observed.erase(observed.begin());
    expected.erase(expected.begin());
  }
  EXPECT_LT(testing::chi_square(observed, expected), testing::chi_square_critical(observed.size() - 1));
}

TEST(Ladies, FollowsSquaredNormalizedAdjacencyOnKarate) {
  expect_follows("ladies", read_matrix_market(data_file("karate.mtx")), {0, 5, 33}, 30000);
}

TEST(Ladies, FollowsSquaredNormalizedAdjacencyOnEmailEuCore) {
  const Graph g = cleanup(read_edge_list(data_file("email-Eu-core.txt")), {true, true, false});
  expect_follows("ladies", g, {1, 20, 300, 700}, 40000);
}

TEST(FastGcn, FollowsColumnNormsOnKarate) {
  expect_follows("fastgcn", read_matrix_market(data_file("karate.mtx")), {3}, 30000);
}

// Every edge of Â between the frontier and the next layer is there, weighted
// Â_uv / p(v) and row-normalized.
void expect_importance_weights(const std::string& kind, const Graph& g, const std::vector<int64_t>& sizes) {
  auto sampler = testing::layer_wise(kind, g.adj, sizes, 5, true);
  auto backend = make_cpu_backend();
  std::vector<vid_t> all(g.num_vertices());
  std::iota(all.begin(), all.end(), 0);
  auto bound = sampler->bind(*backend);
  EpochIterator epoch(*bound.sampler, bound.context, all, {64, 0, int64_t{1} << 30, 5, 0});
  const Dense hat = gcn_dense(g.adj);
  const CsrMatrix pattern = gcn_normalize(g.adj);
  BulkSample bulk;
  ASSERT_TRUE(epoch.next(&bulk));
  testing::expect_well_formed(bulk, pattern, /*frontier_first=*/true);
  for (int64_t mb_index = 0; mb_index < std::min<int64_t>(bulk.count(), 5); ++mb_index) {
    const Minibatch mb = extract_minibatch(bulk, mb_index);
    std::vector<vid_t> frontier = mb.seeds;
    for (size_t l = 0; l < mb.layers.size(); ++l) {
      const std::vector<double> p = layer_distribution(hat, kind == "ladies" ? frontier : std::vector<vid_t>{});
      const MinibatchLayer& layer = mb.layers[l];
      ASSERT_LE(layer.vertices.size(), frontier.size() + sizes[l]);
      const Dense got = testing::to_dense(layer.adj);
      for (size_t r = 0; r < frontier.size(); ++r) {
        double total = 0;
        for (vid_t v : layer.vertices) total += hat[frontier[r]][v] / p[v];
        for (size_t j = 0; j < layer.vertices.size(); ++j) {
          const double want = hat[frontier[r]][layer.vertices[j]] / p[layer.vertices[j]] / total;
          ASSERT_NEAR(got[r][j], want, 1e-4 * (1 + want)) << "layer " << l << " row " << r << " col " << j;
        }
      }
      frontier = layer.vertices;
    }
  }
}

TEST(Ladies, ImportanceWeightsOnCora) {
  expect_importance_weights("ladies", read_npz_graph(data_file("cora.npz")), {64, 64});
}

TEST(Ladies, ImportanceWeightsOnKarate) {
  expect_importance_weights("ladies", read_matrix_market(data_file("karate.mtx")), {4, 3});
}

TEST(FastGcn, ImportanceWeightsOnKarate) {
  expect_importance_weights("fastgcn", read_matrix_market(data_file("karate.mtx")), {5, 5});
}

TEST(Ladies, SampledSetHasMinOfSAndSupportVertices) {
  const Graph g = read_npz_graph(data_file("cora.npz"));
  const CsrMatrix hat = gcn_normalize(g.adj);
  const std::vector<int64_t> sizes{30, 200};
  auto sampler = testing::layer_wise("ladies", g.adj, sizes, 3, false);
  const BulkSample bulk = sample_repeated(*sampler, {10, 20, 30, 40, 50, 60, 70, 80}, 6);
  for (int64_t mb = 0; mb < bulk.count(); ++mb) {
    std::vector<vid_t> frontier(bulk.seeds.begin() + bulk.seed_offsets[mb],
                                bulk.seeds.begin() + bulk.seed_offsets[mb + 1]);
    for (size_t l = 0; l < sizes.size(); ++l) {
      std::set<vid_t> support;  // vertices with p(v) > 0
      for (vid_t u : frontier)
        for (int64_t e = hat.rowptr[u]; e < hat.rowptr[u + 1]; ++e) support.insert(hat.colidx[e]);
      const SampledLayer& layer = bulk.layers[l];
      EXPECT_EQ(layer.col_offsets[mb + 1] - layer.col_offsets[mb],
                std::min<int64_t>(sizes[l], static_cast<int64_t>(support.size())));
      frontier.assign(layer.vertices.begin() + layer.col_offsets[mb],
                      layer.vertices.begin() + layer.col_offsets[mb + 1]);
    }
  }
}

TEST(Ladies, RejectsZeroSamples) {
  EXPECT_THROW(testing::layer_wise("ladies", CsrMatrix(3, 3), {0}, 1), Error);
  EXPECT_THROW(testing::layer_wise("fastgcn", CsrMatrix(3, 3), {}, 1), Error);
}

}  // namespace
}  // namespace matsamp
