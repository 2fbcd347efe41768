// Guided sampling (DGS): guided_sample_rows against its definition, measured over
// many draws (each column kept with its chance π, the weighted row sums unbiased),
// and the dgs sampler built on it.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "error_checks.h"
#include "ops/column_importance.h"
#include "ops/ops.h"
#include "reference.h"
#include "sampling/capabilities.h"
#include "statistics.h"
#include "test_sampler.h"

namespace matsamp {
namespace {

SampleKeys keys_for(int64_t rows, uint64_t seed, uint32_t epoch) { return SampleKeys{seed, epoch, 0, 3, {0, rows}}; }

// Every other column weighs w, the rest 1.
ColumnImportance every_other_column(int64_t columns, float w) {
  std::vector<vid_t> ids;
  for (vid_t t = 1; t < columns; t += 2) ids.push_back(t);
  return ColumnImportance(ids, std::vector<float>(ids.size(), w));
}

// π_it of the definition (ops.h), for row r of a.
std::vector<double> chances(const CsrMatrix& a, vid_t r, int64_t s, const ColumnImportance& w) {
  double guided_sum = 0;
  for (int64_t e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e) guided_sum += a.values[e] * w.of(a.colidx[e]);
  std::vector<double> pi;
  for (int64_t e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e)
    pi.push_back(std::min(1.0, s * a.values[e] * w.of(a.colidx[e]) / guided_sum));
  return pi;
}

TEST(GuidedSampleRows, WithEveryWeightOneKeepsLaborsEntries) {
  const CsrMatrix a = testing::random_csr(50, 70, 0.25, 5);
  const std::vector<vid_t> rows{3, 9, 3, 49, 0, 21};
  const SampleKeys keys = keys_for(6, 17, 2);
  const CsrMatrix guided = guided_sample_rows(a, rows, 4, ColumnImportance(), keys);
  const CsrMatrix labor = labor_sample_rows(a, rows, 4, keys);
  ASSERT_EQ(guided.rowptr, labor.rowptr);
  EXPECT_EQ(guided.colidx, labor.colidx);
  for (int64_t i = 0; i < guided.rows; ++i)
    for (int64_t e = guided.rowptr[i]; e < guided.rowptr[i + 1]; ++e) {
      const double p = labor.values[e], pi = std::min(1.0, 4 * p);  // LABOR keeps P's value
      EXPECT_NEAR(guided.values[e], p / pi, 1e-6 * p / pi);
    }
}

// Over 4000 epochs: each entry kept as often as its chance says, and each row's
// weighted sum of x averages Σ_t p_it·x_t within 4.5 standard errors.
TEST(GuidedSampleRows, KeepsEachEntryWithItsChanceAndEstimatesTheRowWithoutBias) {
  const CsrMatrix a = testing::random_csr(40, 60, 0.3, 8);
  const ColumnImportance w = every_other_column(60, 0.2f);
  const std::vector<vid_t> rows{0, 7, 13, 22, 39};
  std::vector<double> x(60);
  for (size_t t = 0; t < x.size(); ++t) x[t] = std::sin(1.0 + static_cast<double>(t));
  const int64_t s = 3, draws = 4000;
  std::vector<std::map<col_t, double>> kept(rows.size());
  std::vector<double> sums(rows.size()), squares(rows.size());
  for (int64_t d = 0; d < draws; ++d) {
    const CsrMatrix got = guided_sample_rows(a, rows, s, w, keys_for(5, 23, static_cast<uint32_t>(d)));
    for (size_t i = 0; i < rows.size(); ++i) {
      double estimate = 0;
      for (int64_t e = got.rowptr[i]; e < got.rowptr[i + 1]; ++e) {
        kept[i][got.colidx[e]] += 1;
        estimate += got.values[e] * x[got.colidx[e]];
      }
      sums[i] += estimate;
      squares[i] += estimate * estimate;
    }
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    const vid_t r = rows[i];
    const std::vector<double> pi = chances(a, r, s, w);
    double row_sum = 0, exact = 0, expected_kept = 0;
    for (int64_t e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e) row_sum += a.values[e];
    for (int64_t e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e) {
      exact += a.values[e] / row_sum * x[a.colidx[e]];
      expected_kept += pi[e - a.rowptr[r]];
      EXPECT_TRUE(testing::within_binomial(kept[i][a.colidx[e]], draws, pi[e - a.rowptr[r]]))
          << "row " << r << " column " << a.colidx[e] << ": kept " << kept[i][a.colidx[e]] << " times, chance "
          << pi[e - a.rowptr[r]];
    }
    EXPECT_LE(expected_kept, s + 1e-6);
    const double mean = sums[i] / draws, variance = squares[i] / draws - mean * mean;
    EXPECT_NEAR(mean, exact, 4.5 * std::sqrt(variance / draws) + 1e-9) << "row " << r;
  }
}

// Odd columns weigh 0.1: they make a small share of the kept entries, the share
// their chances give (one minibatch per row: independent draws).
TEST(GuidedSampleRows, LowImportanceColumnsAreKeptLess) {
  const CsrMatrix a = testing::random_csr(400, 200, 0.2, 4);
  std::vector<vid_t> rows(400);
  SampleKeys keys{3, 0, 0, 0, {0}};
  for (size_t i = 0; i < rows.size(); ++i) {
    rows[i] = static_cast<vid_t>(i);
    keys.row_offsets.push_back(static_cast<int64_t>(i) + 1);
  }
  const auto odd_shares = [&](const ColumnImportance& w) {  // kept, and expected from the chances
    const CsrMatrix got = guided_sample_rows(a, rows, 5, w, keys);
    double odd = 0, expected_odd = 0, expected = 0;
    for (col_t t : got.colidx) odd += t % 2;
    for (vid_t r : rows) {
      const std::vector<double> pi = chances(a, r, 5, w);
      for (int64_t e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e) {
        expected += pi[e - a.rowptr[r]];
        expected_odd += a.colidx[e] % 2 ? pi[e - a.rowptr[r]] : 0;
      }
    }
    return std::make_pair(odd / static_cast<double>(got.nnz()), expected_odd / expected);
  };
  const auto [uniform, uniform_expected] = odd_shares(ColumnImportance());
  EXPECT_NEAR(uniform, uniform_expected, 0.03);
  EXPECT_NEAR(uniform_expected, 0.5, 0.05);
  const auto [guided, guided_expected] = odd_shares(every_other_column(200, 0.1f));
  EXPECT_NEAR(guided, guided_expected, 0.03);
  EXPECT_LT(guided_expected, 0.2);  // an odd column's chance is about 1/10 of an even one's
}

TEST(ColumnImportance, ListedOwnAndOtherColumns) {
  const ColumnImportance w({5, 9}, {0.5f, 0.25f}, 2, 6, 0.125f);
  EXPECT_EQ(w.of(5), 0.5f);    // listed, though in the own range
  EXPECT_EQ(w.of(9), 0.25f);   // listed
  EXPECT_EQ(w.of(2), 1.0f);    // own
  EXPECT_EQ(w.of(6), 0.125f);  // neither
  EXPECT_EQ(w.of(0), 0.125f);
  EXPECT_EQ(ColumnImportance({5}, {0.5f}).of(0), 1.0f);  // without a range every unlisted column weighs 1
}

TEST(GuidedSampleRows, BadInputIsAClearError) {
  testing::expect_error([] { ColumnImportance({3, 1}, {0.5f, 0.5f}); }, "not ascending");
  testing::expect_error([] { ColumnImportance({1}, {0.0f}); }, "outside (0, 1]");
  testing::expect_error([] { ColumnImportance({1, 2}, {0.5f}); }, "2 columns but 1 weights");
  testing::expect_error([] { ColumnImportance({}, {}, 4, 2, 0.5f); }, "reversed");
  testing::expect_error([] { ColumnImportance({}, {}, 0, 2, 1.5f); }, "other columns is outside (0, 1]");
  const CsrMatrix a = testing::random_csr(5, 5, 0.5, 1);
  testing::expect_error([&] { guided_sample_rows(a, {7}, 2, ColumnImportance(), keys_for(1, 1, 0)); }, "7");
  testing::expect_error([&] { guided_sample_rows(a, {1}, 0, ColumnImportance(), keys_for(1, 1, 0)); }, "positive");
}

// The dgs sampler: layers carry the draw's weights (not the mean), follow a new
// importance from the next call, and other samplers refuse one.
TEST(DgsSampler, LayersCarryTheGuidedWeightsAndFollowANewImportance) {
  const CsrMatrix a = testing::random_csr(300, 300, 0.05, 6);
  const auto dgs = testing::make_test_sampler("dgs", a, SamplerParams().set("fanouts", std::vector<int64_t>{4}), 5);
  const auto labor = testing::labor(a, {4}, 5);
  const std::vector<vid_t> seeds{1, 2, 3, 50, 60, 70, 80};
  const Offsets offsets{0, 3, 7};
  const BulkSample uniform = dgs->sample(seeds, offsets, 0, 1);
  const BulkSample labor_bulk = labor->sample(seeds, offsets, 0, 1);
  ASSERT_EQ(uniform.layers.size(), 1u);
  EXPECT_EQ(uniform.layers[0].vertices, labor_bulk.layers[0].vertices) << "weights 1: LABOR-0's draws";
  EXPECT_EQ(uniform.layers[0].adj.colidx, labor_bulk.layers[0].adj.colidx);
  const CsrMatrix& adj = uniform.layers[0].adj;
  bool some_differ = false;  // LABOR's mean weights against 1 / (degree · chance)
  for (size_t e = 0; e < adj.values.size(); ++e) some_differ |= adj.values[e] != labor_bulk.layers[0].adj.values[e];
  EXPECT_TRUE(some_differ);

  const auto& dgs_guided = require_capability<ImportanceGuidedSampler>(dgs->on_cpu());
  dgs_guided.set_column_importance(std::make_shared<const ColumnImportance>(every_other_column(300, 0.05f)));
  const BulkSample guided = dgs->sample(seeds, offsets, 0, 1);
  EXPECT_NE(guided.layers[0].adj.colidx, adj.colidx);
  testing::expect_error([&] { require_capability<ImportanceGuidedSampler>(labor->on_cpu()); },
                        "the labor sampler cannot draw by a column importance (dgs can)");
  testing::expect_error([&] { dgs_guided.set_column_importance(nullptr); }, "dgs: no column importance given");
}

}  // namespace
}  // namespace matsamp
