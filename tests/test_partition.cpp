// METIS partitioning and the part-by-part vertex order (graph/partition.h).
#include <gtest/gtest.h>

#include <algorithm>

#include "epoch_compare.h"
#include "error_checks.h"
#include "generate/generators.h"
#include "graph/partition.h"
#include "graph/transform.h"
#include "io/graph_io.h"
#include "reference.h"
#include "sampling/epoch.h"
#include "test_data.h"

namespace matsamp {
namespace {

double cut_fraction(const CsrMatrix& adj, const std::vector<int32_t>& part) {
  return static_cast<double>(cut_nonzeros(adj, part)) / static_cast<double>(adj.nnz());
}

// A planted partition: classes v % k, 95% of the edges inside a class, so its
// own ids have no locality at all.
Graph communities(int64_t n, int classes) {
  PlantedPartitionOptions options;
  options.vertices = n;
  options.classes = classes;
  options.homophily = 0.95;
  options.feature_dim = 3;
  return generate_planted_partition(options);
}

TEST(Partition, OrderByPartGroupsPartsAndKeepsIdOrderWithin) {
  EXPECT_EQ(order_by_part({1, 0, 1, 2, 0}, 3), (std::vector<vid_t>{1, 4, 0, 2, 3}));
  EXPECT_EQ(order_by_part({0, 0}, 2), (std::vector<vid_t>{0, 1}));  // an empty part
  testing::expect_error([] { order_by_part({0, 3}, 3); }, "vertex 1 has part 3 outside [0, 3)");
}

TEST(Partition, CutCountsNonzerosBetweenPartsAndBetweenBlocks) {
  // The path 0 - 1 - 2 - 3, both directions, and a self loop at 2 (never cut).
  CsrMatrix path(4, 4);
  path.rowptr = {0, 1, 3, 6, 7};
  path.colidx = {1, 0, 2, 1, 2, 3, 2};
  EXPECT_EQ(cut_nonzeros(path, std::vector<int32_t>{0, 0, 1, 1}), 2);
  EXPECT_EQ(cut_nonzeros(path, std::vector<int32_t>{0, 1, 0, 1}), 6);
  EXPECT_EQ(cut_nonzeros(path, 2), 2);  // blocks {0, 1} {2, 3}
  EXPECT_EQ(cut_nonzeros(path, 4), 6);
  EXPECT_EQ(cut_nonzeros(path, 1), 0);
}

// Renumbering by a permutation (induced_subgraph with every vertex) keeps every
// nonzero with its value, and features and labels follow their vertex.
TEST(Partition, RenumberingKeepsEveryEdgeFeatureAndLabel) {
  Graph g = communities(300, 3);
  g.adj.values.resize(g.adj.nnz());
  for (size_t e = 0; e < g.adj.values.size(); ++e) g.adj.values[e] = 1.0f + static_cast<float>(e % 7);
  const std::vector<vid_t> order = shuffle_vertices(testing::all_vertices(300), 4, 0);
  const Graph r = induced_subgraph(g, order);
  ASSERT_EQ(r.adj.nnz(), g.adj.nnz());
  const testing::Dense old_dense = testing::to_dense(g.adj), new_dense = testing::to_dense(r.adj);
  for (int64_t i = 0; i < 300; ++i) {
    for (int64_t j = 0; j < 300; ++j)
      ASSERT_EQ(new_dense[i][j], old_dense[order[i]][order[j]]) << "new (" << i << ", " << j << ")";
    EXPECT_EQ(r.labels[i], g.labels[order[i]]);
    for (int f = 0; f < g.feature_dim; ++f)
      EXPECT_EQ(r.features[i * g.feature_dim + f], g.features[order[i] * g.feature_dim + f]);
  }
}

// On planted communities, METIS cuts few edges where the ids' own blocks cut most,
// parts stay within METIS's 1% balance, and the renumbered graph's equal blocks
// keep the low cut (what the distributed layout and locality batches rely on).
TEST(Partition, MetisFindsCommunitiesAndRenumberingMakesBlocksLocal) {
  const Graph g = communities(4000, 4);
  if (!metis_available()) {
    testing::expect_error([&] { partition_kway(g.adj, 4, 1); }, "no METIS");
    return;
  }
  const std::vector<int32_t> part = partition_kway(g.adj, 4, 1);
  EXPECT_EQ(part, partition_kway(g.adj, 4, 1));  // deterministic for a seed
  const double blocks_before = static_cast<double>(cut_nonzeros(g.adj, 4)) / g.adj.nnz();
  EXPECT_GT(blocks_before, 0.6);               // random w.r.t. the classes: ~3/4
  EXPECT_LT(cut_fraction(g.adj, part), 0.12);  // ~ the 5% planted between classes
  std::vector<int64_t> sizes(4, 0);
  for (int32_t p : part) ++sizes[p];
  for (int64_t size : sizes) EXPECT_LE(size, 1.03 * 1000) << "part sizes unbalanced";

  const Graph r = induced_subgraph(g, order_by_part(part, 4));
  EXPECT_LT(static_cast<double>(cut_nonzeros(r.adj, 4)) / r.adj.nnz(), 0.15);
}

TEST(Partition, ImbalanceIsTheLargestPartOverTheMean) {
  CsrMatrix path(4, 4);  // 0 - 1 - 2 - 3
  path.rowptr = {0, 1, 3, 5, 6};
  path.colidx = {1, 0, 2, 1, 3, 2};
  path.values.assign(6, 1.0f);
  PartitionBalance sets;
  sets.sets = {{"train", {0, 1}}};
  const auto got = part_imbalance(path, {0, 0, 1, 1}, 2, sets);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0], (std::pair<std::string, double>{"vertices", 1.0}));
  EXPECT_EQ(got[1], (std::pair<std::string, double>{"edges", 1.0}));  // degrees 1 + 2 in each part
  EXPECT_EQ(got[2], (std::pair<std::string, double>{"train", 2.0}));  // both in part 0
}

