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
using testing::sample_repeated;
using testing::Dense;

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
void expect_follows(LayerWiseKind kind, const Graph& g, const std::vector<vid_t>& seeds, int64_t n) {
  auto sampler = make_layerwise_sampler(kind, g.adj, {1}, 17, /*include_frontier=*/false);
  const BulkSample bulk = sample_repeated(*sampler, seeds, n);
  const std::vector<double> p =
      layer_distribution(gcn_dense(g.adj), kind == LayerWiseKind::ladies ? seeds : std::vector<vid_t>{});
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
  if (expected[0] < 5) {   // too small to stand alone: fold into the next cell
    observed[1] += observed[0];
    expected[1] += expected[0];
    observed.erase(observed.begin());
    expected.erase(expected.begin());
  }
  EXPECT_LT(testing::chi_square(observed, expected), testing::chi_square_critical(observed.size() - 1));
}

TEST(Ladies, FollowsSquaredNormalizedAdjacencyOnKarate) {
  expect_follows(LayerWiseKind::ladies, read_matrix_market(data_file("karate.mtx")), {0, 5, 33}, 30000);
}

TEST(Ladies, FollowsSquaredNormalizedAdjacencyOnEmailEuCore) {
  const Graph g = cleanup(read_edge_list(data_file("email-Eu-core.txt")), {true, true, false});
  expect_follows(LayerWiseKind::ladies, g, {1, 20, 300, 700}, 40000);
}

TEST(FastGcn, FollowsColumnNormsOnKarate) {
  expect_follows(LayerWiseKind::fastgcn, read_matrix_market(data_file("karate.mtx")), {3}, 30000);
}

