// GraphSAINT's aggregator normalization: the counts of subgraphs and entries,
// the scaled matrix, and that the scaled layers aggregate without bias: averaged
// over many epochs a root's batch-layer row sums to 1, as its row of Â does with
// rows normalized.
#include <gtest/gtest.h>

#include <fstream>

#include "epoch_compare.h"
#include "graph/transform.h"
#include "io/graph_io.h"
#include "io/msg_container.h"
#include "io_test_helpers.h"
#include "sampling/estimate_file.h"
#include "sampling/registry.h"
#include "sampling/saint_normalization.h"
#include "test_data.h"
#include "test_sampler.h"

namespace matsamp {
namespace {

TEST(SaintNormalization, CountsSubgraphsVerticesAndEntriesInside) {
  CsrMatrix a(3, 3);  // a path 0 - 1 - 2 with self-loops, as Â has them
  a.rowptr = {0, 2, 5, 7};
  a.colidx = {0, 1, 0, 1, 2, 1, 2};
  a.values = {0.5f, 0.4f, 0.4f, 0.3f, 0.4f, 0.4f, 0.5f};
  SubgraphCounts counts(a);
  counts.add(a, {{0, 1}, {1, 2}, {0, 1, 2}, {1}});
  EXPECT_EQ(counts.subgraphs, 4);
  EXPECT_EQ(counts.sampled_vertices, 8);
  EXPECT_EQ(counts.vertex, (std::vector<int64_t>{2, 4, 2}));
  EXPECT_EQ(counts.entry, (std::vector<int64_t>{2, 2, 2, 4, 2, 2, 2}));
  const CsrMatrix scaled = aggregator_normalized(a, counts);
  // Rows normalized (sums 0.9, 1.1, 0.9); entry (1, 0): C_1 / C_10 = 4 / 2, also
  // (1, 2); the diagonal and rows 0 and 2 are not scaled.
  const std::vector<float> want = {0.5f / 0.9f, 0.4f / 0.9f, 0.8f / 1.1f, 0.3f / 1.1f,
                                   0.8f / 1.1f, 0.4f / 0.9f, 0.5f / 0.9f};
  for (size_t e = 0; e < want.size(); ++e) EXPECT_NEAR(scaled.values[e], want[e], 1e-6) << e;
  SubgraphCounts none(a);
  const CsrMatrix rows_normalized = aggregator_normalized(a, none);  // never sampled: unscaled
  for (size_t e = 0; e < want.size(); ++e)
    EXPECT_NEAR(rows_normalized.values[e], a.values[e] / (e >= 2 && e < 5 ? 1.1f : 0.9f), 1e-6) << e;
}

// The share a root's batch-layer row gives its neighbours (all but the
// self-loop), averaged over many epochs, against the share in the full row of
// Â with rows normalized, 1 - M_vv. saint_node on karate, batches of 4, 16
// vertices drawn: u joins a root's subgraph with probability α ≈ 0.4; the
// pre-sampling (50·n = 1700 vertices, ≈ 95 subgraphs) counts C_v ≈ 50 and
// C_uv ≈ 20, so each 1/α is off by ≈ 25% and a row's share (≈ 5 entries) by
// ≈ 11%: over 34 roots the mean ratio is within ≈ 2% of 1 (bound 7%), each
// root's within 50%. Rows normalized over the sampled neighbours instead give
// them too small a share whenever one is missing (mean ratio below 0.9).
double mean_neighbour_share(const Graph& g, bool saint_norm, int epochs) {
  const CsrMatrix m = gcn_normalize(g.adj);
  const auto sampler = testing::make_test_sampler(
      "saint_node", g.adj, SamplerParams().set("budget", 16).set("layers", 1).set("saint_norm", saint_norm), 5);
  auto cpu = make_cpu_backend();
  std::vector<vid_t> all(g.num_vertices());
  for (int64_t v = 0; v < g.num_vertices(); ++v) all[v] = v;
  std::vector<double> share(g.num_vertices(), 0);
  for (int epoch = 0; epoch < epochs; ++epoch) {
    EpochOptions options;
    options.batch_size = 4;
    options.bulk_size = 9;
    options.epoch = static_cast<uint32_t>(epoch);
    for (const Minibatch& mb : testing::collect_minibatches(*sampler, *cpu, all, options)) {
      const MinibatchLayer& layer = mb.layers[0];
      for (size_t r = 0; r < mb.seeds.size(); ++r)
        for (int64_t e = layer.adj.rowptr[r]; e < layer.adj.rowptr[r + 1]; ++e)
          if (layer.vertices[layer.adj.colidx[e]] != mb.seeds[r]) share[mb.seeds[r]] += layer.adj.values[e];
    }
  }
  double mean_ratio = 0;
  for (vid_t v = 0; v < g.num_vertices(); ++v) {
    double row = 0, self = 0;
    for (int64_t e = m.rowptr[v]; e < m.rowptr[v + 1]; ++e) {
      row += m.values[e];
      if (m.colidx[e] == v) self = m.values[e];
    }
    const double ratio = share[v] / epochs / (1 - self / row);
    if (saint_norm) {
      EXPECT_GT(ratio, 0.5) << "vertex " << v;
      EXPECT_LT(ratio, 1.5) << "vertex " << v;
    }
    mean_ratio += ratio / static_cast<double>(g.num_vertices());
  }
  return mean_ratio;
}

TEST(SaintNormalization, ScaledLayersAggregateWithoutBias) {
  const Graph g = read_matrix_market(testing::data_file("karate.mtx"));
  EXPECT_NEAR(mean_neighbour_share(g, true, 600), 1.0, 0.07);
  EXPECT_LT(mean_neighbour_share(g, false, 600), 0.9);
}

// The estimate file, watched: how many loads found counts, how many saves.
class WatchedFile : public EstimateStore {
 public:
  explicit WatchedFile(const std::string& path) : file_(estimate_file(path)) {}
  bool load(const std::string& key, const CsrMatrix& normalized, SubgraphCounts& counts) const override {
    const bool found = file_->load(key, normalized, counts);
    found_ += found;
    return found;
  }
  void save(const std::string& key, const CsrMatrix& normalized, const SubgraphCounts& counts) const override {
    ++saves_;
    file_->save(key, normalized, counts);
  }
  mutable int found_ = 0, saves_ = 0;

