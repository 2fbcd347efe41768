// Link prediction's sampling: the mask op, edge-seeded minibatches, negatives
// and seed-edge exclusion (sampling/edge_seeds.h).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "edge_bulk_cases.h"
#include "epoch_compare.h"
#include "graph/graph.h"
#include "io/graph_io.h"
#include "ops/ops.h"
#include "reference.h"
#include "sampling/edge_seeds.h"
#include "sampling/epoch.h"
#include "sampling/registry.h"
#include "sampling/sampling_graph.h"
#include "sampling_checks.h"
#include "statistics.h"
#include "test_data.h"

namespace matsamp {
namespace {

using testing::bulk_of;
using testing::Dense;
using testing::EdgeList;
using testing::random_csr;
using testing::to_dense;
using testing::upper_edges;

TEST(MaskEntries, EqualsTheDenseMaskOnRandomMatrices) {
  for (uint64_t seed : {1, 2, 3}) {
    const CsrMatrix p = random_csr(40, 70, 0.2, seed, true), mask = random_csr(40, 70, 0.1, seed + 100);
    const Dense dp = to_dense(p), dm = to_dense(mask);
    Dense want = dp;
    for (size_t r = 0; r < want.size(); ++r)
      for (size_t c = 0; c < want[r].size(); ++c)
        if (dm[r][c] != 0) want[r][c] = 0;
    const CsrMatrix got = mask_entries(p, mask);
    validate(got, "masked");
    testing::expect_matches(got, want);
    int64_t kept = 0;  // every stored entry outside the mask stays, none inside it
    for (int64_t r = 0; r < p.rows; ++r)
      for (int64_t e = p.rowptr[r]; e < p.rowptr[r + 1]; ++e) kept += dm[r][p.colidx[e]] == 0;
    EXPECT_EQ(got.nnz(), kept);
  }
}

// The fused op against its definition, weighted and uniform rows, repeated rows.
TEST(SampleRowsMasked, EqualsSampleRowsOverTheMaskedRows) {
  for (bool uniform : {false, true}) {
    const CsrMatrix a = uniform ? testing::uniform_rows_matrix(50, 50, 4) : random_csr(50, 50, 0.3, 4);
    const std::vector<vid_t> rows{3, 7, 7, 0, 49, 12, 3, 30};
    const CsrMatrix mask = random_csr(static_cast<int64_t>(rows.size()), 50, 0.15, 9, true);
    const SampleKeys keys{5, 1, 0, 10, {0, 3, 8}};
    std::vector<vid_t> positions(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) positions[i] = static_cast<vid_t>(i);
    for (int64_t s : {1, 3, 40}) {
      const CsrMatrix want = sample_rows(mask_entries(select_rows(a, rows), mask), positions, s, keys, uniform);
      const CsrMatrix got = sample_rows_masked(a, rows, s, keys, uniform, mask);
      EXPECT_TRUE(got == want) << "s = " << s << (uniform ? " uniform" : " weighted");
    }
  }
}

TEST(MaskEntries, RefusesAMaskOfAnotherShape) {
  EXPECT_THROW(mask_entries(random_csr(4, 5, 0.5, 1), random_csr(4, 6, 0.5, 2)), Error);
}

TEST(ExcludedEdges, MasksEachRowWithItsOwnMinibatchsEdges) {
  ExcludedEdges excluded;
  excluded.add_minibatch({{3, 7}, {1, 2}, {3, 5}});
  excluded.add_minibatch({{3, 9}});
  // Rows: minibatch 0 holds vertices 3, 1, 4; minibatch 1 holds 3.
  const CsrMatrix m = excluded.mask({3, 1, 4, 3}, {0, 3, 4}, 10);
  EXPECT_EQ(m.rowptr, (Offsets{0, 2, 3, 3, 4}));
  EXPECT_EQ(m.colidx, (std::vector<col_t>{5, 7, 2, 9}));
  // Local columns: minibatch 0's columns are 3, 1, 4, 7 (positions 0-3), minibatch 1's 3, 9 (4-5).
  const CsrMatrix local = excluded.local_mask({3, 1, 4, 3}, {0, 3, 4}, 10, {3, 1, 4, 7, 3, 9}, {0, 4, 6});
  EXPECT_EQ(local.rowptr, (Offsets{0, 1, 1, 1, 2}));  // 3 -> 5 and 1 -> 2 miss the columns
  EXPECT_EQ(local.colidx, (std::vector<col_t>{3, 5}));
}

Graph cora() { return read_graph(testing::data_file("cora.npz")); }

TEST(EdgeBulk, SeedsAreTheDistinctEndpointsAndNegativesWithIndexMaps) {
  const Graph g = cora();
  const EdgeList e = upper_edges(g.adj);
  const NegativeSampler negatives(g.adj, {3, NegativeDistribution::uniform, false});
  const EdgeBulk b = bulk_of(e, 50, 0, 4, &negatives, {7, 2, true, true});
  ASSERT_EQ(b.count(), 4);
  ASSERT_EQ(b.negatives.size(), b.sources.size() * 3);
  for (int64_t g = 0; g < b.count(); ++g) {
    std::set<vid_t> want;
    for (int64_t i = b.edge_offsets[g]; i < b.edge_offsets[g + 1]; ++i) {
      want.insert({b.sources[i], b.destinations[i]});
      for (int k = 0; k < 3; ++k) want.insert(b.negatives[i * 3 + k]);
    }
    const std::vector<vid_t> seeds(b.seeds.begin() + b.seed_offsets[g], b.seeds.begin() + b.seed_offsets[g + 1]);
    EXPECT_EQ(seeds, std::vector<vid_t>(want.begin(), want.end()));
    for (int64_t i = b.edge_offsets[g]; i < b.edge_offsets[g + 1]; ++i) {
      EXPECT_EQ(seeds[b.source_index[i]], b.sources[i]);
      EXPECT_EQ(seeds[b.destination_index[i]], b.destinations[i]);
      for (int k = 0; k < 3; ++k) EXPECT_EQ(seeds[b.negative_index[i * 3 + k]], b.negatives[i * 3 + k]);
    }
    // Excluded: each positive and its reverse.
    EXPECT_EQ(b.excluded.offsets[g + 1] - b.excluded.offsets[g], 2 * (b.edge_offsets[g + 1] - b.edge_offsets[g]));
  }
}

TEST(EdgeBulk, NegativesDependOnTheMinibatchNotTheBulk) {
  const Graph g = cora();
  const EdgeList e = upper_edges(g.adj);
  const NegativeSampler negatives(g.adj, {2, NegativeDistribution::degree, true});
  const EdgeBulk all = bulk_of(e, 40, 0, 6, &negatives, {3, 1, true, false});
  for (int64_t g0 = 0; g0 < 6; ++g0) {
    const EdgeBulk one = bulk_of(e, 40, g0, g0 + 1, &negatives, {3, 1, true, false});
    EXPECT_EQ(one.negatives, std::vector<vid_t>(all.negatives.begin() + all.edge_offsets[g0] * 2,
                                                all.negatives.begin() + all.edge_offsets[g0 + 1] * 2));
  }
  const EdgeBulk other_epoch = bulk_of(e, 40, 0, 6, &negatives, {3, 2, true, false});
  EXPECT_NE(other_epoch.negatives, all.negatives);
}

TEST(NegativeSampler, RejectsKnownEdgesWhenAsked) {
  const Graph g = cora();
  const NegativeSampler negatives(g.adj, {1, NegativeDistribution::uniform, true});
  for (int64_t j = 0; j < 2000; ++j) {
    const vid_t u = j % g.adj.rows;
    EXPECT_FALSE(testing::has_entry(g.adj, u, negatives.draw(u, 5, 0, 0, j, 0)));
  }
}

// Negatives of a time: none later than it (redrawn; a vertex early enough is
// always found here), and without times the draws of before.
TEST(NegativeSampler, DrawsNoNegativeLaterThanItsEdge) {
  const Graph g = cora();
  const NegativeSampler negatives(g.adj, {1, NegativeDistribution::uniform, false});
  std::vector<int64_t> times(g.adj.rows);
  for (int64_t v = 0; v < g.adj.rows; ++v) times[v] = (v * 31) % 100;
  int64_t redrawn = 0;
  for (int64_t j = 0; j < 2000; ++j) {
    const vid_t u = j % g.adj.rows, untimed = negatives.draw(u, 5, 0, 0, j, 0);
    const vid_t timed = negatives.draw(u, 5, 0, 0, j, 0, &times, 20);
    EXPECT_LE(times[timed], 20);
    if (times[untimed] <= 20) {
      EXPECT_EQ(timed, untimed);  // the first draw stands when early enough
    }
    redrawn += timed != untimed;
  }
  EXPECT_GT(redrawn, 1000);  // about 79% of first draws are too late
}

// Draw frequencies against the distribution: chi-square on karate, both kinds.
TEST(NegativeSampler, DrawsFollowTheUniformAndDegreeDistributions) {
  const Graph g = read_graph(testing::data_file("karate.mtx"));
  for (NegativeDistribution kind : {NegativeDistribution::uniform, NegativeDistribution::degree}) {
    const NegativeSampler negatives(g.adj, {4, kind, false});
    const int64_t draws = 200000;
    std::vector<double> observed(g.adj.rows, 0), expected(g.adj.rows);
    for (int64_t j = 0; j < draws / 4; ++j)
      for (int64_t i = 0; i < 4; ++i) observed[negatives.draw(0, 11, 0, j / 100, j % 100, i)] += 1;
    double total = 0;
    for (int64_t v = 0; v < g.adj.rows; ++v) total += expected[v] = negatives.probability(v) * draws;
    EXPECT_NEAR(total, draws, 1e-6 * draws);
    EXPECT_LT(testing::chi_square(observed, expected), testing::chi_square_critical(g.adj.rows - 1))
        << (kind == NegativeDistribution::uniform ? "uniform" : "degree");
  }
  const NegativeSampler degree(g.adj, {1, NegativeDistribution::degree, false});
  EXPECT_NEAR(degree.probability(0) / degree.probability(11), std::pow(16.0 / 1.0, 0.75), 1e-9);  // degrees 16, 1
}

// Every sampler that takes edge seeds: no positive seed edge (nor its reverse)
// in any layer of its own minibatch, the layers otherwise well formed, and the
// same minibatches whatever the bulk size.
// The sampler of the test's parameter on Cora, with node_wise_sizes (fanouts)
// or layer_wise_sizes (vertices per layer).
class Exclusion : public ::testing::TestWithParam<std::string> {
 protected:
  std::unique_ptr<Sampler> make(std::vector<int64_t> node_wise_sizes, std::vector<int64_t> layer_wise_sizes) {
    const SamplerSpec& spec = find_sampler(GetParam());
    return make_sampler(
        GetParam(), graph_,
        params_from_sizes(spec, spec.sizes_option == "fanouts" ? node_wise_sizes : layer_wise_sizes, true));
  }
  const Graph g_ = cora();
  std::unique_ptr<Backend> backend_ = make_cpu_backend();
  LocalGraph graph_{*backend_, g_.adj};
};

std::vector<Minibatch> minibatches_of(const BulkSample& bulk) {
  std::vector<Minibatch> out;
  for (int64_t g = 0; g < bulk.count(); ++g) out.push_back(extract_minibatch(bulk, g));
  return out;
}

std::vector<Minibatch> sampled(const Sampler& sampler, Backend& backend, const EdgeBulk& b) {
  Context ctx{backend, 9};
  return minibatches_of(to_host(backend, sample_edge_bulk(sampler, ctx, b, 4)));
}

// Sampled entries that are a positive seed edge (either way) of their own
// minibatch; every entry must be an edge of the graph.
int64_t seed_edges_sampled(const EdgeBulk& b, const std::vector<Minibatch>& got, const CsrMatrix& adj,
                           int64_t* entries) {
  int64_t found = 0;
  for (int64_t m = 0; m < b.count(); ++m) {
    std::set<std::pair<vid_t, vid_t>> positives;
    for (int64_t i = b.edge_offsets[m]; i < b.edge_offsets[m + 1]; ++i) {
      positives.insert({b.sources[i], b.destinations[i]});
      positives.insert({b.destinations[i], b.sources[i]});
    }
    const std::vector<vid_t>* rows = &got[m].seeds;
    for (const MinibatchLayer& layer : got[m].layers) {
      for (int64_t r = 0; r < layer.adj.rows; ++r)
        for (int64_t x = layer.adj.rowptr[r]; x < layer.adj.rowptr[r + 1]; ++x) {
          const std::pair<vid_t, vid_t> edge{(*rows)[r], layer.vertices[layer.adj.colidx[x]]};
          // (LADIES and FastGCN sample Â = D^-1/2 (A + I) D^-1/2: self-loops too.)
          EXPECT_TRUE(edge.first == edge.second || testing::has_entry(adj, edge.first, edge.second));
          found += positives.count(edge);
          ++*entries;
        }
      rows = &layer.vertices;
    }
  }
  return found;
}

TEST_P(Exclusion, SeedEdgesNeverAppearInTheirOwnMinibatchsLayers) {
  const auto sampler = make({25, 25}, {512, 512});
  ASSERT_NE(find_capability<EdgeSeedSampler>(*sampler), nullptr);
  const EdgeList e = upper_edges(g_.adj);
  const NegativeSampler negatives(g_.adj, {1, NegativeDistribution::uniform, false});
  const EdgeBulk b = bulk_of(e, 64, 0, 8, &negatives, {1, 4, true, true});
  int64_t entries = 0;
  EXPECT_EQ(seed_edges_sampled(b, sampled(*sampler, *backend_, b), g_.adj, &entries), 0);
  EXPECT_GT(entries, 1000);
  // Without exclusion the same seeds do sample their own edges: the test can tell.
  const EdgeBulk unmasked = bulk_of(e, 64, 0, 8, &negatives, {1, 4, false, false});
  entries = 0;
  EXPECT_GT(seed_edges_sampled(unmasked, sampled(*sampler, *backend_, unmasked), g_.adj, &entries), 100);
}

TEST_P(Exclusion, MinibatchesDoNotDependOnTheBulkSize) {
  const auto sampler = make({5, 5}, {64, 64});
  const EdgeList e = upper_edges(g_.adj);
  const NegativeSampler negatives(g_.adj, {2, NegativeDistribution::degree, false});
  const std::vector<Minibatch> all = sampled(*sampler, *backend_, bulk_of(e, 32, 0, 5, &negatives, {1, 4, true, true}));
  ASSERT_EQ(all.size(), 5u);
  for (int64_t m = 0; m < 5; ++m)
    testing::expect_identical(sampled(*sampler, *backend_, bulk_of(e, 32, m, m + 1, &negatives, {1, 4, true, true})),
                              {all[m]}, "one minibatch per bulk");
}

// With nothing to exclude, the masked program is the plain one (its contract).
TEST_P(Exclusion, AnEmptyMaskSamplesAsWithoutExclusion) {
  const auto sampler = make({5, 5}, {64, 64});
  const std::vector<vid_t> seeds{1, 5, 9, 40, 41, 300, 301, 302};
  const Offsets offsets{0, 3, 8};
  ExcludedEdges nothing;
  nothing.add_minibatch({});
  nothing.add_minibatch({});
  Context ctx{*backend_, 3};
  testing::expect_identical(
      minibatches_of(to_host(*backend_, require_capability<EdgeSeedSampler>(*sampler).sample_excluding(
                                            ctx, seeds, offsets, 2, 1, nothing))),
      minibatches_of(to_host(*backend_, sampler->sample(ctx, seeds, offsets, 2, 1))), "empty mask");
}

INSTANTIATE_TEST_SUITE_P(Samplers, Exclusion, ::testing::Values("graphsage", "labor", "ladies", "fastgcn"),
                         [](const auto& info) { return info.param; });

TEST(Exclusion, SamplersWithoutItSayWhichDo) {
  const Graph g = cora();
  auto backend = make_cpu_backend();
  LocalGraph graph(*backend, g.adj);
  const auto saint = make_sampler("saint", graph);
  EXPECT_EQ(find_capability<EdgeSeedSampler>(*saint), nullptr);
  const EdgeBulk edges = make_edge_bulk({0}, {1}, {0, 1}, 0, nullptr, {});  // its seed edge excluded
  Context ctx{*backend, 1};
  try {
    sample_edge_bulk(*saint, ctx, edges, 0);
    FAIL() << "saint sampled with exclusion";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("graphsage, labor, dgs, ladies or fastgcn"), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace matsamp