// Every edge of Â between the frontier and the next layer is there, weighted
// Â_uv / p(v) and row-normalized.
void expect_importance_weights(LayerWiseKind kind, const Graph& g, const std::vector<int64_t>& sizes) {
  auto sampler = make_layerwise_sampler(kind, g.adj, sizes, 5, true);
  auto backend = make_cpu_backend();
  std::vector<vid_t> all(g.num_vertices());
  std::iota(all.begin(), all.end(), 0);
  EpochIterator epoch(*sampler, *backend, all, {64, 0, int64_t{1} << 30, 5, 0});
  const Dense hat = gcn_dense(g.adj);
  const CsrMatrix pattern = gcn_normalize(g.adj);
  BulkSample bulk;
  ASSERT_TRUE(epoch.next(&bulk));
  testing::expect_well_formed(bulk, pattern, /*frontier_first=*/true);
  for (int64_t mb_index = 0; mb_index < std::min<int64_t>(bulk.count(), 5); ++mb_index) {
    const Minibatch mb = extract_minibatch(bulk, mb_index);
    std::vector<vid_t> frontier = mb.seeds;
    for (size_t l = 0; l < mb.layers.size(); ++l) {
      const std::vector<double> p =
          layer_distribution(hat, kind == LayerWiseKind::ladies ? frontier : std::vector<vid_t>{});
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
  expect_importance_weights(LayerWiseKind::ladies, read_npz_graph(data_file("cora.npz")), {64, 64});
}

TEST(Ladies, ImportanceWeightsOnKarate) {
  expect_importance_weights(LayerWiseKind::ladies, read_matrix_market(data_file("karate.mtx")), {4, 3});
}

TEST(FastGcn, ImportanceWeightsOnKarate) {
  expect_importance_weights(LayerWiseKind::fastgcn, read_matrix_market(data_file("karate.mtx")), {5, 5});
}

TEST(Ladies, SampledSetHasMinOfSAndSupportVertices) {
  const Graph g = read_npz_graph(data_file("cora.npz"));
  const CsrMatrix hat = gcn_normalize(g.adj);
  const std::vector<int64_t> sizes{30, 200};
  auto sampler = make_layerwise_sampler(LayerWiseKind::ladies, g.adj, sizes, 3, false);
  const BulkSample bulk = sample_repeated(*sampler, {10, 20, 30, 40, 50, 60, 70, 80}, 6);
  for (int64_t mb = 0; mb < bulk.count(); ++mb) {
    std::vector<vid_t> frontier(bulk.seeds.begin() + bulk.seed_offsets[mb],
                                bulk.seeds.begin() + bulk.seed_offsets[mb + 1]);
    for (size_t l = 0; l < sizes.size(); ++l) {
      std::set<vid_t> support;   // vertices with p(v) > 0
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

// ---- Backend::draw_columns, the layer-wise draw --------------------------------

// P's entry at (r, v), 0 when absent: the reference for the frontier lookups.
float entry_of(const CsrMatrix& p, int64_t r, vid_t v) {
  for (int64_t e = p.rowptr[r]; e < p.rowptr[r + 1]; ++e)
    if (p.colidx[e] == v) return p.values[e];
  return 0.0f;
}

TEST(DrawColumns, LadiesDrawEqualsTheOpsAndLooksUpTheFrontier) {
  const Graph g = read_npz_graph(data_file("cora.npz"));
  const auto m = prepare_layerwise_matrices(symmetrize(g.adj));
  // Three minibatches' frontiers (one repeats a vertex), Q with one row per minibatch.
  const std::vector<vid_t> frontier{5, 17, 300, 2000, 17, 9, 1200, 2707, 44};
  const Offsets offsets{0, 3, 5, 9};
  CsrMatrix q(3, g.num_vertices());
  for (int64_t b = 0; b < 3; ++b) {
    std::set<vid_t> row(frontier.begin() + offsets[b], frontier.begin() + offsets[b + 1]);
    for (vid_t v : row) q.colidx.push_back(static_cast<col_t>(v));
    q.rowptr[b + 1] = static_cast<int64_t>(q.colidx.size());
  }
  q.values.assign(q.colidx.size(), 1.0f);
  const SampleKeys keys{3, 1, 0, 7, {0, 1, 2, 3}};
  auto backend = make_cpu_backend();
  StepStats times;
  const ColumnDraw draw = backend->draw_columns(&q, m->squared, 20, keys, &frontier, offsets, &times);
  CsrMatrix p = spgemm(q, m->squared);
  normalize_rows(p);
  EXPECT_EQ(draw.chosen, its_sample(p, 20, keys));
  EXPECT_EQ(draw.probability_nnz, p.nnz());
  ASSERT_EQ(draw.frontier_probability.size(), frontier.size());
  for (int64_t b = 0; b < 3; ++b)
    for (int64_t i = offsets[b]; i < offsets[b + 1]; ++i) {
      EXPECT_EQ(draw.frontier_probability[i], entry_of(p, b, frontier[i])) << "frontier entry " << i;
      EXPECT_GT(draw.frontier_probability[i], 0.0f);   // Â has self loops: a frontier vertex reaches itself
    }
  EXPECT_GT(times.probability + times.sampling + times.extraction, 0.0);
  EXPECT_TRUE(backend->draw_columns(&q, m->squared, 20, keys, nullptr, offsets, nullptr).frontier_probability.empty());
}

TEST(DrawColumns, SharedRowLookupsInBothRegimes) {
  const Graph g = read_npz_graph(data_file("cora.npz"));
  const auto m = prepare_layerwise_matrices(symmetrize(g.adj));
  const CsrMatrix& p = m->column_norms;
  auto backend = make_cpu_backend();
  // Few lookups (binary search) and many (a dense copy of the row): same values.
  for (int64_t per_block : {2, 200}) {
    std::vector<vid_t> frontier;
    Offsets offsets{0};
    for (int64_t b = 0; b < 4; ++b) {
      for (int64_t i = 0; i < per_block; ++i) frontier.push_back(static_cast<vid_t>((b * 911 + i * 13) % p.cols));
      offsets.push_back(static_cast<int64_t>(frontier.size()));
    }
    const SampleKeys keys{3, 0, 1, 0, {0, 1, 2, 3, 4}};
    const ColumnDraw draw = backend->draw_columns(nullptr, p, 16, keys, &frontier, offsets, nullptr);
    EXPECT_EQ(draw.chosen, its_sample(p, 16, keys));
    for (size_t i = 0; i < frontier.size(); ++i)
      ASSERT_EQ(draw.frontier_probability[i], entry_of(p, 0, frontier[i])) << per_block << " per block, entry " << i;
  }
}

TEST(DrawColumns, RejectsABadFrontier) {
  const CsrMatrix p = testing::random_csr(1, 50, 0.5, 4);
  auto backend = make_cpu_backend();
  const SampleKeys keys{1, 0, 0, 0, {0, 1, 2}};
  const std::vector<vid_t> out_of_range{3, 50};
  testing::expect_error([&] { backend->draw_columns(nullptr, p, 2, keys, &out_of_range, {0, 1, 2}, nullptr); },
                        "draw_columns: frontier vertex 50 out of range for 50 columns");
  const std::vector<vid_t> frontier{3, 4};
  testing::expect_error([&] { backend->draw_columns(nullptr, p, 2, keys, &frontier, {0, 3}, nullptr); },
                        "draw_columns: frontier offsets must run from 0 to 2");
}

TEST(Ladies, RejectsZeroSamples) {
  EXPECT_THROW(make_layerwise_sampler(LayerWiseKind::ladies, CsrMatrix(3, 3), {0}, 1), Error);
  EXPECT_THROW(make_layerwise_sampler(LayerWiseKind::fastgcn, CsrMatrix(3, 3), {}, 1), Error);
}

}  // namespace
}  // namespace matsamp
