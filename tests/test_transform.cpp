// Whole-graph transforms: symmetrize, self loops, components, induced subgraphs,
// cleanup, and the GCN normalization against hand-computed and dense references.
#include <cmath>

#include <gtest/gtest.h>

#include "graph/transform.h"
#include "reference.h"

namespace matsamp {
namespace {

using testing::Dense;
using testing::expect_matches;
using testing::random_csr;
using testing::to_dense;

CsrMatrix from_triples(int64_t n, std::vector<std::tuple<int64_t, int64_t, float>> entries) {
  std::vector<int64_t> rows, cols;
  std::vector<float> values;
  for (auto [r, c, v] : entries) {
    rows.push_back(r);
    cols.push_back(c);
    values.push_back(v);
  }
  return csr_from_triples(n, n, rows, cols, values);
}

TEST(Transform, SymmetrizeTakesTheLargerOfBothDirections) {
  const CsrMatrix a = from_triples(3, {{0, 1, 2.0f}, {1, 0, 5.0f}, {1, 2, 1.0f}, {2, 2, 3.0f}});
  const CsrMatrix s = symmetrize(a);
  EXPECT_EQ(s.rowptr, (std::vector<int64_t>{0, 1, 3, 5}));
  EXPECT_EQ(s.colidx, (std::vector<col_t>{1, 0, 2, 1, 2}));
  EXPECT_EQ(s.values, (std::vector<float>{5.0f, 5.0f, 1.0f, 1.0f, 3.0f}));
}

TEST(Transform, SymmetrizeMatchesDenseMaximumOnARandomMatrix) {
  const CsrMatrix a = random_csr(60, 60, 0.08, 3);
  const Dense d = to_dense(a);
  Dense want = d;
  for (int64_t i = 0; i < 60; ++i)
    for (int64_t j = 0; j < 60; ++j) want[i][j] = std::max(d[i][j], d[j][i]);
  const CsrMatrix s = symmetrize(a);
  expect_matches(s, want);
  EXPECT_EQ(transpose(s), s);
  EXPECT_THROW(symmetrize(random_csr(3, 4, 0.5, 1)), Error);
}

TEST(Transform, DropSelfLoopsKeepsEverythingElse) {
  const CsrMatrix a = from_triples(3, {{0, 0, 1.0f}, {0, 2, 2.0f}, {1, 1, 3.0f}, {2, 0, 4.0f}, {2, 2, 5.0f}});
  const CsrMatrix b = drop_self_loops(a);
  EXPECT_EQ(b.rowptr, (std::vector<int64_t>{0, 1, 1, 2}));
  EXPECT_EQ(b.colidx, (std::vector<col_t>{2, 0}));
  EXPECT_EQ(b.values, (std::vector<float>{2.0f, 4.0f}));
}

TEST(Transform, LargestComponentIsWeaklyConnectedAndSorted) {
  // {0, 2, 4, 6} joined by one-way edges, {1, 3} both ways, 5 alone.
  const CsrMatrix a = from_triples(7, {{4, 2, 1}, {0, 2, 1}, {6, 4, 1}, {1, 3, 1}, {3, 1, 1}, {5, 5, 1}});
  EXPECT_EQ(largest_component(a), (std::vector<vid_t>{0, 2, 4, 6}));
  // A tie goes to the component holding the smallest id.
  const CsrMatrix tie = from_triples(4, {{3, 1, 1}, {2, 0, 1}});
  EXPECT_EQ(largest_component(tie), (std::vector<vid_t>{0, 2}));
  EXPECT_TRUE(largest_component(CsrMatrix(0, 0)).empty());
}

TEST(Transform, InducedSubgraphKeepsTheGivenOrder) {
  Graph g;
  g.adj = from_triples(5, {{0, 2, 1.0f}, {0, 4, 2.0f}, {2, 0, 3.0f}, {2, 4, 4.0f}, {4, 1, 5.0f}, {3, 0, 6.0f}});
  g.feature_dim = 2;
  g.features = {0, 0.5f, 1, 1.5f, 2, 2.5f, 3, 3.5f, 4, 4.5f};
  g.labels = {10, 11, 12, 13, 14};
  const Graph s = induced_subgraph(g, {4, 0, 2});  // new ids: 4 -> 0, 0 -> 1, 2 -> 2
  validate(s.adj, "subgraph");
  validate(s, "subgraph");
  EXPECT_EQ(s.adj.rowptr, (std::vector<int64_t>{0, 0, 2, 4}));
  EXPECT_EQ(s.adj.colidx, (std::vector<col_t>{0, 2, 0, 1}));
  EXPECT_EQ(s.adj.values, (std::vector<float>{2.0f, 1.0f, 4.0f, 3.0f}));
  EXPECT_EQ(s.features, (std::vector<float>{4, 4.5f, 0, 0.5f, 2, 2.5f}));
  EXPECT_EQ(s.labels, (std::vector<int64_t>{14, 10, 12}));
  EXPECT_THROW(induced_subgraph(g, {1, 1}), Error);
  EXPECT_THROW(induced_subgraph(g, {5}), Error);
}

TEST(Transform, CleanupSymmetrizesDropsLoopsAndKeepsTheLargestComponent) {
  Graph g;
  g.adj = from_triples(5, {{0, 1, 1}, {1, 1, 1}, {2, 1, 1}, {3, 4, 1}});
  g.labels = {0, 1, 2, 3, 4};
  const Graph c = cleanup(g, {true, true, true});
  validate(c.adj, "cleanup");
  EXPECT_EQ(c.num_vertices(), 3);
  EXPECT_EQ(c.adj.colidx, (std::vector<col_t>{1, 0, 2, 1}));
  EXPECT_EQ(c.labels, (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(cleanup(g, {}).adj, g.adj);
}

TEST(Transform, GcnNormalizeOfAPath) {
  // 0 - 1 - 2: degrees of A + I are 2, 3, 2.
  const CsrMatrix a = from_triples(3, {{0, 1, 1}, {1, 0, 1}, {1, 2, 1}, {2, 1, 1}});
  const CsrMatrix h = gcn_normalize(a);
  const double s6 = 1.0 / std::sqrt(6.0);
  expect_matches(h, Dense{{0.5, s6, 0}, {s6, 1.0 / 3, s6}, {0, s6, 0.5}});
}

TEST(Transform, GcnNormalizeAddsOneToAnExistingSelfLoop) {
  // A self loop of weight 1 on vertex 0 becomes 2 in A + I; degrees 3, 2.
  const CsrMatrix a = from_triples(2, {{0, 0, 1}, {0, 1, 1}, {1, 0, 1}});
  expect_matches(gcn_normalize(a), Dense{{2.0 / 3, 1 / std::sqrt(6.0)}, {1 / std::sqrt(6.0), 0.5}});
}

TEST(Transform, GcnNormalizeMatchesADenseReference) {
  const CsrMatrix a = symmetrize(random_csr(80, 80, 0.06, 7));  // weighted, some self loops
  Dense b = to_dense(a);
  std::vector<double> degree(80, 0.0);
  for (int i = 0; i < 80; ++i) {
    b[i][i] += 1.0;
    for (int j = 0; j < 80; ++j) degree[i] += b[i][j];
  }
  for (int i = 0; i < 80; ++i)
    for (int j = 0; j < 80; ++j) b[i][j] /= std::sqrt(degree[i] * degree[j]);
  expect_matches(gcn_normalize(a), b);
}

TEST(Transform, SquareValues) {
  const CsrMatrix a = from_triples(2, {{0, 1, 3.0f}, {1, 0, 0.5f}});
  const CsrMatrix s = square_values(a);
  EXPECT_EQ(s.colidx, a.colidx);
  EXPECT_EQ(s.values, (std::vector<float>{9.0f, 0.25f}));
}

}  // namespace
}  // namespace matsamp
