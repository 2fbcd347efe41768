// LABOR-0: labor_sample_rows (per-entry inclusion, randomness shared within a
// minibatch) and the sampler built on it.
#include <gtest/gtest.h>

#include <map>

#include "epoch_compare.h"
#include "error_checks.h"
#include "generate/generators.h"
#include "io/graph_io.h"
#include "reference.h"
#include "sampling/epoch.h"
#include "sampling/sampler.h"
#include "statistics.h"
#include "test_data.h"

namespace matsamp {
namespace {

// Keys for `rows` rows in blocks of the given sizes.
SampleKeys keys_for(std::vector<int64_t> block_sizes, uint64_t seed, uint32_t epoch = 0) {
  SampleKeys keys{seed, epoch, 1, 7, {0}};
  for (int64_t size : block_sizes) keys.row_offsets.push_back(keys.row_offsets.back() + size);
  return keys;
}

// Every kept entry is an entry of the row with P's value, and the draw is
// the threshold rule itself: kept exactly when u_g(t) < s·p.
TEST(LaborSampleRows, KeepsExactlyTheEntriesUnderTheSharedThreshold) {
  const CsrMatrix a = testing::random_csr(60, 80, 0.2, 3);
  const std::vector<vid_t> rows{5, 1, 5, 59, 30, 2, 7};
  const SampleKeys keys = keys_for({3, 4}, 11);
  const CsrMatrix got = labor_sample_rows(a, rows, 3, keys);
  ASSERT_EQ(got.rows, 7);
  for (int64_t i = 0; i < got.rows; ++i) {
    const int64_t g = i < 3 ? 0 : 1;
    const int64_t begin = a.rowptr[rows[i]], end = a.rowptr[rows[i] + 1];
    double sum = 0;
    for (int64_t e = begin; e < end; ++e) sum += a.values[e];
    std::vector<std::pair<col_t, float>> want;
    for (int64_t e = begin; e < end; ++e) {
      const float p = static_cast<float>(a.values[e] / sum);
      if (labor_uniform(keys, g, a.colidx[e]) < 3.0 * p) want.emplace_back(a.colidx[e], p);
    }
    std::vector<std::pair<col_t, float>> kept;
    for (int64_t e = got.rowptr[i]; e < got.rowptr[i + 1]; ++e) kept.emplace_back(got.colidx[e], got.values[e]);
    EXPECT_EQ(kept, want) << "row " << i;
  }
  EXPECT_TRUE(got == labor_sample_rows(a, rows, 3, keys));
}

// Rows 0 and 1 have the same ten neighbours: in one minibatch they keep the same
// ones; in two minibatches their numbers are independent.
TEST(LaborSampleRows, RowsOfAMinibatchShareTheirNeighboursDraws) {
  CsrMatrix a(12, 12);
  for (int64_t r = 0; r < 12; ++r) {
    for (col_t c = 2; c < 12 && r < 2; ++c) a.colidx.push_back(c);
    a.rowptr[r + 1] = static_cast<int64_t>(a.colidx.size());
  }
  auto kept = [](const CsrMatrix& s, int64_t row) {
    return std::vector<col_t>(s.colidx.begin() + s.rowptr[row], s.colidx.begin() + s.rowptr[row + 1]);
  };
  int differ = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const CsrMatrix together = labor_sample_rows(a, {0, 1}, 3, keys_for({2}, seed));
    EXPECT_EQ(kept(together, 0), kept(together, 1)) << "seed " << seed;
    const CsrMatrix apart = labor_sample_rows(a, {0, 1}, 3, keys_for({1, 1}, seed));
    differ += kept(apart, 0) != kept(apart, 1);
  }
  // Independent rows of ten entries kept with p = 0.3 agree with probability
  // (0.3² + 0.7²)^10 ≈ 0.004: nearly all 20 pairs differ.
  EXPECT_GE(differ, 17);
}

// Inclusion frequencies over many epochs: min(1, s·w/Σw) per entry, on karate with
// weights 1, 2, 3 (within 4.5 binomial standard deviations), and the mean row size.
TEST(LaborSampleRows, EntriesAreKeptWithProbabilityMinOneSP) {
  CsrMatrix a = read_graph(testing::data_file("karate.mtx")).adj;
  a.values.resize(a.nnz());
  for (int64_t e = 0; e < a.nnz(); ++e) a.values[e] = 1.0f + static_cast<float>(e % 3);
  std::vector<vid_t> rows(a.rows);
  for (int64_t v = 0; v < a.rows; ++v) rows[v] = v;
  const int64_t s = 3, trials = 4000;
  std::map<std::pair<vid_t, col_t>, int64_t> count;
  for (uint32_t epoch = 0; epoch < trials; ++epoch) {
    const CsrMatrix got = labor_sample_rows(a, rows, s, keys_for({a.rows}, 5, epoch));
    for (int64_t i = 0; i < got.rows; ++i)
      for (int64_t e = got.rowptr[i]; e < got.rowptr[i + 1]; ++e) ++count[{rows[i], got.colidx[e]}];
  }
  for (int64_t v = 0; v < a.rows; ++v) {
    double sum = 0;
    for (int64_t e = a.rowptr[v]; e < a.rowptr[v + 1]; ++e) sum += a.values[e];
    for (int64_t e = a.rowptr[v]; e < a.rowptr[v + 1]; ++e) {
      const double p = std::min(1.0, s * static_cast<double>(static_cast<float>(a.values[e] / sum)));
      const double seen = static_cast<double>(count[{v, a.colidx[e]}]);
      if (p >= 1) EXPECT_EQ(seen, trials) << v << " -> " << a.colidx[e];
      else
        EXPECT_TRUE(testing::within_binomial(seen, trials, p))
            << v << " -> " << a.colidx[e] << ": " << seen << " of " << trials << ", p = " << p;
    }
  }
}

// The keyed form (how an owner decides rows for another rank) is the same rule.
TEST(LaborSampleRows, KeyedFormEqualsTheBlockForm) {
  const CsrMatrix a = testing::random_csr(40, 40, 0.3, 8);
  const std::vector<vid_t> rows{3, 9, 3, 21, 0, 39};
  const SampleKeys keys = keys_for({2, 1, 3}, 4);
  std::vector<RandomKey> row_keys;
  for (int64_t i = 0; i < 6; ++i) row_keys.push_back(row_key(keys, i));
  EXPECT_TRUE(labor_sample_rows(a, rows, 4, row_keys) == labor_sample_rows(a, rows, 4, keys));
  row_keys.pop_back();
  testing::expect_error([&] { labor_sample_rows(a, rows, 4, row_keys); }, "6 rows selected but 5 keys given");
}

// Rows of equal values, known to be so (uniform_rows): the same entries and
// values as when each row's sum is read, in both forms.
TEST(LaborSampleRows, UniformRowsSkipTheirSumsWithTheSameResult) {
  for (uint64_t seed : {1, 2, 3}) {
    CsrMatrix a = testing::random_csr(50, 300, 0.3, seed);
    for (int64_t r = 0; r < a.rows; ++r)  // each row its own value, so the sums differ
      for (int64_t e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e) a.values[e] = 0.3f + 0.7f * static_cast<float>(r);
    ASSERT_TRUE(has_uniform_rows(a));
    const std::vector<vid_t> rows{0, 7, 7, 49, 13, 30, 2};
    const SampleKeys keys = keys_for({3, 4}, seed);
    for (int64_t s : {1, 4, 40}) {
      std::vector<vid_t> at, at_uniform;
      const CsrMatrix read = labor_sample_rows(a, rows, s, keys, &at);
      EXPECT_TRUE(labor_sample_rows(a, rows, s, keys, &at_uniform, true) == read) << "s = " << s;
      EXPECT_EQ(at_uniform, at);
      std::vector<RandomKey> row_keys;
      for (int64_t i = 0; i < static_cast<int64_t>(rows.size()); ++i) row_keys.push_back(row_key(keys, i));
      EXPECT_TRUE(labor_sample_rows(a, rows, s, row_keys, true) == read) << "s = " << s << ", keys given";
    }
  }
}

TEST(LaborSampleRows, RejectsBadArguments) {
  const CsrMatrix ring = testing::ring_graph(5);
  testing::expect_error([&] { labor_sample_rows(ring, {0, 1}, 0, keys_for({2}, 1)); }, "labor_sample_rows");
  testing::expect_error(
      [&] {
        labor_sample_rows(ring, {0, 5}, 2, keys_for({2}, 1));
      },
      "labor_sample_rows: row id 5 out of range");
  testing::expect_error(
      [&] {
        labor_sample_rows(ring, {0, 1}, 2, keys_for({3}, 1));
      },
      "labor_sample_rows: 2 rows selected but the keys name 3");
}

// The sampler: GraphSAGE's layer layout (frontier rows, frontier-first columns,
// mean weights), and on a skewed graph fewer input vertices than GraphSAGE at the
// same fanouts, with about as many neighbours per row in expectation.
TEST(LaborSampler, LayersAreMeanAggregationsWithFewerVerticesThanGraphSage) {
  RmatOptions rmat;
  rmat.scale = 12;
  const CsrMatrix adj = generate_rmat(rmat).adj;
  auto backend = make_cpu_backend();
  const std::vector<vid_t> train = training_vertices(adj.rows, 0.25, 3);
  const EpochOptions options{256, 0, int64_t{1} << 30, 3, 0};
  auto totals = [&](const testing::TestSampler& sampler) {
    std::pair<int64_t, int64_t> vertices_and_edges{0, 0};
    for (const Minibatch& mb : testing::collect_minibatches(sampler, *backend, train, options)) {
      const std::vector<vid_t>* rows = &mb.seeds;
      for (const MinibatchLayer& layer : mb.layers) {
        EXPECT_EQ(layer.adj.rows, static_cast<int64_t>(rows->size()));
        EXPECT_TRUE(std::equal(rows->begin(), rows->end(), layer.vertices.begin())) << "frontier first";
        for (int64_t r = 0; r < layer.adj.rows; ++r)
          for (int64_t e = layer.adj.rowptr[r]; e < layer.adj.rowptr[r + 1]; ++e)
            EXPECT_FLOAT_EQ(layer.adj.values[e], 1.0f / static_cast<float>(layer.adj.row_nnz(r)));
        vertices_and_edges.second += layer.adj.nnz();
        rows = &layer.vertices;
      }
      vertices_and_edges.first += static_cast<int64_t>(rows->size());
    }
    return vertices_and_edges;
  };
  const auto labor = totals(*testing::labor(adj, {10, 5}, 9));
  const auto sage = totals(*testing::graphsage(adj, {10, 5}, 9));
  EXPECT_LT(labor.first, 0.9 * sage.first) << "input vertices";
  EXPECT_GT(labor.second, 0.6 * sage.second) << "edges: s per row in expectation, min(s, degree) for GraphSAGE";
}

}  // namespace
}  // namespace matsamp
