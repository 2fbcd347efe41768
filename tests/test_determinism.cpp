// The promise of DESIGN.md: the same seed gives the same minibatches whatever
// the bulk size k and the thread count.
#include <gtest/gtest.h>
#include <omp.h>

#include "io/graph_io.h"
#include "sampling/epoch.h"
#include "sampling/fingerprint.h"
#include "sampling/sampler.h"

#include "epoch_compare.h"
#include "test_data.h"

namespace matsamp {
namespace {

using testing::expect_identical;

std::vector<Minibatch> sample_epoch(const testing::TestSampler& sampler, int64_t n, int64_t batch, int64_t k,
                                    uint64_t seed = 42) {
  auto backend = make_cpu_backend();
  return testing::sample_epoch(sampler, *backend, n, batch, k, seed);
}

void check_sampler(const testing::TestSampler& sampler, int64_t n, int64_t batch) {
  omp_set_num_threads(2);
  const auto reference = sample_epoch(sampler, n, batch, 1);
  ASSERT_GT(reference.size(), 2u);
  expect_identical(reference, sample_epoch(sampler, n, batch, 0), "k = all");
  expect_identical(reference, sample_epoch(sampler, n, batch, 3), "k = 3");
  omp_set_num_threads(1);
  expect_identical(reference, sample_epoch(sampler, n, batch, 0), "1 thread");
  omp_set_num_threads(2);
  Fingerprint same, other;
  for (const Minibatch& mb : reference) same.add(mb);
  for (const Minibatch& mb : sample_epoch(sampler, n, batch, 0, 43)) other.add(mb);
  EXPECT_NE(same.value(), other.value()) << "a different seed must give different minibatches";
}

TEST(Determinism, GraphSageOnCora) {
  const Graph g = read_npz_graph(testing::data_file("cora.npz"));
  check_sampler(*testing::graphsage(g.adj, {15, 10, 5}, 42), g.num_vertices(), 512);
}

TEST(Determinism, LaborOnCora) {
  const Graph g = read_graph(testing::data_file("cora.npz"));
  check_sampler(*testing::labor(g.adj, {15, 10, 5}, 42), g.num_vertices(), 512);
}

TEST(Determinism, LadiesOnCora) {
  const Graph g = read_npz_graph(testing::data_file("cora.npz"));
  check_sampler(*testing::layer_wise("ladies", g.adj, {256, 256}, 42), g.num_vertices(), 512);
}

TEST(Determinism, FastGcnOnCora) {
  const Graph g = read_npz_graph(testing::data_file("cora.npz"));
  check_sampler(*testing::layer_wise("fastgcn", g.adj, {256, 256}, 42), g.num_vertices(), 512);
}

TEST(Determinism, SaintOnCora) {
  const Graph g = read_npz_graph(testing::data_file("cora.npz"));
  check_sampler(*testing::saint("saint", g.adj, 3, 2, 42), g.num_vertices(), 512);
  check_sampler(*testing::saint("saint_node", g.adj, 400, 2, 42), g.num_vertices(), 512);
  check_sampler(*testing::saint("saint_edge", g.adj, 300, 2, 42), g.num_vertices(), 512);
  check_sampler(*testing::saint("frontier", g.adj, 400, 2, 42), g.num_vertices(), 512);
  const auto normalized = SamplerParams().set("walk_length", 2).set("layers", 2).set("saint_norm", 1);
  check_sampler(*testing::make_test_sampler("saint", g.adj, normalized, 42), g.num_vertices(), 512);
}

TEST(Determinism, AllSamplersOnKarate) {
  const Graph g = read_matrix_market(testing::data_file("karate.mtx"));
  check_sampler(*testing::graphsage(g.adj, {3, 3}, 42), g.num_vertices(), 5);
  check_sampler(*testing::labor(g.adj, {3, 3}, 42), g.num_vertices(), 5);
  check_sampler(*testing::layer_wise("ladies", g.adj, {4, 4}, 42), g.num_vertices(), 5);
  check_sampler(*testing::layer_wise("fastgcn", g.adj, {4, 4}, 42), g.num_vertices(), 5);
  check_sampler(*testing::saint("saint", g.adj, 2, 2, 42), g.num_vertices(), 5);
  check_sampler(*testing::saint("saint_node", g.adj, 6, 2, 42), g.num_vertices(), 5);
  check_sampler(*testing::saint("saint_edge", g.adj, 4, 2, 42), g.num_vertices(), 5);
  check_sampler(*testing::saint("frontier", g.adj, 6, 2, 42), g.num_vertices(), 5);
}

}  // namespace
}  // namespace matsamp
