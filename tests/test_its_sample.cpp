#include <gtest/gtest.h>
#include <omp.h>

#include <map>
#include <set>

#include "error_checks.h"
#include "ops/ops.h"
#include "reference.h"
#include "statistics.h"

namespace matsamp {
namespace {

using testing::chi_square;
using testing::chi_square_critical;
using testing::random_csr;
using testing::repeated_row;
using testing::uniform_rows_matrix;

SampleKeys keys_for(int64_t rows, uint64_t seed = 5) {
  SampleKeys keys{seed, 0, 0, 0, {0, rows}};
  return keys;
}

TEST(ItsSample, ExactCountsDistinctEntriesOfTheRow) {
  const CsrMatrix p = random_csr(300, 80, 0.1, 11, /*zero_rows=*/true);
  for (int64_t s : {1, 3, 8, 200}) {
    const CsrMatrix got = its_sample(p, s, keys_for(p.rows));
    validate(got, "sample");  // sorted, unique, in range
    for (int64_t r = 0; r < p.rows; ++r) {
      std::map<col_t, float> row;
      int64_t positive = 0;
      for (int64_t e = p.rowptr[r]; e < p.rowptr[r + 1]; ++e) {
        row[p.colidx[e]] = p.values[e];
        positive += p.values[e] > 0;
      }
      ASSERT_EQ(got.row_nnz(r), std::min(s, positive)) << "row " << r << " s " << s;
      for (int64_t e = got.rowptr[r]; e < got.rowptr[r + 1]; ++e) {
        ASSERT_TRUE(row.count(got.colidx[e])) << "sampled a column not in the row";
        EXPECT_GT(row[got.colidx[e]], 0.0f);
        EXPECT_EQ(got.values[e], row[got.colidx[e]]);
      }
    }
  }
}

TEST(ItsSample, EmptyMatrixAndZeroFanout) {
  EXPECT_EQ(its_sample(CsrMatrix(0, 4), 3, keys_for(0)).rows, 0);
  const CsrMatrix p = random_csr(4, 4, 0.5, 1);
  testing::expect_error([&] { its_sample(p, 0, keys_for(4)); }, "its_sample: sample count must be positive, got 0");
  testing::expect_error([&] { its_sample(p, 2, keys_for(5)); },
                        "its_sample: P is " + p.shape() + " but the keys name 5 rows");
  CsrMatrix pattern = p;
  pattern.values.clear();
  testing::expect_error([&] { its_sample(pattern, 2, keys_for(4)); },
                        "its_sample: P (" + pattern.shape() + ") has no values; normalize it first");
}

TEST(ItsSample, ProportionalToValuesChiSquare) {
  const std::vector<float> w{1, 2, 3, 4, 10};
  const int64_t n = 50000;
  const CsrMatrix got = its_sample(repeated_row(w, n), 1, keys_for(n));
  std::vector<double> observed(w.size(), 0), expected;
  for (col_t c : got.colidx) observed[c] += 1;
  for (float x : w) expected.push_back(n * x / 20.0);
  EXPECT_LT(chi_square(observed, expected), chi_square_critical(w.size() - 1));
}

TEST(ItsSample, DistinctPairsFollowSuccessiveSampling) {
  // Without replacement, {i, j} is drawn with w_i/W·w_j/(W-w_i) + w_j/W·w_i/(W-w_j).
  const std::vector<float> w{1, 2, 3, 6};
  const double total = 12;
  const int64_t n = 60000;
  const CsrMatrix got = its_sample(repeated_row(w, n), 2, keys_for(n, 9));
  std::map<std::pair<int, int>, double> observed;
  for (int64_t r = 0; r < n; ++r) observed[{got.colidx[got.rowptr[r]], got.colidx[got.rowptr[r] + 1]}] += 1;
  std::vector<double> obs, expected;
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) {
      obs.push_back(observed[{i, j}]);
      expected.push_back(n * (w[i] / total * w[j] / (total - w[i]) + w[j] / total * w[i] / (total - w[j])));
    }
  EXPECT_LT(chi_square(obs, expected), chi_square_critical(obs.size() - 1));
}

TEST(ItsSample, SkewedRowsFinishWithExactCounts) {
  // One entry holds almost all the mass: redraws alone would take very long.
  std::vector<float> w(600, 1e-6f);
  w[17] = 1.0f;
  const CsrMatrix got = its_sample(repeated_row(w, 4), 500, keys_for(4));
  for (int64_t r = 0; r < 4; ++r) EXPECT_EQ(got.row_nnz(r), 500);
}

TEST(ItsSample, SharedRowIsBroadcastWithIndependentDraws) {
  const std::vector<float> w(50, 1.0f);
  const CsrMatrix got = its_sample(repeated_row(w, 1), 5, keys_for(3));
  ASSERT_EQ(got.rows, 3);
  EXPECT_EQ(got.nnz(), 15);
  EXPECT_NE(std::vector<col_t>(got.colidx.begin(), got.colidx.begin() + 5),
            std::vector<col_t>(got.colidx.begin() + 5, got.colidx.begin() + 10));
}

// A row shared by all keyed rows is sampled from one read-only prefix; each
// keyed row must still pick what sampling that row alone under its key picks
// (FastGCN's bulk against its per-batch runs), for skewed rows that force
// rebuilds, zeros, and rows with no more positive entries than s.
TEST(ItsSample, SharedRowPicksWhatEachRowAlonePicks) {
  std::vector<float> skewed(300, 0.01f);
  skewed[7] = 50.0f;
  skewed[123] = 20.0f;
  for (int j = 0; j < 300; j += 3) skewed[j] = 0.0f;
  std::vector<float> few(40, 0.0f);
  few[3] = few[30] = 1.0f;
  for (const std::vector<float>& values : {skewed, few, std::vector<float>(64, 2.0f)})
    for (int64_t s : {1, 5, 60}) {
      const CsrMatrix p = repeated_row(values, 1);
      const int64_t rows = 12;
      SampleKeys keys{9, 2, 1, 40, {}};
      for (int64_t r = 0; r <= rows; ++r) keys.row_offsets.push_back(r);  // one row per minibatch
      const CsrMatrix together = its_sample(p, s, keys);
      ASSERT_EQ(together.rows, rows);
      for (int64_t r = 0; r < rows; ++r) {
        const CsrMatrix alone = its_sample(p, s, {9, 2, 1, 40 + r, {0, 1}});
        const std::vector<col_t> want(alone.colidx.begin(), alone.colidx.end());
        const std::vector<col_t> got(together.colidx.begin() + together.rowptr[r],
                                     together.colidx.begin() + together.rowptr[r + 1]);
        EXPECT_EQ(got, want) << "row " << r << " s " << s << " of " << values.size();
        EXPECT_EQ(std::vector<float>(together.values.begin() + together.rowptr[r],
                                     together.values.begin() + together.rowptr[r + 1]),
                  alone.values);
      }
    }
}

TEST(ItsSample, KeyedByMinibatchAndRowNotByPosition) {
  // The rows of minibatch 7 sampled alone equal the same rows sampled in a stack.
  const CsrMatrix p = random_csr(30, 60, 0.3, 4);
  SampleKeys stacked{3, 1, 2, 5, {0, 10, 18, 30}};
  const CsrMatrix all = its_sample(p, 4, stacked);
  CsrMatrix middle(8, p.cols);
  for (int64_t r = 10; r < 18; ++r) {
    for (int64_t e = p.rowptr[r]; e < p.rowptr[r + 1]; ++e) {
      middle.colidx.push_back(p.colidx[e]);
      middle.values.push_back(p.values[e]);
    }
    middle.rowptr[r - 9] = middle.nnz();
  }
  const CsrMatrix alone = its_sample(middle, 4, {3, 1, 2, 6, {0, 8}});
  EXPECT_EQ(std::vector<col_t>(all.colidx.begin() + all.rowptr[10], all.colidx.begin() + all.rowptr[18]), alone.colidx);
  omp_set_num_threads(1);
  const CsrMatrix one_thread = its_sample(p, 4, stacked);
  omp_set_num_threads(2);
  EXPECT_EQ(one_thread, all);
}

TEST(ItsSample, SeedChangesTheSample) {
  const CsrMatrix p = random_csr(50, 100, 0.3, 4);
  EXPECT_NE(its_sample(p, 3, keys_for(50, 1)).colidx, its_sample(p, 3, keys_for(50, 2)).colidx);
}

void expect_fast_path_exact(const CsrMatrix& a, bool uniform) {
  ASSERT_EQ(has_uniform_rows(a), uniform);
  const std::vector<vid_t> rows{3, 0, 7, 7, 12, 1, 30, 29, 5, 18, 22, 9};
  const SampleKeys keys{77, 2, 1, 40, {0, 5, 5, 12}};
  for (int64_t s : {1, 2, 9, 15, 30, 100}) {
    CsrMatrix p = select_rows(a, rows);
    normalize_rows(p);
    const CsrMatrix want = its_sample(p, s, keys);
    EXPECT_TRUE(sample_rows(a, rows, s, keys, uniform) == want) << "s = " << s;
    // From the draw tables kept for a weighted graph: the same picks and values.
    const DrawTables tables = draw_tables(a);
    std::vector<vid_t> at, at_from_tables;
    const CsrMatrix drawn = sample_rows(a, rows, s, keys, false, &at);
    EXPECT_TRUE(sample_rows(a, rows, s, keys, false, &at_from_tables, &tables) == drawn) << "s = " << s;
    EXPECT_EQ(at_from_tables, at);
    // With each row's key given, in another order: the rows sampled for another process.
    std::vector<vid_t> reversed(rows.rbegin(), rows.rend());
    std::vector<RandomKey> row_keys;
    for (int64_t i = static_cast<int64_t>(rows.size()) - 1; i >= 0; --i) row_keys.push_back(row_key(keys, i));
    const CsrMatrix by_key = sample_rows(a, reversed, s, row_keys, uniform);
    std::vector<vid_t> back(rows.size());
    for (size_t i = 0; i < back.size(); ++i) back[i] = static_cast<vid_t>(back.size() - 1 - i);
    EXPECT_TRUE(select_rows(by_key, back) == want) << "s = " << s << ", keys given";
    if (uniform) {
      EXPECT_TRUE(sample_rows(a, rows, s, keys, false) == want) << "s = " << s;
    }
  }
}

TEST(SampleRows, EqualsComposedOpsOnWeightedRows) {
  expect_fast_path_exact(testing::random_csr(31, 40, 0.6, 3, /*zero_rows=*/true), false);
}

TEST(SampleRows, UniformFastPathEqualsComposedOps) {
  for (uint64_t seed = 1; seed <= 5; ++seed) expect_fast_path_exact(uniform_rows_matrix(31, 40, seed), true);
  // Rows one longer than s redraw often: the rebuild must be mirrored exactly.
  CsrMatrix dense(31, 16);
  for (int64_t r = 0; r < 31; ++r) {
    for (col_t c = 0; c < 16; ++c) {
      dense.colidx.push_back(c);
      dense.values.push_back(1.0f);
    }
    dense.rowptr[r + 1] = dense.nnz();
  }
  expect_fast_path_exact(dense, true);
}

// A weighted graph whose rows are partly of equal values (each row its own value,
// one with a zero among them): the draw tables take the unweighted draw for the
// equal rows, with the same picks and values as every other path.
TEST(SampleRows, EqualRowsOfAWeightedGraphDrawAsTheComposedOps) {
  CsrMatrix a = testing::random_csr(31, 40, 0.6, 8);
  for (int64_t r = 0; r < a.rows; r += 2)
    for (int64_t e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e) a.values[e] = 0.25f + static_cast<float>(r);
  a.values[a.rowptr[4]] = 0;  // row 4: equal values but one, which cannot be drawn
  expect_fast_path_exact(a, false);
}

// Rows long enough for a guide (32 entries and more): the guided search picks
// what the whole-row search picks, on even weights, on weights skewed enough
// that draws repeat and the exclusion list is searched, with zero weights, and
// beside long rows of equal values (drawn unweighted).
TEST(SampleRows, LongWeightedRowsDrawFromTheirGuidesAsTheComposedOps) {
  for (uint64_t seed : {1, 2}) {
    CsrMatrix even = testing::random_csr(31, 400, 0.5, seed);
    expect_fast_path_exact(even, false);
    CsrMatrix skewed = even;
    for (size_t e = 0; e < skewed.values.size(); ++e) {
      const float v = skewed.values[e];
      skewed.values[e] = e % 7 == 0 ? 0.0f : e % 13 == 0 ? 5000.0f * v : v * v * v * v;
    }
    expect_fast_path_exact(skewed, false);
    CsrMatrix partly_equal = even;  // long rows of equal values among weighted ones draw unweighted
    for (int64_t r = 0; r < partly_equal.rows; r += 3)
      for (int64_t e = partly_equal.rowptr[r]; e < partly_equal.rowptr[r + 1]; ++e) partly_equal.values[e] = 2.0f;
    expect_fast_path_exact(partly_equal, false);
  }
}

TEST(SampleRows, WeightsThatUnderflowWhenNormalizedAreNeverPicked) {
  // 1e-30 / 3e30 is below the smallest float: the normalized row has one positive entry.
  CsrMatrix a(1, 3);
  a.rowptr = {0, 3};
  a.colidx = {0, 1, 2};
  a.values = {1e-30f, 3e30f, 1e-30f};
  const SampleKeys keys{1, 0, 0, 0, {0, 1}};
  CsrMatrix p = select_rows(a, {0});
  normalize_rows(p);
  const CsrMatrix want = its_sample(p, 2, keys);
  ASSERT_EQ(want.nnz(), 1);
  EXPECT_TRUE(sample_rows(a, {0}, 2, keys, false) == want);
  const DrawTables tables = draw_tables(a);
  EXPECT_TRUE(sample_rows(a, {0}, 2, keys, false, nullptr, &tables) == want);
}

TEST(SampleRows, PatternMatrixIsUniform) {
  CsrMatrix pattern = uniform_rows_matrix(31, 40, 9);
  const CsrMatrix weighted = pattern;
  pattern.values.clear();
  EXPECT_TRUE(has_uniform_rows(pattern));
  const SampleKeys keys{1, 0, 0, 0, {0, 3}};
  const CsrMatrix a = sample_rows(pattern, {4, 5, 6}, 4, keys, true);
  const CsrMatrix b = sample_rows(weighted, {4, 5, 6}, 4, keys, true);
  EXPECT_EQ(a.colidx, b.colidx);
}

TEST(SampleRows, RejectsBadArguments) {
  const CsrMatrix a = uniform_rows_matrix(5, 5, 1);
  testing::expect_error(
      [&] {
        sample_rows(a, {5}, 2, {1, 0, 0, 0, {0, 1}}, true);
      },
      "sample_rows: row id 5 out of range for " + a.shape());
  testing::expect_error(
      [&] {
        sample_rows(a, {1, 2}, 2, {1, 0, 0, 0, {0, 1}}, true);
      },
      "sample_rows: 2 rows selected but the keys name 1");
  testing::expect_error(
      [&] {
        sample_rows(a, {1}, 0, {1, 0, 0, 0, {0, 1}}, true);
      },
      "sample_rows: sample count must be positive, got 0");
  testing::expect_error(
      [&] {
        sample_rows(a, {1, 2}, 2, std::vector<RandomKey>(1), true);
      },
      "2 rows selected but 1 keys given");
  testing::expect_error([&] { sample_rows(a, {1}, 0, std::vector<RandomKey>(1), true); },
                        "sample count must be positive, got 0");
  testing::expect_error([&] { sample_rows(a, {5}, 2, std::vector<RandomKey>(1), true); }, "row id 5 out of range");
}

}  // namespace
}  // namespace matsamp