 private:
  std::shared_ptr<const EstimateStore> file_;
};

// Two minibatches of GraphSAINT's random walks with saint_norm on `g`, its
// counts kept in `store` (when given) under `key`.
std::vector<Minibatch> normalized_walks(const Graph& g, std::shared_ptr<const EstimateStore> store,
                                        const std::string& key = "walks", int64_t walk_length = 2) {
  auto backend = make_cpu_backend();
  LocalGraph graph(*backend, g.adj);
  const auto sampler = make_sampler(
      "saint", graph, SamplerParams().set("walk_length", walk_length).set("layers", 2).set("saint_norm", 1));
  if (store) require_capability<EstimatingSampler>(*sampler).keep_estimates(std::move(store), key);
  std::vector<vid_t> seeds(20);
  for (vid_t v = 0; v < 20; ++v) seeds[v] = v;
  Context ctx{*backend, 3};
  const BulkSample bulk = to_host(*backend, sampler->sample(ctx, seeds, {0, 10, 20}, 0, 1));
  return {extract_minibatch(bulk, 0), extract_minibatch(bulk, 1)};
}

TEST(SaintCountsFile, KeptCountsAreReusedForTheSameMinibatches) {
  const Graph karate = read_matrix_market(testing::data_file("karate.mtx"));
  const std::string path = testing::scratch_dir("saint_counts") + "/counts.msg";
  const std::vector<Minibatch> want = normalized_walks(karate, nullptr);
  auto first = std::make_shared<WatchedFile>(path);
  testing::expect_identical(want, normalized_walks(karate, first), "estimated, then saved");
  EXPECT_EQ(first->found_, 0);
  EXPECT_EQ(first->saves_, 1);
  auto second = std::make_shared<WatchedFile>(path);
  testing::expect_identical(want, normalized_walks(karate, second), "read back");
  EXPECT_EQ(second->found_, 1);
  EXPECT_EQ(second->saves_, 0);
}

TEST(SaintCountsFile, CountsOfAnotherKeyGraphOrCorruptedAreRefused) {
  const Graph karate = read_matrix_market(testing::data_file("karate.mtx"));
  const std::string path = testing::scratch_dir("saint_counts_bad") + "/counts.msg";
  normalized_walks(karate, estimate_file(path));
  EXPECT_TRUE(
      testing::throws_error_with([&] { normalized_walks(karate, estimate_file(path), "walks of 3", 3); },
                                 {path, "holds the counts of 'walks batch=10 seed=3', not of 'walks of 3 batch"}));
  EXPECT_TRUE(testing::throws_error_with(
      [&] { normalized_walks(read_graph(testing::data_file("cora.npz")), estimate_file(path)); },
      {path, "holds the counts of another graph"}));
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(0, std::ios::end);
    f.seekp(f.tellg() / 2);  // inside the largest section, the entries' counts
    f.put('\x7f');
  }
  EXPECT_TRUE(testing::throws_error_with([&] { normalized_walks(karate, estimate_file(path)); }, {path, "checksum"}));
}

// A graph named as the counts file, the counts file read as a graph, and a
// counts file without one of its sections: each refused in one line naming it.
TEST(SaintCountsFile, OtherFilesAreRefusedNamingWhatTheyHold) {
  const Graph karate = read_matrix_market(testing::data_file("karate.mtx"));
  const std::string dir = testing::scratch_dir("saint_counts_other");
  const std::string graph = dir + "/karate.msg", counts = dir + "/counts.msg", forged = dir + "/forged.msg";
  write_binary_csr(graph, karate);
  EXPECT_TRUE(testing::throws_error_with([&] { normalized_walks(karate, estimate_file(graph)); },
                                         {graph, "a graph, not GraphSAINT's pre-sampled counts"}));
  normalized_walks(karate, estimate_file(counts));
  EXPECT_TRUE(testing::throws_error_with([&] { read_graph(counts); },
                                         {counts, "GraphSAINT's pre-sampled counts (--saint-counts), not a graph"}));
  const std::string key = "walks batch=10 seed=3";
  msg::write_file(forged, msg::kEstimateVersion, karate.num_vertices(), 0, 0, {{"key", key.data(), key.size()}});
  EXPECT_TRUE(testing::throws_error_with([&] { normalized_walks(karate, estimate_file(forged)); },
                                         {forged, "corrupt: no section graph"}));
}

TEST(SaintCountsFile, SamplersThatPreSampleNothingSaySo) {
  const Graph karate = read_matrix_market(testing::data_file("karate.mtx"));
  auto backend = make_cpu_backend();
  LocalGraph graph(*backend, karate.adj);
  const auto sage = make_sampler("graphsage", graph, SamplerParams().set("fanouts", std::vector<int64_t>{2}));
  EXPECT_TRUE(testing::throws_error_with(
      [&] { require_capability<EstimatingSampler>(*sage); },
      {"the graphsage sampler cannot keep pre-sampled estimates (saint, saint_node, saint_edge or frontier can)"}));
  const auto plain = make_sampler("saint", graph, SamplerParams().set("walk_length", 2).set("layers", 2));
  EXPECT_TRUE(testing::throws_error_with(
      [&] { require_capability<EstimatingSampler>(*plain).keep_estimates(estimate_file("unused.msg"), "k"); },
      {"pre-samples only with saint_norm"}));
}

}  // namespace
}  // namespace matsamp
