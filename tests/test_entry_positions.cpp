// The entry_positions op (ops.h, Backend::entry_positions) and the per-layer
// positions of a sampled bulk (sample.h): each sampled edge as an entry of the graph.
#include <gtest/gtest.h>

#include "compact_cases.h"
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

// Three minibatches of seeds on Cora (symmetrized), registered in a CPU backend.
class EntryPositionsOnCora : public ::testing::Test {
 protected:
  const CsrMatrix adj = symmetrize(read_npz_graph(testing::data_file("cora.npz")).adj);
  std::unique_ptr<Backend> backend = make_cpu_backend();
  LocalGraph graph{*backend, adj};
  const std::vector<vid_t> seeds{0, 5, 17, 300, 2000, 9, 1200, 2707};
  const Offsets offsets{0, 3, 5, 8};
};

// Every sampler's layers on Cora: each entry found is the graph's entry for its
// row and column; only the self-loops that Â adds are missing from the graph.
TEST_F(EntryPositionsOnCora, NameEverySampledEdgeOfEverySampler) {
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
          if (at[e] < 0) {
            EXPECT_EQ(u, v) << spec.name << ": only Â's self-loops are not the graph's";
          }
        }
      rows = layer.vertices;
    }
  }
}

// sample_rows' positions: each pick's index into a.colidx, inside its row, with
// its column; unmasked and masked, uniform and weighted rows.
TEST(EntryPositions, SampleRowsTellsWhereEachPickCameFrom) {
  const std::vector<vid_t> rows{3, 0, 17, 3, 29, 8};
  const SampleKeys keys{5, 1, 0, 2, {0, 2, 6}};
  CsrMatrix mask(6, 30);
  mask.rowptr = {0, 1, 1, 3, 3, 3, 4};
  mask.colidx = {4, 0, 11, 29};
  for (const bool uniform : {true, false}) {
    const CsrMatrix a = uniform ? testing::uniform_rows_matrix(30, 30, 7) : testing::random_csr(30, 30, 0.4, 7);
    for (const bool masked : {false, true}) {
      std::vector<vid_t> positions;
      const CsrMatrix s = masked ? sample_rows_masked(a, rows, 4, keys, uniform, mask, &positions)
                                 : sample_rows(a, rows, 4, keys, uniform, &positions);
      EXPECT_EQ(s,
                masked ? sample_rows_masked(a, rows, 4, keys, uniform, mask) : sample_rows(a, rows, 4, keys, uniform))
          << "asking for positions changes nothing drawn";
      ASSERT_EQ(static_cast<int64_t>(positions.size()), s.nnz());
      for (int64_t i = 0; i < s.rows; ++i)
        for (int64_t e = s.rowptr[i]; e < s.rowptr[i + 1]; ++e) {
          EXPECT_GE(positions[e], a.rowptr[rows[i]]);
          EXPECT_LT(positions[e], a.rowptr[rows[i] + 1]);
          EXPECT_EQ(a.colidx[positions[e]], s.colidx[e]) << "uniform " << uniform << " masked " << masked;
        }
    }
  }
}

// LABOR's positions: each kept entry's index into a.colidx, in its row, with its column.
TEST(EntryPositions, LaborSampleRowsTellsWhereEachKeptEntryCameFrom) {
  const std::vector<vid_t> rows{3, 0, 17, 3, 29, 8};
  const SampleKeys keys{5, 1, 0, 2, {0, 2, 6}};
  for (const CsrMatrix& a : {testing::uniform_rows_matrix(30, 30, 7), testing::random_csr(30, 30, 0.4, 7)}) {
    std::vector<vid_t> positions;
    const CsrMatrix s = labor_sample_rows(a, rows, 3, keys, &positions);
    EXPECT_EQ(s, labor_sample_rows(a, rows, 3, keys));
    ASSERT_EQ(static_cast<int64_t>(positions.size()), s.nnz());
    for (int64_t i = 0; i < s.rows; ++i)
      for (int64_t e = s.rowptr[i]; e < s.rowptr[i + 1]; ++e) {
        EXPECT_GE(positions[e], a.rowptr[rows[i]]);
        EXPECT_LT(positions[e], a.rowptr[rows[i] + 1]);
        EXPECT_EQ(a.colidx[positions[e]], s.colidx[e]);
      }
  }
}

// compact_columns moves carried ids with their entries.
TEST(EntryPositions, CompactionCarriesIdsWithTheirEntries) {
  for (const testing::CompactCase& c : {testing::compact_two_minibatches(), testing::compact_random()}) {
    std::vector<vid_t> carried(c.s.nnz());
    for (int64_t i = 0; i < c.s.rows; ++i)  // each entry carries (row, column) as one id
      for (int64_t e = c.s.rowptr[i]; e < c.s.rowptr[i + 1]; ++e) carried[e] = i * c.s.cols + c.s.colidx[e];
    const CompactResult want = compact_columns(c.s, c.offsets, c.leading, c.offsets);
    const CompactResult got = compact_columns(c.s, c.offsets, c.leading, c.offsets, &carried);
    EXPECT_EQ(got.adj, want.adj);
    ASSERT_EQ(static_cast<int64_t>(carried.size()), got.adj.nnz());
    for (int64_t i = 0; i < got.adj.rows; ++i)
      for (int64_t e = got.adj.rowptr[i]; e < got.adj.rowptr[i + 1]; ++e)
        EXPECT_EQ(carried[e], i * c.s.cols + got.vertices[got.adj.colidx[e]]) << "entry " << e;
  }
  const testing::CompactCase c = testing::compact_two_minibatches();
  std::vector<vid_t> short_list(2);
  testing::expect_error([&] { compact_columns(c.s, c.offsets, c.leading, c.offsets, &short_list); },
                        "compact_columns: 2 carried values for 7 entries");
}

// What a sampler records with Context::record_positions equals what is located
// afterwards: GraphSAGE's and LABOR's draws record them; the others are located.
TEST_F(EntryPositionsOnCora, RecordedPositionsEqualLocatedOnes) {
  for (const char* name : {"graphsage", "labor"}) {
    const auto sampler = make_sampler(name, graph, params_from_sizes(find_sampler(name), {4, 3}, true));
    const Ids resident_seeds = backend->upload_ids(seeds);
    std::vector<std::vector<vid_t>> got[2];
    for (const bool record : {false, true}) {
      Context ctx{*backend, 11};
      ctx.record_positions = record;
      Bulk bulk = sampler->sample(ctx, seeds, offsets, 0, 0);
      for (const Layer& layer : bulk.layers) EXPECT_EQ(layer.positions.defined(), record) << name;
      for (Ids& ids : entry_positions(*backend, graph.adjacency(), resident_seeds, bulk))
        got[record].push_back(backend->ids_to_host(std::move(ids)));
    }
    EXPECT_EQ(got[1], got[0]) << name;
  }
}

}  // namespace
}  // namespace matsamp
