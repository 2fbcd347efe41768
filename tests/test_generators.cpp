// Generators: determinism across seeds and thread counts, structure, and the
// statistics the planted partition promises.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include <gtest/gtest.h>

#include "generate/generators.h"
#include "statistics.h"

namespace matsamp {
namespace {

// Runs fn with `threads` OpenMP threads, restoring the previous setting.
template <class Fn>
auto with_threads(int threads, Fn&& fn) {
  const int before = omp_get_max_threads();
  omp_set_num_threads(threads);
  auto result = fn();
  omp_set_num_threads(before);
  return result;
}

bool same_graph(const Graph& x, const Graph& y) {
  return x.adj == y.adj && x.features == y.features && x.labels == y.labels;
}

// generate(seed) gives the same graph with 1 and 2 threads and again with the
// default threads, and another graph with seed + 1.
template <class Generate>
void expect_deterministic_across_threads_and_seeds(Generate&& generate, uint64_t seed) {
  const Graph one = with_threads(1, [&] { return generate(seed); });
  const Graph two = with_threads(2, [&] { return generate(seed); });
  EXPECT_TRUE(same_graph(one, two));
  EXPECT_TRUE(same_graph(one, generate(seed)));
  EXPECT_FALSE(same_graph(one, generate(seed + 1)));
}

// Each change of the valid options `base` makes generate throw.
template <class Options, class Generate>
void expect_each_rejected(const Options& base, Generate&& generate,
                          const std::vector<std::function<void(Options&)>>& changes) {
  int index = 0;
  for (const auto& change : changes) {
    Options o = base;
    change(o);
    EXPECT_THROW(generate(o), Error) << "change " << index++;
  }
}

void expect_simple_undirected(const CsrMatrix& a) {
  validate(a, "generated");  // sorted unique columns: no duplicate edges
  EXPECT_EQ(transpose(a), a);
  for (int64_t r = 0; r < a.rows; ++r)
    for (int64_t e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e) ASSERT_NE(a.colidx[e], r) << "self loop";
  for (float v : a.values) ASSERT_EQ(v, 1.0f);
}

RmatOptions small_rmat(uint64_t seed) {
  RmatOptions o;
  o.scale = 10;
  o.edge_factor = 16;
  o.seed = seed;
  return o;
}

TEST(Generator, RmatIsASimpleSkewedUndirectedGraph) {
  const Graph g = generate_rmat(small_rmat(1));
  ASSERT_EQ(g.num_vertices(), 1024);
  expect_simple_undirected(g.adj);
  // 16384 edges drawn, both directions stored; R-MAT repeats many of them and
  // some are self loops, but far from most.
  EXPECT_LE(g.num_edges(), 2 * 16384);
  EXPECT_GE(g.num_edges(), 2 * 16384 / 2);
  int64_t max_degree = 0, argmax = 0;
  for (int64_t v = 0; v < 1024; ++v)
    if (g.adj.row_nnz(v) > max_degree) max_degree = g.adj.row_nnz(v), argmax = v;
  EXPECT_GT(max_degree, 8 * g.num_edges() / 1024);  // heavy tail
  EXPECT_NE(argmax, 0);                             // ids are scrambled: the hub is not vertex 0
  EXPECT_FALSE(g.has_features());
}

TEST(Generator, RmatIsDeterministicAcrossThreadsAndSeeds) {
  expect_deterministic_across_threads_and_seeds([](uint64_t seed) { return generate_rmat(small_rmat(seed)); }, 5);
}

TEST(Generator, RmatRejectsBadOptions) {
  expect_each_rejected(small_rmat(1), generate_rmat,
                       {[](RmatOptions& o) { o.scale = 31; }, [](RmatOptions& o) { o.a = 0.9; }});
}

PlantedPartitionOptions planted(uint64_t seed, double homophily = 0.8) {
  PlantedPartitionOptions o;
  o.vertices = 2000;
  o.classes = 5;
  o.average_degree = 10;
  o.homophily = homophily;
  o.feature_dim = 16;
  o.feature_signal = 1.0;
  o.seed = seed;
  return o;
}

TEST(Generator, PlantedPartitionStructure) {
  for (double h : {0.8, 0.3}) {
    const Graph g = generate_planted_partition(planted(3, h));
    ASSERT_EQ(g.num_vertices(), 2000);
    expect_simple_undirected(g.adj);
    validate(g, "planted");
    for (int64_t v = 0; v < 2000; ++v) ASSERT_EQ(g.labels[v], v % 5);
    EXPECT_EQ(g.num_classes(), 5);

    // 10000 edges are drawn; the few repeats (about 1% inside classes) are dropped.
    const double undirected = g.num_edges() / 2.0;
    EXPECT_GT(undirected, 0.97 * 10000);
    EXPECT_LE(undirected, 10000);
    int64_t intra = 0;
    for (int64_t r = 0; r < 2000; ++r)
      for (int64_t e = g.adj.rowptr[r]; e < g.adj.rowptr[r + 1]; ++e) intra += g.labels[r] == g.labels[g.adj.colidx[e]];
    // Each edge is intra-class with probability h (binomial), 5 sigma.
    EXPECT_TRUE(testing::within_binomial(intra / 2.0, undirected, h, 5.0))
        << "intra fraction " << intra / 2.0 / undirected << " for homophily " << h;
  }
}

TEST(Generator, PlantedPartitionFeaturesCenterOnSeparatedClassMeans) {
  const Graph g = generate_planted_partition(planted(4));
  ASSERT_EQ(g.feature_dim, 16);
  const int64_t f = 16, per_class = 400;
  std::vector<std::vector<double>> mean(5, std::vector<double>(f, 0.0));
  double sum_sq = 0;
  for (int64_t v = 0; v < 2000; ++v)
    for (int64_t d = 0; d < f; ++d) mean[v % 5][d] += g.features[v * f + d] / per_class;
  for (int64_t v = 0; v < 2000; ++v)
    for (int64_t d = 0; d < f; ++d) sum_sq += std::pow(g.features[v * f + d] - mean[v % 5][d], 2);
  // Class means are +-signal per dimension: the estimate of each has sd 1/sqrt(400) = 0.05.
  for (int c = 0; c < 5; ++c)
    for (int64_t d = 0; d < f; ++d) EXPECT_NEAR(std::abs(mean[c][d]), 1.0, 5 * 0.05) << "class " << c << " dim " << d;
  // Distinct classes differ in some dimension (a shared sign pattern has chance 2^-16 per pair).
  for (int c = 0; c < 5; ++c)
    for (int k = c + 1; k < 5; ++k) {
      double distance = 0;
      for (int64_t d = 0; d < f; ++d) distance += std::pow(mean[c][d] - mean[k][d], 2);
      EXPECT_GT(std::sqrt(distance), 1.0) << "classes " << c << " and " << k;
    }
  // Noise is standard normal: pooled variance over 32000 values, sd about sqrt(2/32000).
  EXPECT_NEAR(sum_sq / (2000.0 * f), 1.0, 5 * std::sqrt(2.0 / 32000));
}

TEST(Generator, PlantedPartitionIsDeterministicAcrossThreadsAndSeeds) {
  expect_deterministic_across_threads_and_seeds([](uint64_t seed) { return generate_planted_partition(planted(seed)); },
                                                9);
}

TEST(Generator, PlantedPartitionRejectsBadOptions) {
  expect_each_rejected(planted(1), generate_planted_partition,
                       {[](PlantedPartitionOptions& o) { o.classes = 0; },
                        [](PlantedPartitionOptions& o) { o.homophily = 1.5; },
                        [](PlantedPartitionOptions& o) { o.average_degree = 5000; }});
}

}  // namespace
}  // namespace matsamp
