// GraphSAINT's frontier sampler: the Dashboard's pops follow the exact
// distribution of Algorithm 2 (enumerated for the first two steps) and the
// serial reference's later on; results depend only on the keys; the sampler
// builds the subgraph of the roots and the popped vertices.
#include <omp.h>

#include <map>
#include <set>

#include <gtest/gtest.h>

#include "error_checks.h"
#include "graph/transform.h"
#include "io/graph_io.h"
#include "ops/frontier.h"
#include "statistics.h"
#include "test_data.h"
#include "test_sampler.h"

namespace matsamp {
namespace {

int64_t degree(const CsrMatrix& a, vid_t v) { return a.rowptr[v + 1] - a.rowptr[v]; }

// P(the pop of step `step` is v) for a frontier, by enumerating Algorithm 2's choices.
void enumerate(const CsrMatrix& a, std::vector<vid_t> frontier, int step, double p, std::vector<double>& out) {
  int64_t total = 0;
  for (vid_t v : frontier) total += degree(a, v);
  for (size_t i = 0; i < frontier.size(); ++i) {
    const vid_t u = frontier[i];
    const double pop = p * static_cast<double>(degree(a, u)) / static_cast<double>(total);
    if (pop == 0) continue;
    if (step == 0) {
      out[u] += pop;
      continue;
    }
    for (int64_t e = a.rowptr[u]; e < a.rowptr[u + 1]; ++e) {
      std::vector<vid_t> next = frontier;
      next[i] = a.colidx[e];
      enumerate(a, next, step - 1, pop / static_cast<double>(degree(a, u)), out);
    }
  }
}

// Goodness of fit of the pops of `step` over `draws` minibatches.
void expect_follows(const std::vector<std::vector<vid_t>>& pops, int step, const std::vector<double>& p) {
  std::vector<double> observed(p.size(), 0), expected(p.size(), 0);
  for (const auto& mb : pops) observed[mb.at(step)] += 1;
  std::vector<double> o, e;
  for (size_t v = 0; v < p.size(); ++v) {
    if (p[v] == 0) {
      EXPECT_EQ(observed[v], 0) << "vertex " << v << " cannot be popped at step " << step;
      continue;
    }
    o.push_back(observed[v]);
    e.push_back(p[v] * static_cast<double>(pops.size()));
  }
  EXPECT_LT(testing::chi_square(o, e), testing::chi_square_critical(static_cast<double>(o.size() - 1)))
      << "step " << step;
}

TEST(Frontier, PopsFollowAlgorithm2OnKarate) {
  const CsrMatrix a = read_matrix_market(testing::data_file("karate.mtx")).adj;
  const std::vector<vid_t> roots = {0, 11, 33};  // degrees 16, 1, 17
  const int64_t k = 40000;
  std::vector<vid_t> all;
  Offsets offsets{0};
  for (int64_t g = 0; g < k; ++g) {
    all.insert(all.end(), roots.begin(), roots.end());
    offsets.push_back(static_cast<int64_t>(all.size()));
  }
  const FrontierKeys keys{7, 0, 0};
  for (double enlargement : {1.0, 2.0, 8.0}) {  // 1: the Dashboard compacts at every append
    const auto pops = frontier_sample(a, all, offsets, 6, keys, enlargement);
    for (int step = 0; step < 2; ++step) {
      std::vector<double> p(a.rows, 0.0);
      enumerate(a, roots, step, 1.0, p);
      expect_follows(pops, step, p);
    }
  }
  std::vector<std::vector<vid_t>> serial(k);
  for (int64_t g = 0; g < k; ++g) serial[g] = frontier_sample_serial(a, roots, 6, keys, g);
  for (int step = 0; step < 2; ++step) {
    std::vector<double> p(a.rows, 0.0);
    enumerate(a, roots, step, 1.0, p);
    expect_follows(serial, step, p);
  }
  // Later steps: the Dashboard and the serial reference agree (two-sample chi-square).
  const auto dashboard = frontier_sample(a, all, offsets, 6, FrontierKeys{8, 0, 0});
  double statistic = 0;
  int cells = 0;
  for (vid_t v = 0; v < a.rows; ++v) {
    double x = 0, y = 0;
    for (int64_t g = 0; g < k; ++g) x += dashboard[g][5] == v, y += serial[g][5] == v;
    if (x + y == 0) continue;
    statistic += (x - y) * (x - y) / (x + y);
    ++cells;
  }
  EXPECT_LT(statistic, testing::chi_square_critical(cells - 1));
}

TEST(Frontier, ResultsDependOnlyOnTheKeys) {
  const CsrMatrix a = symmetrize(read_graph(testing::data_file("cora.npz")).adj);  // no dead ends
  std::vector<vid_t> roots;
  Offsets offsets{0};
  for (int64_t g = 0; g < 12; ++g) {
    for (int64_t i = 0; i < 20; ++i) roots.push_back((g * 131 + i * 17) % a.rows);
    offsets.push_back(static_cast<int64_t>(roots.size()));
  }
  const FrontierKeys keys{3, 2, 100};
  const auto together = frontier_sample(a, roots, offsets, 300, keys);
  for (int64_t g = 0; g < 12; ++g) {  // one minibatch at a time, keyed by its global id
    const std::vector<vid_t> own(roots.begin() + offsets[g], roots.begin() + offsets[g + 1]);
    const auto alone = frontier_sample(a, own, {0, 20}, 300, FrontierKeys{3, 2, 100 + g});
    EXPECT_EQ(alone.at(0), together[g]) << g;
    EXPECT_EQ(together[g].size(), 300u);
    for (vid_t v : together[g]) EXPECT_TRUE(v >= 0 && v < a.rows);
  }
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  EXPECT_EQ(frontier_sample(a, roots, offsets, 300, keys), together);
  omp_set_num_threads(threads);
  EXPECT_NE(frontier_sample(a, roots, offsets, 300, FrontierKeys{4, 2, 100}), together);
}

TEST(Frontier, DeadEndsEmptyFrontiersAndBadArguments) {
  CsrMatrix a(4, 4);  // 0 -> 1 -> 2, 3 isolated: a walk ends in 2
  a.rowptr = {0, 1, 2, 2, 2};
  a.colidx = {1, 2};
  a.values = {1, 1};
  const auto pops = frontier_sample(a, {0, 3}, {0, 1, 2}, 10, FrontierKeys{1, 0, 0});
  EXPECT_EQ(pops[0], (std::vector<vid_t>{0, 1}));  // then the frontier holds 2 alone, which has no neighbour
  EXPECT_TRUE(pops[1].empty());
  EXPECT_EQ(frontier_sample_serial(a, {0}, 10, FrontierKeys{1, 0, 0}, 0), (std::vector<vid_t>{0, 1}));
  EXPECT_TRUE(frontier_sample(a, {0}, {0, 1}, 0, FrontierKeys{}).at(0).empty());
  testing::expect_error([&] { frontier_sample(a, {4}, {0, 1}, 1, FrontierKeys{}); }, "root 4 out of range");
  testing::expect_error([&] { frontier_sample(a, {0}, {0, 2}, 1, FrontierKeys{}); }, "root offsets");
  testing::expect_error([&] { frontier_sample(a, {0}, {0, 1}, -1, FrontierKeys{}); }, "steps must be non-negative");
}

// The backend op is the Dashboard walk, each minibatch's pops as one row.
TEST(Frontier, TheBackendOpIsTheDashboardWalk) {
  const Graph g = read_npz_graph(testing::data_file("cora.npz"));
  const std::unique_ptr<Backend> cpu = make_cpu_backend();
  const std::vector<vid_t> roots{5, 17, 300, 2000, 1, 2500, 999};
  const Offsets offsets{0, 3, 7};
  const FrontierKeys keys{4, 2, 6};
  const BlockedIds resident{cpu->upload_ids(roots), offsets};
  const std::vector<std::vector<vid_t>> popped = frontier_sample(g.adj, roots, offsets, 500, keys);
  const CsrMatrix got =
      cpu->to_host(cpu->frontier_walk(cpu->register_graph(g.adj), resident, 500, keys, kFrontierEnlargement));
  ASSERT_EQ(got.rows, 2);
  EXPECT_EQ(got.cols, g.num_vertices());
  for (int64_t row = 0; row < 2; ++row) {
    const std::set<vid_t> want(popped[row].begin(), popped[row].end());
    const std::vector<vid_t> columns(got.colidx.begin() + got.rowptr[row], got.colidx.begin() + got.rowptr[row + 1]);
    EXPECT_EQ(columns, std::vector<vid_t>(want.begin(), want.end())) << "row " << row;
  }
  EXPECT_EQ(got.values, std::vector<float>(got.nnz(), 1.0f));
  const std::unique_ptr<Backend> other = make_cpu_backend();
  testing::expect_error([&] { cpu->frontier_walk(other->register_graph(g.adj), resident, 5, keys, 2.0); },
                        "frontier_walk: an operand lives in the");
}

// popped_sets: each row's distinct vertices ascending, empty rows kept.
TEST(Frontier, PoppedSetsAreDistinctAndAscending) {
  const CsrMatrix m = popped_sets({{7, 2, 7, 0}, {}, {3, 3}}, 9);
  EXPECT_EQ(m.rows, 3);
  EXPECT_EQ(m.cols, 9);
  EXPECT_EQ(m.rowptr, (std::vector<int64_t>{0, 3, 3, 4}));
  EXPECT_EQ(m.colidx, (std::vector<col_t>{0, 2, 7, 3}));
  EXPECT_EQ(m.values, std::vector<float>(4, 1.0f));
}

TEST(Frontier, SamplerLayersAreTheRootsAndThePoppedVertices) {
  const Graph g = read_graph(testing::data_file("cora.npz"));
  const auto sampler = testing::saint("frontier", g.adj, 50, 2, 9);
  auto cpu = make_cpu_backend();
  EpochOptions options;
  options.batch_size = 64;
  options.bulk_size = 3;
  std::vector<vid_t> vertices(300);
  for (int64_t i = 0; i < 300; ++i) vertices[i] = i * 7;
  const auto minibatches = testing::collect_minibatches(*sampler, *cpu, vertices, options);
  ASSERT_EQ(minibatches.size(), 5u);
  for (const Minibatch& mb : minibatches) {
    const std::vector<vid_t> popped =
        frontier_sample(g.adj, mb.seeds, {0, static_cast<int64_t>(mb.seeds.size())}, 50, FrontierKeys{9, 0, mb.id})[0];
    std::set<vid_t> want(mb.seeds.begin(), mb.seeds.end());
    want.insert(popped.begin(), popped.end());
    ASSERT_EQ(mb.layers.size(), 2u);
    for (const MinibatchLayer& layer : mb.layers) {
      EXPECT_EQ(std::set<vid_t>(layer.vertices.begin(), layer.vertices.end()), want);
      EXPECT_TRUE(std::equal(mb.seeds.begin(), mb.seeds.end(), layer.vertices.begin()));  // roots first
    }
  }
}

}  // namespace
}  // namespace matsamp
