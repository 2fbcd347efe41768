// The entry_positions op (ops.h, Backend::entry_positions) and the per-layer
// positions of a sampled bulk (sample.h): each sampled edge as an entry of the graph.
#include <gtest/gtest.h>

#include "error_checks.h"
#include "graph/transform.h"
#include "io/graph_io.h"
#include "reference.h"
#include "sampling/registry.h"
#include "sampling/sample.h"
#include "sampling/sampling_graph.h"
#include "test_data.h"

namespace matsamp {
namespace {

// The position of a's entry (r, c) by a scan of row r, -1 when absent.
vid_t scanned_position(const CsrMatrix& a, vid_t r, vid_t c) {
  for (int64_t e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e)
    if (a.colidx[e] == c) return e;
  return -1;
}

TEST(EntryPositions, EqualsAScanOfEachRow) {
  const CsrMatrix a = testing::random_csr(80, 80, 0.15, 7);
  const CsrMatrix s = testing::random_csr(6, 30, 0.4, 8);  // rows and columns named below
  const std::vector<vid_t> rows{3, 79, 0, 3, 41, 12};
  std::vector<vid_t> columns;
  for (int64_t j = 0; j < 30; ++j) columns.push_back((j * 37 + 5) % 80);
  const std::vector<vid_t> got = entry_positions(a, rows, s, columns);
  ASSERT_EQ(static_cast<int64_t>(got.size()), s.nnz());
  int64_t found = 0, absent = 0;
  for (int64_t i = 0; i < s.rows; ++i)
    for (int64_t e = s.rowptr[i]; e < s.rowptr[i + 1]; ++e) {
      EXPECT_EQ(got[e], scanned_position(a, rows[i], columns[s.colidx[e]])) << "entry " << e;
      (got[e] >= 0 ? found : absent) += 1;
    }
  EXPECT_GT(found, 0);  // both cases are exercised
  EXPECT_GT(absent, 0);
  auto backend = make_cpu_backend();
  EXPECT_EQ(backend->ids_to_host(backend->entry_positions(backend->upload(a), backend->upload_ids(rows),
                                                          backend->upload(s), backend->upload_ids(columns))),
            got);
}

TEST(EntryPositions, RejectsMismatchedShapesAndIds) {
  const CsrMatrix a = testing::random_csr(10, 10, 0.3, 1), s = testing::random_csr(2, 3, 0.5, 2);
  testing::expect_error(
      [&] {
        entry_positions(a, {1}, s, {0, 1, 2});
      },
      "entry_positions: 1 row ids for 2 rows of the sampled matrix");
  testing::expect_error(
      [&] {
        entry_positions(a, {1, 2}, s, {0, 1});
      },
      "entry_positions: 2 column ids for 3 columns of the sampled matrix");
  testing::expect_error(
      [&] {
        entry_positions(a, {1, 10}, s, {0, 1, 2});
      },
      "entry_positions: row id 10 out of range for 10 x 10");
  testing::expect_error(
      [&] {
        entry_positions(a, {1, 2}, s, {0, -1, 2});
      },
      "entry_positions: column id -1 out of range for 10 x 10");
}

// Every sampler's layers on Cora: each entry found is the graph's entry for its
// row and column; only the self-loops that Â adds are missing from the graph.
TEST(EntryPositions, NameEverySampledEdgeOfEverySampler) {
  const Graph g = read_npz_graph(testing::data_file("cora.npz"));
  const CsrMatrix adj = symmetrize(g.adj);
  auto backend = make_cpu_backend();
  LocalGraph graph(*backend, adj);
  const std::vector<vid_t> seeds{0, 5, 17, 300, 2000, 9, 1200, 2707};
  const Offsets offsets{0, 3, 5, 8};
  for (const SamplerSpec& spec : sampler_registry()) {
    const auto sampler = make_sampler(spec.name, graph, params_from_sizes(spec, {3, 3}, true));
    Context ctx{*backend, 11};
    Bulk bulk = sampler->sample(ctx, seeds, offsets, 0, 0);
    const std::vector<Ids> positions = entry_positions(*backend, graph.adjacency(), backend->upload_ids(seeds), bulk);
    const BulkSample host = to_host(*backend, std::move(bulk));
    ASSERT_EQ(positions.size(), host.layers.size()) << spec.name;
    std::vector<vid_t> rows = seeds;
    for (size_t l = 0; l < host.layers.size(); ++l) {
      const SampledLayer& layer = host.layers[l];
      const std::vector<vid_t> at = backend->ids_to_host(positions[l]);
      ASSERT_EQ(static_cast<int64_t>(at.size()), layer.adj.nnz()) << spec.name << " layer " << l;
      for (int64_t i = 0; i < layer.adj.rows; ++i)
        for (int64_t e = layer.adj.rowptr[i]; e < layer.adj.rowptr[i + 1]; ++e) {
          const vid_t u = rows[i], v = layer.vertices[layer.adj.colidx[e]];
          ASSERT_EQ(at[e], scanned_position(adj, u, v)) << spec.name << " layer " << l << " entry " << e;
          if (at[e] < 0) EXPECT_EQ(u, v) << spec.name << ": only Â's self-loops are not the graph's";
        }
      rows = layer.vertices;
    }
  }
}

}  // namespace
}  // namespace matsamp
