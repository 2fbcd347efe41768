#include <gtest/gtest.h>

#include <map>
#include <numeric>

#include "error_checks.h"
#include "graph/transform.h"
#include "io/graph_io.h"
#include "sampling/epoch.h"
#include "sampling/sampler.h"
#include "sampling_checks.h"
#include "statistics.h"
#include "test_data.h"

namespace matsamp {
namespace {

using testing::chi_square;
using testing::chi_square_critical;
using testing::data_file;
using testing::sample_repeated;

void expect_fanout_counts(const BulkSample& bulk, const CsrMatrix& adj, const std::vector<int64_t>& fanouts) {
  for (size_t l = 0; l < bulk.layers.size(); ++l) {
    const SampledLayer& layer = bulk.layers[l];
    const std::vector<vid_t>& rows = l == 0 ? bulk.seeds : bulk.layers[l - 1].vertices;
    for (int64_t r = 0; r < layer.adj.rows; ++r) {
      const int64_t want = std::min(fanouts[l], adj.row_nnz(rows[r]));
      ASSERT_EQ(layer.adj.row_nnz(r), want) << "layer " << l << " row " << r;
      for (int64_t e = layer.adj.rowptr[r]; e < layer.adj.rowptr[r + 1]; ++e)
        EXPECT_FLOAT_EQ(layer.adj.values[e], 1.0f / static_cast<float>(want));
    }
  }
}

void check_graph(const Graph& g, const std::vector<int64_t>& fanouts, int64_t batch) {
  auto sampler = testing::graphsage(g.adj, fanouts, 7);
  auto backend = make_cpu_backend();
  std::vector<vid_t> all(g.num_vertices());
  std::iota(all.begin(), all.end(), 0);
  auto bound = sampler->bind(*backend);
  EpochIterator epoch(*bound.sampler, bound.context, all, {batch, 4, int64_t{1} << 30, 7, 0});
  BulkSample bulk;
  int64_t seen = 0;
  while (epoch.next(&bulk)) {
    ASSERT_EQ(bulk.layers.size(), fanouts.size());
    testing::expect_well_formed(bulk, g.adj, /*frontier_first=*/true);
    expect_fanout_counts(bulk, g.adj, fanouts);
    seen += static_cast<int64_t>(bulk.seeds.size());
  }
  EXPECT_EQ(seen, g.num_vertices());
}

TEST(GraphSage, StructureOnKarate) { check_graph(read_matrix_market(data_file("karate.mtx")), {3, 2}, 5); }

TEST(GraphSage, StructureOnCora) { check_graph(read_npz_graph(data_file("cora.npz")), {15, 10, 5}, 256); }

TEST(GraphSage, StructureOnEmailEuCore) {
  Graph g = read_edge_list(data_file("email-Eu-core.txt"));
  check_graph(cleanup(std::move(g), {true, true, false}), {10, 5}, 100);
}

TEST(GraphSage, UniformSubsetsWithoutReplacement) {
  // A star: vertex 0 with 8 leaves. Every 3-subset of leaves is equally likely.
  std::vector<int64_t> rows, cols;
  for (int64_t leaf = 1; leaf <= 8; ++leaf) {
    rows.insert(rows.end(), {0, leaf});
    cols.insert(cols.end(), {leaf, 0});
  }
  const CsrMatrix star = csr_from_triples(9, 9, rows, cols, {});
  auto sampler = testing::graphsage(star, {3}, 11);
  const int64_t n = 28000;
  const BulkSample bulk = sample_repeated(*sampler, {0}, n);
  std::map<std::vector<vid_t>, double> subsets;
  for (int64_t g = 0; g < n; ++g) {
    const Minibatch mb = extract_minibatch(bulk, g);
    subsets[{mb.layers[0].vertices.begin() + 1, mb.layers[0].vertices.end()}] += 1;
  }
  ASSERT_EQ(subsets.size(), 56u);  // C(8, 3): every subset occurs
  std::vector<double> observed, expected;
  for (const auto& [subset, count] : subsets) {
    observed.push_back(count);
    expected.push_back(n / 56.0);
  }
  EXPECT_LT(chi_square(observed, expected), chi_square_critical(55));
}

TEST(GraphSage, UniformNeighboursOnEmailEuCore) {
  // Each neighbour of a vertex of degree d is picked with probability s/d.
  Graph g = cleanup(read_edge_list(data_file("email-Eu-core.txt")), {true, true, false});
  const int64_t s = 5, n = 4000;
  std::vector<vid_t> seeds;
  for (vid_t v = 0; v < g.num_vertices() && seeds.size() < 6; ++v)
    if (g.adj.row_nnz(v) > 2 * s && g.adj.row_nnz(v) < 40) seeds.push_back(v);
  auto sampler = testing::graphsage(g.adj, {s}, 3);
  const BulkSample bulk = sample_repeated(*sampler, seeds, n);
  const SampledLayer& layer = bulk.layers[0];
  for (size_t i = 0; i < seeds.size(); ++i) {
    const int64_t degree = g.adj.row_nnz(seeds[i]);
    std::map<vid_t, double> picked;
    for (int64_t mb = 0; mb < n; ++mb) {
      const int64_t r = layer.row_offsets[mb] + static_cast<int64_t>(i);
      for (int64_t e = layer.adj.rowptr[r]; e < layer.adj.rowptr[r + 1]; ++e)
        picked[layer.vertices[layer.adj.colidx[e]]] += 1;
    }
    ASSERT_EQ(static_cast<int64_t>(picked.size()), degree);
    for (const auto& [v, count] : picked)
      EXPECT_TRUE(testing::within_binomial(count, n, static_cast<double>(s) / degree))
          << "vertex " << seeds[i] << " neighbour " << v << " picked " << count << " times of " << n;
  }
}

TEST(GraphSage, RejectsZeroFanoutAndEmptyList) {
  const CsrMatrix a(3, 3);
  EXPECT_THROW(testing::graphsage(a, {15, 0}, 1), Error);
  EXPECT_THROW(testing::graphsage(a, {}, 1), Error);
  testing::expect_error([&] { testing::graphsage(a, {5, 0}, 1); }, "layer 1 has 0 samples");
}

TEST(GraphSage, RejectsSeedOutOfRange) {
  const CsrMatrix a(3, 3);
  auto sampler = testing::graphsage(a, {2}, 1);
  auto backend = make_cpu_backend();
  EXPECT_THROW(sampler->sample({5}, {0, 1}, 0, 0, *backend), Error);
}

}  // namespace
}  // namespace matsamp
