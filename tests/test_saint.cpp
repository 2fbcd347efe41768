// GraphSAINT's subgraph samplers: each minibatch's layers are the subgraph of Â
// induced by its roots and the vertices the sampler added (visited by the
// walks, or drawn by the node sampler), those follow their distributions, and
// bad options are clear errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "epoch_compare.h"
#include "error_checks.h"
#include "graph/transform.h"
#include "io/graph_io.h"
#include "reference.h"
#include "sampling/sampler.h"
#include "sampling_checks.h"
#include "statistics.h"
#include "test_data.h"

namespace matsamp {
namespace {

using testing::Dense;

// Vertices within `steps` hops of a root (breadth-first reference).
std::set<vid_t> within_hops(const CsrMatrix& adj, const std::vector<vid_t>& roots, int64_t steps) {
  std::set<vid_t> reached(roots.begin(), roots.end());
  std::vector<vid_t> frontier = roots;
  for (int64_t s = 0; s < steps; ++s) {
    std::vector<vid_t> next;
    for (vid_t u : frontier)
      for (int64_t e = adj.rowptr[u]; e < adj.rowptr[u + 1]; ++e)
        if (reached.insert(adj.colidx[e]).second) next.push_back(adj.colidx[e]);
    frontier = std::move(next);
  }
  return reached;
}

// Â[rows, cols] with each row divided by its sum: the expected layer.
Dense induced_rows(const CsrMatrix& normalized, const std::vector<vid_t>& rows, const std::vector<vid_t>& cols) {
  const Dense full = testing::to_dense(normalized);
  Dense out(rows.size(), std::vector<double>(cols.size(), 0.0));
  for (size_t i = 0; i < rows.size(); ++i) {
    double sum = 0;
    for (size_t j = 0; j < cols.size(); ++j) sum += out[i][j] = full[rows[i]][cols[j]];
    for (double& x : out[i]) x = sum > 0 ? x / sum : 0;
  }
  return out;
}

// Every minibatch of an epoch: roots first, then the added vertices (ascending;
// for walks within walk_length hops), and every layer the induced subgraph.
// The sampler is "saint" (size: the walk length), "saint_node" or "saint_edge" (size: the budget).
void expect_induced_subgraphs(const CsrMatrix& adj, const std::string& name, int64_t size, int64_t layers,
                              int64_t batch) {
  auto sampler = testing::saint(name, adj, size, layers, 7);
  auto cpu = make_cpu_backend();
  const CsrMatrix normalized = gcn_normalize(adj);
  int64_t visited = 0;
  for (const Minibatch& mb : testing::sample_epoch(*sampler, *cpu, adj.rows, batch, 0)) {
    ASSERT_EQ(mb.layers.size(), static_cast<size_t>(layers));
    const std::vector<vid_t>& vertices = mb.layers[0].vertices;
    ASSERT_GE(vertices.size(), mb.seeds.size());
    EXPECT_TRUE(std::equal(mb.seeds.begin(), mb.seeds.end(), vertices.begin())) << "roots first, minibatch " << mb.id;
    const std::vector<vid_t> others(vertices.begin() + mb.seeds.size(), vertices.end());
    EXPECT_TRUE(std::adjacent_find(others.begin(), others.end(), std::greater_equal<vid_t>()) == others.end())
        << "visited vertices ascending and unique, minibatch " << mb.id;
    const std::set<vid_t> roots(mb.seeds.begin(), mb.seeds.end());
    for (vid_t v : others) EXPECT_EQ(roots.count(v), 0u) << v << " is a root and added";
    if (name == "saint") {
      const std::set<vid_t> reach = within_hops(adj, mb.seeds, size);
      for (vid_t v : others) EXPECT_EQ(reach.count(v), 1u) << v << " is further than " << size << " steps";
    } else {
      const size_t per_draw = name == "saint_edge" ? 2 : 1;  // an edge adds both endpoints
      EXPECT_LE(others.size(), per_draw * static_cast<size_t>(size));
    }
    visited += static_cast<int64_t>(others.size());
    for (size_t l = 0; l < mb.layers.size(); ++l) {
      SCOPED_TRACE("minibatch " + std::to_string(mb.id) + ", layer " + std::to_string(l));
      EXPECT_EQ(mb.layers[l].vertices, vertices);
      testing::expect_matches(mb.layers[l].adj, induced_rows(normalized, l == 0 ? mb.seeds : vertices, vertices));
    }
  }
  EXPECT_GT(visited, 0) << "nothing was added to the roots";
}

TEST(Saint, LayersAreTheInducedSubgraphOnRandomGraphs) {
  expect_induced_subgraphs(testing::random_csr(120, 120, 0.04, 3), "saint", 2, 3, 16);
  expect_induced_subgraphs(symmetrize(testing::random_csr(200, 200, 0.02, 4)), "saint", 4, 1, 25);
}

TEST(Saint, LayersAreTheInducedSubgraphOnCora) {
  const Graph cora = read_npz_graph(testing::data_file("cora.npz"));
  expect_induced_subgraphs(cora.adj, "saint", 3, 2, 256);
  expect_induced_subgraphs(cora.adj, "saint_node", 300, 2, 256);
  expect_induced_subgraphs(cora.adj, "saint_edge", 200, 2, 256);
}

TEST(SaintNode, LayersAreTheInducedSubgraphOnRandomGraphs) {
  expect_induced_subgraphs(testing::random_csr(120, 120, 0.04, 3), "saint_node", 20, 2, 16);
  expect_induced_subgraphs(symmetrize(testing::random_csr(200, 200, 0.02, 4)), "saint_node", 500, 3, 25);
}

TEST(SaintEdge, LayersAreTheInducedSubgraphOnRandomGraphs) {
  expect_induced_subgraphs(testing::random_csr(120, 120, 0.04, 3), "saint_edge", 10, 2, 16);
  expect_induced_subgraphs(symmetrize(testing::random_csr(200, 200, 0.02, 4)), "saint_edge", 300, 1, 25);
}

// One edge drawn per minibatch, 20000 times: vertex v (not the root) is added
// when the edge has it as an endpoint, with probability Σ p(e) over its edges,
// p(u, w) ∝ 1/deg(u) + 1/deg(w) over A's entries (no self-loops in karate).
TEST(SaintEdge, DrawsFollowTheInverseDegreesOnKarate) {
  const Graph karate = read_matrix_market(testing::data_file("karate.mtx"));
  const CsrMatrix& a = karate.adj;
  std::vector<double> p(a.rows, 0.0);
  double total = 0;
  for (vid_t u = 0; u < a.rows; ++u)
    for (int64_t e = a.rowptr[u]; e < a.rowptr[u + 1]; ++e) {
      const double weight = 1.0 / a.row_nnz(u) + 1.0 / a.row_nnz(a.colidx[e]);
      p[u] += weight;
      p[a.colidx[e]] += weight;
      total += weight;
    }
  auto sampler = testing::saint("saint_edge", a, 1, 1, 17);
  const double trials = 20000;
  const vid_t root = 2;
  const BulkSample bulk = testing::sample_repeated(*sampler, {root}, static_cast<int64_t>(trials));
  std::vector<double> count(a.rows, 0.0);
  const SampledLayer& layer = bulk.layers[0];
  for (int64_t g = 0; g < bulk.count(); ++g)
    for (int64_t i = layer.col_offsets[g] + 1; i < layer.col_offsets[g + 1]; ++i) ++count[layer.vertices[i]];
  for (vid_t v = 0; v < a.rows; ++v) {
    if (v == root) continue;
    EXPECT_TRUE(testing::within_binomial(count[v], trials, p[v] / total))
        << "vertex " << v << ": " << count[v] << " draws, expected " << trials * p[v] / total;
  }
}

// One vertex drawn per minibatch, 20000 times: vertex v (not the root) is added
// with probability p(v) ∝ ‖Â[:,v]‖², the column's squared norm.
TEST(SaintNode, DrawsFollowTheSquaredColumnNormsOnKarate) {
  const Graph karate = read_matrix_market(testing::data_file("karate.mtx"));
  const Dense normalized = testing::to_dense(gcn_normalize(karate.adj));
  std::vector<double> p(karate.num_vertices(), 0.0);
  double total = 0;
  for (const auto& row : normalized)
    for (size_t v = 0; v < row.size(); ++v) total += row[v] * row[v], p[v] += row[v] * row[v];
  auto sampler = testing::saint("saint_node", karate.adj, 1, 1, 13);
  const double trials = 20000;
  const vid_t root = 5;
  const BulkSample bulk = testing::sample_repeated(*sampler, {root}, static_cast<int64_t>(trials));
  std::vector<double> count(karate.num_vertices(), 0.0);
  const SampledLayer& layer = bulk.layers[0];
  for (int64_t g = 0; g < bulk.count(); ++g)
    for (int64_t i = layer.col_offsets[g] + 1; i < layer.col_offsets[g + 1]; ++i) ++count[layer.vertices[i]];
  for (vid_t v = 0; v < karate.num_vertices(); ++v) {
    if (v == root) continue;
    EXPECT_TRUE(testing::within_binomial(count[v], trials, p[v] / total))
        << "vertex " << v << ": " << count[v] << " draws, expected " << trials * p[v] / total;
  }
}

// Walks of two steps from one root, 20000 times: a vertex is visited with
// probability P1(v) + P2(v) (a step never stays put without self-loops, so the
// two events are disjoint), P1 = one step of the uniform walk, P2 = two.
TEST(Saint, WalksFollowTheTransitionProbabilitiesOnKarate) {
  const Graph karate = read_matrix_market(testing::data_file("karate.mtx"));
  const CsrMatrix& a = karate.adj;
  auto sampler = testing::saint("saint", a, 2, 1, 11);
  const double trials = 20000;
  for (const vid_t root : {0, 16, 33}) {
    std::vector<double> one(a.rows, 0.0), two(a.rows, 0.0);
    for (int64_t e = a.rowptr[root]; e < a.rowptr[root + 1]; ++e) one[a.colidx[e]] = 1.0 / a.row_nnz(root);
    for (vid_t u = 0; u < a.rows; ++u)
      for (int64_t e = a.rowptr[u]; e < a.rowptr[u + 1]; ++e) two[a.colidx[e]] += one[u] / a.row_nnz(u);
    const BulkSample bulk = testing::sample_repeated(*sampler, {root}, static_cast<int64_t>(trials));
    std::vector<double> count(a.rows, 0.0);
    for (int64_t g = 0; g < bulk.count(); ++g) {
      const std::vector<vid_t>& v = bulk.layers[0].vertices;
      for (int64_t i = bulk.layers[0].col_offsets[g] + 1; i < bulk.layers[0].col_offsets[g + 1]; ++i) ++count[v[i]];
    }
    for (vid_t v = 0; v < a.rows; ++v) {
      if (v == root) continue;
      const double p = one[v] + two[v];
      EXPECT_TRUE(testing::within_binomial(count[v], trials, p))
          << "root " << root << ", vertex " << v << ": " << count[v] << " visits, expected " << trials * p;
    }
  }
}

// On a weighted graph a step follows the edge weights.
TEST(Saint, WeightedStepsFollowTheWeights) {
  CsrMatrix star(4, 4);  // 0 - 1, 2, 3 with weights 1, 2, 5
  star.rowptr = {0, 3, 4, 5, 6};
  star.colidx = {1, 2, 3, 0, 0, 0};
  star.values = {1, 2, 5, 1, 2, 5};
  auto sampler = testing::saint("saint", star, 1, 1, 5);
  const double trials = 20000;
  const BulkSample bulk = testing::sample_repeated(*sampler, {0}, static_cast<int64_t>(trials));
  std::vector<double> observed(3, 0.0);
  for (int64_t g = 0; g < bulk.count(); ++g) {
    ASSERT_EQ(bulk.layers[0].col_offsets[g + 1] - bulk.layers[0].col_offsets[g], 2);
    ++observed[bulk.layers[0].vertices[bulk.layers[0].col_offsets[g] + 1] - 1];
  }
  const std::vector<double> expected{trials / 8, trials * 2 / 8, trials * 5 / 8};
  EXPECT_LT(testing::chi_square(observed, expected), testing::chi_square_critical(2));
}

TEST(Saint, AWalkerWithoutNeighboursStaysAndItsSubgraphIsItself) {
  CsrMatrix graph(4, 4);  // a path 0 - 1 - 2 and vertex 3 alone
  graph.rowptr = {0, 1, 3, 4, 4};
  graph.colidx = {1, 0, 2, 1};
  graph.values.assign(4, 1.0f);
  auto sampler = testing::saint("saint", graph, 3, 2, 1);
  auto cpu = make_cpu_backend();
  const BulkSample bulk = sampler->sample({3, 0}, {0, 1, 2}, 0, 0, *cpu);
  const Minibatch alone = extract_minibatch(bulk, 0);
  EXPECT_EQ(alone.layers[1].vertices, std::vector<vid_t>{3});
  EXPECT_EQ(alone.layers[1].adj.values, std::vector<float>{1.0f});  // Â's self-loop, normalized
  const Minibatch path = extract_minibatch(bulk, 1);
  EXPECT_EQ(path.layers[0].vertices.front(), 0);
  // Vertex 0's one neighbour is always visited.
  EXPECT_GE(path.layers[0].vertices.size(), 2u);
}

TEST(Saint, BadOptionsAndInputAreClearErrors) {
  const CsrMatrix ring = testing::ring_graph(10);
  testing::expect_error([&] { testing::saint("saint", ring, 0, 2, 1); }, "walk length");
  testing::expect_error([&] { testing::saint("saint", ring, 2, 0, 1); }, "layers");
  testing::expect_error([&] { testing::saint("saint_node", ring, 0, 2, 1); }, "node budget");
  testing::expect_error([&] { testing::saint("saint_edge", ring, 0, 2, 1); }, "edge budget");
  testing::expect_error([&] { saint_edge_probabilities(CsrMatrix(3, 4)); }, "not square");
  testing::expect_error([&] { testing::saint("saint", CsrMatrix(3, 4), 2, 2, 1); }, "not square");
  auto sampler = testing::saint("saint", ring, 2, 2, 1);
  auto cpu = make_cpu_backend();
  testing::expect_error([&] { sampler->sample({1, 4, 1}, {0, 3}, 0, 0, *cpu); }, "root vertex 1 twice");
  testing::expect_error([&] { sampler->sample({1, 10}, {0, 2}, 0, 0, *cpu); }, "10");
}

}  // namespace
}  // namespace matsamp
