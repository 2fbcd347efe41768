// The ops that build link prediction's masks in the backend: select_rows_by_key
// (a frontier's rows of the excluded-edge matrix), mask_entries and
// sequence_ids, against brute-force definitions on random inputs and Cora, on
// the CPU backend (the CUDA ones: test_cuda_ops.cpp).
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "backend/backend.h"
#include "error_checks.h"
#include "graph/transform.h"
#include "host_ops.h"
#include "io/graph_io.h"
#include "reference.h"
#include "sampling/excluded_edges.h"
#include "test_data.h"

namespace matsamp {
namespace {

// Minibatch g's excluded targets of each source, by brute force.
using ByBlock = std::vector<std::map<vid_t, std::set<vid_t>>>;
ByBlock targets_by_block(const ExcludedEdges& excluded) {
  ByBlock out(excluded.count());
  for (int64_t g = 0; g < excluded.count(); ++g)
    for (int64_t e = excluded.offsets[g]; e < excluded.offsets[g + 1]; ++e)
      out[g][excluded.edges[e].first].insert(excluded.edges[e].second);
  return out;
}

// Random edges of k minibatches over n vertices, repeats included.
ExcludedEdges random_excluded(int64_t k, int64_t n, int64_t per_block, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<vid_t> vertex(0, n - 1);
  ExcludedEdges excluded;
  for (int64_t g = 0; g < k; ++g) {
    std::vector<std::pair<vid_t, vid_t>> edges;
    for (int64_t i = 0; i < per_block * (g + 1) % (2 * per_block + 1); ++i) {
      const vid_t u = vertex(rng) % 12;  // few sources: several targets each
      edges.emplace_back(u, vertex(rng));
      if (i % 5 == 0) edges.push_back(edges.back());
    }
    excluded.add_minibatch(std::move(edges));
  }
  return excluded;
}

void expect_mask_rows(const CsrMatrix& mask, const ByBlock& want, const std::vector<vid_t>& rows,
                      const Offsets& offsets) {
  ASSERT_EQ(mask.rows, static_cast<int64_t>(rows.size()));
  for (size_t g = 0; g + 1 < offsets.size(); ++g)
    for (int64_t i = offsets[g]; i < offsets[g + 1]; ++i) {
      const auto found = want[g].find(rows[i]);
      const std::set<vid_t> expected = found == want[g].end() ? std::set<vid_t>{} : found->second;
      const std::vector<vid_t> got(mask.colidx.begin() + mask.rowptr[i], mask.colidx.begin() + mask.rowptr[i + 1]);
      EXPECT_EQ(got, std::vector<vid_t>(expected.begin(), expected.end())) << "row " << i << " of block " << g;
    }
}

TEST(SelectRowsByKey, GivesEachRowItsBlocksKeyedRow) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    const ExcludedEdges excluded = random_excluded(4, 40, 9, seed);
    const ExcludedBySource keyed = excluded.by_source(40);
    EXPECT_EQ(keyed.key_offsets.size(), 5u);
    std::vector<vid_t> rows;
    Offsets offsets{0};
    for (int64_t g = 0; g < 4; ++g) {
      for (vid_t v = 0; v < 15; v += 1 + g) rows.push_back(v);  // repeats across blocks, misses included
      offsets.push_back(static_cast<int64_t>(rows.size()));
    }
    const CsrMatrix got = select_rows_by_key(keyed.targets, keyed.keys, keyed.key_offsets, rows, offsets);
    expect_mask_rows(got, targets_by_block(excluded), rows, offsets);
    EXPECT_EQ(got.cols, 40);
    auto cpu = make_cpu_backend();
    EXPECT_EQ(testing::HostOps(*cpu).select_rows_by_key(keyed.targets, keyed.keys, keyed.key_offsets, rows, offsets),
              got);
  }
}

TEST(SelectRowsByKey, MasksCorasFrontierWithItsMinibatchsEdges) {
  const CsrMatrix adj = symmetrize(read_npz_graph(testing::data_file("cora.npz")).adj);
  const int64_t n = adj.rows;
  // Minibatch g excludes every edge of vertices g·300 … g·300 + 99, both ways.
  ExcludedEdges excluded;
  std::vector<vid_t> frontier;
  Offsets offsets{0};
  for (vid_t g = 0; g < 3; ++g) {
    std::vector<std::pair<vid_t, vid_t>> edges;
    for (vid_t u = g * 300; u < g * 300 + 100; ++u)
      for (int64_t e = adj.rowptr[u]; e < adj.rowptr[u + 1]; ++e) {
        edges.emplace_back(u, adj.colidx[e]);
        edges.emplace_back(adj.colidx[e], u);
      }
    excluded.add_minibatch(std::move(edges));
    for (vid_t v = g * 250; v < g * 250 + 400; v += 3) frontier.push_back(v);
    offsets.push_back(static_cast<int64_t>(frontier.size()));
  }
  const CsrMatrix mask = excluded.mask(frontier, offsets, n);
  expect_mask_rows(mask, targets_by_block(excluded), frontier, offsets);
  EXPECT_GT(mask.nnz(), 100);
  // Masked, the frontier's rows keep exactly the edges its minibatch does not exclude.
  const CsrMatrix kept = mask_entries(select_rows(adj, frontier), mask);
  const ByBlock by_block = targets_by_block(excluded);
  for (size_t g = 0; g + 1 < offsets.size(); ++g)
    for (int64_t i = offsets[g]; i < offsets[g + 1]; ++i) {
      const auto found = by_block[g].find(frontier[i]);
      int64_t want = 0;
      for (int64_t e = adj.rowptr[frontier[i]]; e < adj.rowptr[frontier[i] + 1]; ++e)
        want += found == by_block[g].end() || !found->second.count(adj.colidx[e]);
      EXPECT_EQ(kept.row_nnz(i), want);
    }
}

TEST(SelectRowsByKey, RefusesKeysOutOfOrderAndBlocksThatDoNotMatch) {
  const CsrMatrix m = testing::random_csr(3, 10, 0.5, 1);
  testing::expect_error(
      [&] {
        select_rows_by_key(m, {4, 2, 7}, {0, 3}, {1}, {0, 1});
      },
      "select_rows_by_key: the keys of block 0 are not ascending and distinct (4 then 2)");
  testing::expect_error(
      [&] {
        select_rows_by_key(m, {1, 2}, {0, 2}, {1}, {0, 1});
      },
      "select_rows_by_key: 2 keys for a matrix of 3 rows");
  testing::expect_error(
      [&] {
        select_rows_by_key(m, {1, 2, 3}, {0, 3}, {1}, {0, 1, 1});
      },
      "select_rows_by_key: 1 key blocks, 2 row blocks");
  ExcludedEdges excluded;
  excluded.add_minibatch({{0, 12}});
  testing::expect_error([&] { excluded.by_source(10); }, "excluded edge (0, 12) of minibatch 0 is out of range");
}

TEST(SequenceIds, CountsFromZero) {
  EXPECT_EQ(sequence_ids(4), (std::vector<vid_t>{0, 1, 2, 3}));
  EXPECT_TRUE(sequence_ids(0).empty());
  auto cpu = make_cpu_backend();
  EXPECT_EQ(testing::HostOps(*cpu).sequence_ids(5), sequence_ids(5));
  testing::expect_error([&] { sequence_ids(-1); }, "sequence_ids: a negative count -1");
}

}  // namespace
}  // namespace matsamp
