// The gather op (ops.h entries_at, Backend::gather): P's value at (row g, id)
// for the ids of block g, row 0 for every block when P is one shared row.
#include <gtest/gtest.h>

#include <set>

#include "error_checks.h"
#include "graph/transform.h"
#include "io/graph_io.h"
#include "reference.h"
#include "sampling/sampling_graph.h"
#include "test_data.h"

namespace matsamp {
namespace {

// P's entry at (r, v), 0 when absent.
float entry_of(const CsrMatrix& p, int64_t r, vid_t v) {
  for (int64_t e = p.rowptr[r]; e < p.rowptr[r + 1]; ++e)
    if (p.colidx[e] == v) return p.values[e];
  return 0.0f;
}

TEST(Gather, LooksUpEachBlocksRowOfLadiesP) {
  const Graph g = read_npz_graph(testing::data_file("cora.npz"));
  const auto m = prepare_layerwise_matrices(symmetrize(g.adj));
  // Three minibatches' frontiers (one repeats a vertex), Q with one row per minibatch.
  const std::vector<vid_t> frontier{5, 17, 300, 2000, 17, 9, 1200, 2707, 44};
  const Offsets offsets{0, 3, 5, 9};
  CsrMatrix q(3, g.num_vertices());
  for (int64_t b = 0; b < 3; ++b) {
    std::set<vid_t> row(frontier.begin() + offsets[b], frontier.begin() + offsets[b + 1]);
    for (vid_t v : row) q.colidx.push_back(static_cast<col_t>(v));
    q.rowptr[b + 1] = static_cast<int64_t>(q.colidx.size());
  }
  q.values.assign(q.colidx.size(), 1.0f);
  CsrMatrix p = spgemm(q, m->squared);
  normalize_rows(p);
  const std::vector<float> found = entries_at(p, frontier, offsets);
  ASSERT_EQ(found.size(), frontier.size());
  for (int64_t b = 0; b < 3; ++b)
    for (int64_t i = offsets[b]; i < offsets[b + 1]; ++i) {
      EXPECT_EQ(found[i], entry_of(p, b, frontier[i])) << "entry " << i;
      EXPECT_GT(found[i], 0.0f);  // Â has self loops: a frontier vertex reaches itself
    }
  auto backend = make_cpu_backend();
  EXPECT_EQ(backend->values_to_host(backend->gather(backend->upload(p), {backend->upload_ids(frontier), offsets})),
            found);
}

TEST(Gather, SharedRowInBothRegimes) {
  const Graph g = read_npz_graph(testing::data_file("cora.npz"));
  const auto m = prepare_layerwise_matrices(symmetrize(g.adj));
  const CsrMatrix& p = m->column_norms;
  // Few lookups (binary search) and many (a dense copy of the row): same values.
  for (int64_t per_block : {2, 200}) {
    std::vector<vid_t> ids;
    Offsets offsets{0};
    for (int64_t b = 0; b < 4; ++b) {
      for (int64_t i = 0; i < per_block; ++i) ids.push_back(static_cast<vid_t>((b * 911 + i * 13) % p.cols));
      offsets.push_back(static_cast<int64_t>(ids.size()));
    }
    const std::vector<float> found = entries_at(p, ids, offsets);
    for (size_t i = 0; i < ids.size(); ++i)
      ASSERT_EQ(found[i], entry_of(p, 0, ids[i])) << per_block << " per block, entry " << i;
  }
}

TEST(Gather, RejectsBadIds) {
  const CsrMatrix p = testing::random_csr(1, 50, 0.5, 4);
  testing::expect_error([&] { entries_at(p, {3, 50}, {0, 1, 2}); }, "gather: id 50 out of range for 50 columns");
  testing::expect_error([&] { entries_at(p, {3, 4}, {0, 3}); }, "gather: offsets must run from 0 to 2");
  const CsrMatrix two_rows = testing::random_csr(2, 50, 0.5, 4);
  testing::expect_error([&] { entries_at(two_rows, {3, 4, 5}, {0, 1, 2, 3}); }, "gather: 3 blocks for 2 rows of P");
}

}  // namespace
}  // namespace matsamp
