// csr_from_edges / csr_from_triples against a brute-force build: rows sorted by
// column, repeats merged into the first (their weights summed in double, in input
// order), the origin of each entry its first triple; the same whatever the thread
// count and whichever counting sort runs (per-thread counts, or atomic ones where
// the rows outnumber the entries per thread).
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <tuple>
#include <vector>

#include "core/csr.h"
#include "error_checks.h"

namespace matsamp {
namespace {

struct Triples {
  int64_t rows = 0, cols = 0;
  std::vector<int64_t> r, c;
  std::vector<float> w;
};

CsrMatrix brute_force(const Triples& t, std::vector<int64_t>* origin) {
  std::vector<std::tuple<int64_t, int64_t, int64_t>> keyed;  // (row, column, input position)
  for (size_t i = 0; i < t.r.size(); ++i) keyed.emplace_back(t.r[i], t.c[i], static_cast<int64_t>(i));
  std::sort(keyed.begin(), keyed.end());
  CsrMatrix m(t.rows, t.cols);
  origin->clear();
  double sum = 0;
  for (size_t j = 0; j < keyed.size(); ++j) {
    const auto [row, col, i] = keyed[j];
    const bool repeat = j > 0 && std::get<0>(keyed[j - 1]) == row && std::get<1>(keyed[j - 1]) == col;
    if (repeat) {
      sum += t.w[i];
      m.values.back() = static_cast<float>(sum);
      continue;
    }
    sum = t.w[i];
    m.colidx.push_back(static_cast<col_t>(col));
    m.values.push_back(t.w[i]);
    origin->push_back(i);
    ++m.rowptr[row + 1];
  }
  std::partial_sum(m.rowptr.begin(), m.rowptr.end(), m.rowptr.begin());
  return m;
}

Triples random_triples(int64_t rows, int64_t cols, int64_t m, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Triples t{rows, cols, {}, {}, {}};
  for (int64_t i = 0; i < m; ++i) {
    t.r.push_back(static_cast<int64_t>(rng() % rows));
    t.c.push_back(static_cast<int64_t>(rng() % cols));
    t.w.push_back(static_cast<float>(rng() % 1000) / 7.0f);
  }
  return t;
}

// The triples reordered by (row, column), or by (column, row) as a transposed edge_index comes.
Triples reordered(Triples t, bool by_column) {
  std::vector<size_t> order(t.r.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    return by_column ? std::tie(t.c[x], t.r[x]) < std::tie(t.c[y], t.r[y])
                     : std::tie(t.r[x], t.c[x]) < std::tie(t.r[y], t.c[y]);
  });
  Triples out{t.rows, t.cols, {}, {}, {}};
  for (size_t i : order) {
    out.r.push_back(t.r[i]);
    out.c.push_back(t.c[i]);
    out.w.push_back(t.w[i]);
  }
  return out;
}

TEST(CsrFromEdges, EqualsABruteForceBuildForEveryThreadCountAndOrder) {
  const int threads_before = omp_get_max_threads();
  // Many entries per row (per-thread counts) and more rows than entries per thread (atomic counts).
  for (const auto& [rows, cols, m] : {std::tuple<int64_t, int64_t, int64_t>{50, 40, 3000}, {5000, 30, 900}}) {
    const Triples random = random_triples(rows, cols, m, static_cast<uint64_t>(rows));
    for (const Triples& t : {random, reordered(random, false), reordered(random, true)}) {
      std::vector<int64_t> want_origin;
      const CsrMatrix want = brute_force(t, &want_origin);
      for (int threads : {1, 2, 3}) {
        omp_set_num_threads(threads);
        std::vector<int64_t> origin;
        const CsrMatrix got = csr_from_edges(t.rows, t.cols, t.r.data(), t.c.data(), m, t.w.data(), true, &origin);
        EXPECT_EQ(got, want) << rows << " rows, " << threads << " threads";
        EXPECT_EQ(origin, want_origin) << rows << " rows, " << threads << " threads";
        std::vector<int32_t> r32(t.r.begin(), t.r.end()), c32(t.c.begin(), t.c.end());
        const CsrMatrix pattern = csr_from_edges(t.rows, t.cols, r32.data(), c32.data(), m, nullptr, false, nullptr);
        EXPECT_EQ(pattern.rowptr, want.rowptr);
        EXPECT_EQ(pattern.colidx, want.colidx);
        EXPECT_TRUE(pattern.values.empty());
      }
    }
  }
  omp_set_num_threads(threads_before);
}

TEST(CsrFromEdges, EntriesOutsideTheShapeAreNamed) {
  const std::vector<int64_t> r{0, 3}, c{1, 1};
  testing::expect_error([&] { csr_from_edges(3, 3, r.data(), c.data(), 2, nullptr, false, nullptr); },
                        "entry (3, 1) outside 3 x 3");
}

}  // namespace
}  // namespace matsamp
