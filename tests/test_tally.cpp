// The tally ops (GraphSAINT's pre-sampled counts): tally_ids,
// tally_induced_entries and normalize_rows_by_tallies against naive references,
// on random graphs and Cora, and their errors.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "error_checks.h"
#include "graph/transform.h"
#include "io/graph_io.h"
#include "ops/ops.h"
#include "reference.h"
#include "test_data.h"

namespace matsamp {
namespace {

// k blocks of distinct ids below n, of random sizes up to `largest` (some empty).
std::pair<std::vector<vid_t>, Offsets> random_blocks(int64_t n, int64_t k, int64_t largest, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<vid_t> ids;
  Offsets offsets{0};
  for (int64_t g = 0; g < k; ++g) {
    std::set<vid_t> block;
    const int64_t size = static_cast<int64_t>(rng() % static_cast<uint64_t>(largest + 1));
    while (static_cast<int64_t>(block.size()) < std::min(size, n)) block.insert(static_cast<vid_t>(rng() % n));
    std::vector<vid_t> shuffled(block.begin(), block.end());
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    ids.insert(ids.end(), shuffled.begin(), shuffled.end());
    offsets.push_back(static_cast<int64_t>(ids.size()));
  }
  return {ids, offsets};
}

// Entry e of a counted once per block holding both of its endpoints.
std::vector<int64_t> naive_induced(const CsrMatrix& a, const std::vector<vid_t>& ids, const Offsets& offsets) {
  std::vector<int64_t> counts(a.nnz(), 0);
  for (size_t g = 0; g + 1 < offsets.size(); ++g) {
    const std::set<vid_t> block(ids.begin() + offsets[g], ids.begin() + offsets[g + 1]);
    for (int64_t u = 0; u < a.rows; ++u)
      for (int64_t e = a.rowptr[u]; e < a.rowptr[u + 1]; ++e)
        if (block.count(u) && block.count(a.colidx[e])) ++counts[e];
  }
  return counts;
}

TEST(Tally, IdsAddOneAtEveryListedId) {
  const std::vector<int64_t> got = tally_ids({5, 0, 0, 1}, {2, 0, 2, 3, 2});
  EXPECT_EQ(got, (std::vector<int64_t>{6, 0, 3, 2}));
  EXPECT_EQ(tally_ids({1, 2}, {}), (std::vector<int64_t>{1, 2}));
  testing::expect_error([] { tally_ids({0, 0}, {0, 2}); }, "tally_ids: id 2 out of range for 2 tallies");
}

TEST(Tally, InducedEntriesMatchTheNaiveCountOnRandomGraphsAndCora) {
  for (uint64_t seed : {1, 2, 3}) {
    const CsrMatrix a = testing::random_csr(80, 80, 0.08, seed);
    const auto [ids, offsets] = random_blocks(80, 12, 40, seed);
    std::vector<int64_t> start(a.nnz());
    for (int64_t e = 0; e < a.nnz(); ++e) start[e] = e % 5;  // added to, not overwritten
    std::vector<int64_t> want = naive_induced(a, ids, offsets);
    for (int64_t e = 0; e < a.nnz(); ++e) want[e] += e % 5;
    EXPECT_EQ(tally_induced_entries(start, a, ids, offsets), want) << "seed " << seed;
  }
  const CsrMatrix cora = symmetrize(read_npz_graph(testing::data_file("cora.npz")).adj);
  const auto [ids, offsets] = random_blocks(cora.rows, 6, 1500, 9);
  EXPECT_EQ(tally_induced_entries(std::vector<int64_t>(cora.nnz(), 0), cora, ids, offsets),
            naive_induced(cora, ids, offsets));
}

TEST(Tally, InducedEntriesRefuseBadArguments) {
  const CsrMatrix a = testing::random_csr(10, 10, 0.3, 4);
  const std::vector<int64_t> zeros(a.nnz(), 0);
  testing::expect_error(
      [&] {
        tally_induced_entries(zeros, a, {1, 10}, {0, 2});
      },
      "tally_induced_entries: id 10 out of range");
  testing::expect_error(
      [&] {
        tally_induced_entries(zeros, a, {1, 2}, {0, 3});
      },
      "tally_induced_entries: block offsets");
  testing::expect_error([&] { tally_induced_entries({1, 2}, a, {1}, {0, 1}); }, "tally_induced_entries: 2 tallies for");
  testing::expect_error([&] { tally_induced_entries({}, testing::random_csr(3, 4, 0.5, 1), {}, {0}); },
                        "tally_induced_entries: the matrix is not square");
}

// Row v divided by its sum, entry e then by entry_tallies[e] / row_tallies[v]
// where both count something; rows that sum to 0 become 0.
TEST(Tally, NormalizeRowsByTalliesScalesEachEntry) {
  CsrMatrix a = testing::random_csr(40, 40, 0.2, 7, true);
  std::vector<int64_t> rows(a.rows), entries(a.nnz());
  for (int64_t v = 0; v < a.rows; ++v) rows[v] = v % 4;
  for (int64_t e = 0; e < a.nnz(); ++e) entries[e] = (e * 7) % 3;
  const CsrMatrix got = normalize_rows_by_tallies(a, rows, entries);
  EXPECT_EQ(got.rowptr, a.rowptr);
  EXPECT_EQ(got.colidx, a.colidx);
  for (int64_t v = 0; v < a.rows; ++v) {
    double sum = 0;
    for (int64_t e = a.rowptr[v]; e < a.rowptr[v + 1]; ++e) sum += a.values[e];
    for (int64_t e = a.rowptr[v]; e < a.rowptr[v + 1]; ++e) {
      const double scale = rows[v] > 0 && entries[e] > 0 ? static_cast<double>(rows[v]) / entries[e] : 1.0;
      EXPECT_EQ(got.values[e], sum > 0 ? static_cast<float>(a.values[e] / sum * scale) : 0.0f) << v << ", " << e;
    }
  }
  testing::expect_error([&] { normalize_rows_by_tallies(a, {1}, entries); }, "normalize_rows_by_tallies: 1 row and");
}

}  // namespace
}  // namespace matsamp