// A training set that leans on a few communities (as a split by time leans on
// its years' topics) lands in a few parts of a minimum-cut partition; balanced as
// a constraint it spreads over all of them, each within 5%.
TEST(Partition, MultiConstraintBalancesASkewedTrainingSet) {
  if (!metis_available()) GTEST_SKIP() << "this build has no METIS (tested by the case above)";
  const Graph g = communities(4000, 8);
  PartitionBalance balance;
  std::vector<vid_t> train;
  for (vid_t v = 0; v < 4000; ++v)
    if (v % 8 < 2 || v % 40 == 5) train.push_back(v);  // classes 0 and 1, and a few others
  balance.sets = {{"train", train}};
  balance.edges = true;
  auto imbalance_of = [&](const std::vector<int32_t>& part, const std::string& name) {
    for (const auto& [constraint, ratio] : part_imbalance(g.adj, part, 4, balance))
      if (constraint == name) return ratio;
    return 0.0;
  };
  const std::vector<int32_t> plain = partition_kway(g.adj, 4, 1);
  EXPECT_GT(imbalance_of(plain, "train"), 1.5);
  const std::vector<int32_t> balanced = partition_kway(g.adj, 4, 1, balance);
  EXPECT_EQ(balanced, partition_kway(g.adj, 4, 1, balance));  // deterministic for a seed
  for (const char* constraint : {"vertices", "edges", "train"})
    EXPECT_LE(imbalance_of(balanced, constraint), 1.06) << constraint;
}

// Two levels: the machine of a vertex (its part / devices) is the machine-level
// METIS part of the whole graph, and each machine's vertices are cut into its
// devices' parts; every part is used and sizes stay within both tolerances.
TEST(Partition, TwoLevelsCutEachMachinesPartIntoItsDevices) {
  if (!metis_available()) GTEST_SKIP() << "this build has no METIS (tested by MetisFindsCommunities...)";
  const Graph g = communities(4000, 8);
  const std::vector<int32_t> machine = partition_kway(g.adj, 2, 1);
  const std::vector<int32_t> part = partition_two_level(g.adj, 2, 3, 1);
  EXPECT_EQ(part, partition_two_level(g.adj, 2, 3, 1));  // deterministic for a seed
  std::vector<int64_t> sizes(6, 0);
  for (size_t v = 0; v < part.size(); ++v) {
    ASSERT_TRUE(part[v] >= 0 && part[v] < 6) << v;
    EXPECT_EQ(part[v] / 3, machine[v]) << v;
    ++sizes[part[v]];
  }
  for (int64_t size : sizes) {
    EXPECT_GT(size, 0);
    EXPECT_LE(size, 1.03 * 1.05 * 4000 / 6);  // 1% at the machine level (one constraint), 5% within
  }
  CsrMatrix tiny(3, 3);
  tiny.rowptr = {0, 1, 2, 2};
  tiny.colidx = {1, 0};
  tiny.values = {1.0f, 1.0f};
  testing::expect_error([&] { partition_two_level(tiny, 2, 3, 1); }, "fewer than its 3 devices");
}

// A real mesh: a small cut into 8 parts (random parts would cut 7/8 of it).
TEST(Partition, MetisCutsARealMeshLittle) {
  const Graph mesh = read_graph(testing::data_file("jagmesh7.mtx"));
  if (!metis_available()) {
    testing::expect_error([&] { partition_kway(mesh.adj, 8, 3); }, "no METIS");
    return;
  }
  const std::vector<int32_t> part = partition_kway(mesh.adj, 8, 3);
  EXPECT_LT(cut_fraction(mesh.adj, part), 0.15);
  EXPECT_EQ(*std::max_element(part.begin(), part.end()), 7);
}

TEST(Partition, RejectsBadInput) {
  const CsrMatrix ring = testing::ring_graph(10);
  testing::expect_error([&] { partition_kway(ring, 0, 1); }, "0 parts for 10 vertices");
  testing::expect_error([&] { partition_kway(ring, 11, 1); }, "11 parts for 10 vertices");
  testing::expect_error([] { partition_kway(CsrMatrix(0, 0), 1, 1); }, "no vertices");
  testing::expect_error([] { partition_kway(CsrMatrix(3, 4), 1, 1); }, "must be square");
  EXPECT_EQ(partition_kway(ring, 1, 1), std::vector<int32_t>(10, 0));
}

}  // namespace
}  // namespace matsamp
