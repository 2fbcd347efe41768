// Every op of the CUDA backend against the CPU op: bit-identical results on
// random and real matrices (cuSPARSE's product: same pattern, values to 1e-5).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

#include "backend/resident_arrays.h"
#include "compact_cases.h"
#include "cuda_test_support.h"
#include "error_checks.h"
#include "graph/transform.h"
#include "io/graph_io.h"
#include "ops/frontier.h"
#include "reference.h"
#include "sampling/excluded_edges.h"
#include "sampling/sampling_graph.h"
#include "test_data.h"

namespace matsamp {
namespace {

using testing::CudaVersusCpu;
using testing::data_file;
using testing::random_csr;
using testing::repeated_row;
using testing::uniform_rows_matrix;

Graph cora() { return read_npz_graph(data_file("cora.npz")); }
Graph email() { return cleanup(read_edge_list(data_file("email-Eu-core.txt")), {true, true, false}); }

// Q: one row per block with a 1 at each of its (sorted, unique) vertices.
CsrMatrix indicator(int64_t n, const std::vector<std::vector<vid_t>>& blocks) {
  std::vector<int64_t> rows, cols;
  for (size_t g = 0; g < blocks.size(); ++g)
    for (vid_t v : blocks[g]) {
      rows.push_back(static_cast<int64_t>(g));
      cols.push_back(v);
    }
  return csr_from_triples(static_cast<int64_t>(blocks.size()), n, rows, cols, {});
}

std::vector<vid_t> strided(int64_t n, int64_t count, int64_t stride, int64_t first = 0) {
  std::vector<vid_t> out;
  for (int64_t i = 0; i < count; ++i) out.push_back((first + i * stride) % n);
  return out;
}

void expect_same_pattern_close_values(const CsrMatrix& got, const CsrMatrix& want) {
  ASSERT_EQ(got.rows, want.rows);
  ASSERT_EQ(got.cols, want.cols);
  ASSERT_EQ(got.rowptr, want.rowptr);
  ASSERT_EQ(got.colidx, want.colidx);
  for (int64_t e = 0; e < want.nnz(); ++e)
    ASSERT_NEAR(got.values[e], want.values[e], 1e-5 * std::abs(want.values[e])) << "entry " << e;
}

// ---- spgemm -------------------------------------------------------------------

class CudaSpgemm : public CudaVersusCpu {};

TEST_F(CudaSpgemm, OrderedProductIsBitIdenticalOnRandomMatrices) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    const CsrMatrix a = random_csr(37, 23, 0.15, seed, /*zero_rows=*/true);
    const CsrMatrix b = random_csr(23, 41, 0.2, seed + 100);
    EXPECT_EQ(cuda_ops->spgemm(a, b), cpu_ops->spgemm(a, b)) << "seed " << seed;
  }
}

TEST_F(CudaSpgemm, OrderedProductIsBitIdenticalForLadiesOnRealGraphs) {
  for (const Graph& g : {cora(), email()}) {
    const CsrMatrix squared = square_values(gcn_normalize(g.adj));
    const int64_t n = g.num_vertices();
    const CsrMatrix q = indicator(n, {strided(n, 64, 7), strided(n, 200, 3, 5), {}, strided(n, 1, 1, 11)});
    EXPECT_EQ(cuda_ops->spgemm(q, squared), cpu_ops->spgemm(q, squared));
    EXPECT_EQ(cuda_ops->spgemm(g.adj, g.adj), cpu_ops->spgemm(g.adj, g.adj)) << "A·A, pattern operands";
  }
}

TEST_F(CudaSpgemm, EmptyAndMismatchedShapes) {
  EXPECT_EQ(cuda_ops->spgemm(CsrMatrix(0, 5), CsrMatrix(5, 3)), cpu_ops->spgemm(CsrMatrix(0, 5), CsrMatrix(5, 3)));
  EXPECT_EQ(cuda_ops->spgemm(CsrMatrix(4, 5), CsrMatrix(5, 6)), cpu_ops->spgemm(CsrMatrix(4, 5), CsrMatrix(5, 6)));
  testing::expect_error([&] { cuda_ops->spgemm(CsrMatrix(3, 4), CsrMatrix(5, 2)); }, "inner dimensions differ");
}

// A budget of a few products splits every product into many row chunks.
class CudaSpgemmInChunks : public CudaVersusCpu {
  CudaOptions options() const override {
    CudaOptions o;
    o.spgemm_budget_bytes = 4096;
    return o;
  }
};

TEST_F(CudaSpgemmInChunks, ChunkedOrderedProductIsBitIdentical) {
  const Graph g = cora();
  const CsrMatrix squared = square_values(gcn_normalize(g.adj));
  const CsrMatrix q =
      indicator(g.num_vertices(), {strided(g.num_vertices(), 300, 9), strided(g.num_vertices(), 50, 2)});
  EXPECT_EQ(cuda_ops->spgemm(q, squared), cpu_ops->spgemm(q, squared));
  const CsrMatrix a = random_csr(120, 80, 0.2, 3, true), b = random_csr(80, 90, 0.2, 4);
  EXPECT_EQ(cuda_ops->spgemm(a, b), cpu_ops->spgemm(a, b));
}

class CudaSpgemmCusparse : public CudaVersusCpu {
 protected:
  CudaOptions options() const override {
    CudaOptions o;
    o.spgemm = GpuSpgemm::cusparse;
    return o;
  }
};

TEST_F(CudaSpgemmCusparse, SamePatternAndCloseValues) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    const CsrMatrix a = random_csr(37, 23, 0.15, seed, true), b = random_csr(23, 41, 0.2, seed + 100);
    expect_same_pattern_close_values(cuda_ops->spgemm(a, b), cpu_ops->spgemm(a, b));
  }
  const Graph g = email();
  const CsrMatrix squared = square_values(gcn_normalize(g.adj));
  const CsrMatrix q =
      indicator(g.num_vertices(), {strided(g.num_vertices(), 100, 7), {}, strided(g.num_vertices(), 9, 5)});
  expect_same_pattern_close_values(cuda_ops->spgemm(q, squared), cpu_ops->spgemm(q, squared));
  expect_same_pattern_close_values(cuda_ops->spgemm(g.adj, g.adj), cpu_ops->spgemm(g.adj, g.adj));
}

// So small a budget that ALG1, ALG2 and ALG3 all exceed it: rows are halved.
class CudaSpgemmCusparseTinyBudget : public CudaSpgemmCusparse {
  CudaOptions options() const override {
    CudaOptions o = CudaSpgemmCusparse::options();
    o.spgemm_budget_bytes = 1024;
    return o;
  }
};

TEST_F(CudaSpgemmCusparseTinyBudget, FallsBackAndSplitsRowsWithTheSameResult) {
  const Graph g = email();
  expect_same_pattern_close_values(cuda_ops->spgemm(g.adj, g.adj), cpu_ops->spgemm(g.adj, g.adj));
}

// ---- selection and normalization -----------------------------------------------

class CudaSelect : public CudaVersusCpu {};

TEST_F(CudaSelect, SelectRowsEqualsCpu) {
  const CsrMatrix a = random_csr(50, 30, 0.2, 8, true);
  const std::vector<vid_t> rows{3, 0, 49, 3, 17, 17, 5};
  EXPECT_EQ(cuda_ops->select_rows(a, rows), cpu_ops->select_rows(a, rows));
  EXPECT_EQ(cuda_ops->select_rows(a, {}), cpu_ops->select_rows(a, {}));
  const Graph g = cora();  // a pattern matrix: values become ones
  const std::vector<vid_t> some = strided(g.num_vertices(), 500, 13);
  EXPECT_EQ(cuda_ops->select_rows(g.adj, some), cpu_ops->select_rows(g.adj, some));
  EXPECT_THROW(cuda_ops->select_rows(a, {50}), Error);
}

TEST_F(CudaSelect, SelectColsBlockedEqualsCpu) {
  const CsrMatrix a = random_csr(40, 60, 0.3, 12, true);
  const Offsets row_offsets{0, 10, 10, 25, 40};
  // Block 2 repeats column 7; block 1 is empty; block 3 takes no column.
  const std::vector<vid_t> cols{1, 5, 9, 59, 7, 7, 30, 2, 44};
  const Offsets col_offsets{0, 4, 4, 9, 9};
  std::vector<float> weights(cols.size());
  std::iota(weights.begin(), weights.end(), 1.0f);
  EXPECT_EQ(cuda_ops->select_cols_blocked(a, row_offsets, cols, col_offsets, weights),
            cpu_ops->select_cols_blocked(a, row_offsets, cols, col_offsets, weights));
  EXPECT_EQ(cuda_ops->select_cols_blocked(a, row_offsets, cols, col_offsets, {}),
            cpu_ops->select_cols_blocked(a, row_offsets, cols, col_offsets, {}));
  EXPECT_THROW(cuda_ops->select_cols_blocked(a, {0, 40}, {60}, {0, 1}, {}), Error);
  EXPECT_THROW(cuda_ops->select_cols_blocked(a, {0, 39}, {1}, {0, 1}, {}), Error);
}

TEST_F(CudaSelect, LadiesExtractionOnCoraEqualsCpu) {
  const Graph g = cora();
  const CsrMatrix hat = gcn_normalize(g.adj);
  const std::vector<vid_t> frontier = strided(g.num_vertices(), 300, 11);
  const Offsets offsets{0, 100, 300};
  const CsrMatrix rows = cpu_ops->select_rows(hat, frontier);
  ASSERT_EQ(cuda_ops->select_rows(hat, frontier), rows);
  const std::vector<vid_t> cols = strided(g.num_vertices(), 400, 5, 1);
  const std::vector<float> weights(cols.size(), 0.25f);
  EXPECT_EQ(cuda_ops->select_cols_blocked(rows, offsets, cols, {0, 200, 400}, weights),
            cpu_ops->select_cols_blocked(rows, offsets, cols, {0, 200, 400}, weights));
  // The fused extraction the layer-wise samplers call (R·Â kept on the device).
  EXPECT_EQ(cuda_ops->select_rows_cols_blocked(hat, frontier, offsets, cols, {0, 200, 400}, weights),
            cpu_ops->select_rows_cols_blocked(hat, frontier, offsets, cols, {0, 200, 400}, weights));
  testing::expect_error(
      [&] {
        cuda_ops->select_rows_cols_blocked(hat, {-1}, {0, 1}, cols, {0, 400}, weights);
      },
      "select_rows: row id -1 out of range for " + hat.shape());
}

TEST_F(CudaSelect, NormalizeRowsEqualsCpuBitForBit) {
  // Short rows (a thread each), rows of a few hundred and of thousands of
  // entries (a warp each), every matrix with empty and all-zero rows.
  const std::vector<CsrMatrix> matrices{random_csr(80, 50, 0.3, 21, /*zero_rows=*/true),
                                        random_csr(40, 3000, 0.05, 22, /*zero_rows=*/true),
                                        random_csr(7, 9000, 0.6, 23, /*zero_rows=*/true)};
  for (const CsrMatrix& m : matrices)
    for (bool square : {false, true}) {
      CsrMatrix on_gpu = m, on_cpu = m;
      cuda_ops->normalize_rows(on_gpu, square);
      cpu_ops->normalize_rows(on_cpu, square);
      EXPECT_EQ(on_gpu, on_cpu) << m.shape() << " square_first " << square;
    }
  CsrMatrix pattern = cora().adj, pattern_cpu = pattern;  // no values: ones first
  cuda_ops->normalize_rows(pattern, false);
  cpu_ops->normalize_rows(pattern_cpu, false);
  EXPECT_EQ(pattern, pattern_cpu);
}

// ---- sampling ------------------------------------------------------------------

class CudaSampling : public CudaVersusCpu {};

SampleKeys keys_for(int64_t rows, uint64_t seed = 5) { return {seed, 0, 0, 0, {0, rows}}; }

TEST_F(CudaSampling, ItsSampleEqualsCpu) {
  const CsrMatrix p = random_csr(300, 80, 0.1, 11, /*zero_rows=*/true);
  for (int64_t s : {1, 3, 8, 200})
    EXPECT_EQ(cuda_ops->its_sample(p, s, keys_for(p.rows)), cpu_ops->its_sample(p, s, keys_for(p.rows))) << s;
  // Stacked blocks (one empty), an offset minibatch id, another epoch and layer.
  const SampleKeys stacked{3, 1, 2, 5, {0, 100, 100, 180, 300}};
  EXPECT_EQ(cuda_ops->its_sample(p, 4, stacked), cpu_ops->its_sample(p, 4, stacked));
  EXPECT_THROW(cuda_ops->its_sample(p, 0, keys_for(p.rows)), Error);
  EXPECT_THROW(cuda_ops->its_sample(p, 2, keys_for(p.rows + 1)), Error);
}

TEST_F(CudaSampling, ItsSampleSkewedRowsRebuildLikeTheCpu) {
  std::vector<float> w(600, 1e-6f);
  w[17] = 1.0f;
  w[300] = 0.5f;
  const CsrMatrix p = repeated_row(w, 6);
  // Two entries take nearly all the weight: misses pass s within a warp's 32
  // draws (s from 32 on), and the rebuild falls in the middle of them.
  for (int64_t s : {2, 31, 32, 33, 50, 64, 100, 500})
    EXPECT_EQ(cuda_ops->its_sample(p, s, keys_for(6)), cpu_ops->its_sample(p, s, keys_for(6))) << s;
}

TEST_F(CudaSampling, ItsSampleLongFanoutsLikeTheCpu) {
  // Rows of ~120 entries: some sampled, some (s >= their length) taken whole.
  const CsrMatrix dense = random_csr(120, 400, 0.3, 13, /*zero_rows=*/true);
  for (int64_t s : {32, 33, 64, 100, 128, 200})
    EXPECT_EQ(cuda_ops->its_sample(dense, s, keys_for(dense.rows)), cpu_ops->its_sample(dense, s, keys_for(dense.rows)))
        << s;
  // Long rows with few positive entries among zeros: 60 of 3000, or 61 in the
  // second row (the 2999th entry too).
  std::vector<float> sparse(3000, 0.0f);
  for (size_t i = 0; i < sparse.size(); i += 50) sparse[i] = 1.0f + static_cast<float>(i % 7);
  CsrMatrix few = repeated_row(sparse, 2);
  few.values[few.rowptr[1] + 2999] = 3.0f;
  for (int64_t s : {32, 33, 59, 60, 61, 64})
    EXPECT_EQ(cuda_ops->its_sample(few, s, keys_for(2)), cpu_ops->its_sample(few, s, keys_for(2))) << s;
}

TEST_F(CudaSampling, ItsSampleSharedRowLikeFastGcn) {
  std::vector<float> w(2000);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i % 17);  // some zeros
  CsrMatrix norms = repeated_row(w, 1);
  cpu_ops->normalize_rows(norms, false);
  const SampleKeys keys{9, 0, 1, 40, {0, 1, 2, 3, 4, 5, 6, 7}};
  for (int64_t s : {8, 64, 1000})
    EXPECT_EQ(cuda_ops->its_sample(norms, s, keys), cpu_ops->its_sample(norms, s, keys)) << s;
}

TEST_F(CudaSampling, ItsSampleOnLadiesProbabilitiesOfCora) {
  const Graph g = cora();
  const CsrMatrix squared = square_values(gcn_normalize(g.adj));
  CsrMatrix p = cpu_ops->spgemm(
      indicator(g.num_vertices(), {strided(g.num_vertices(), 512, 5), strided(g.num_vertices(), 512, 3, 1)}), squared);
  cpu_ops->normalize_rows(p, false);
  const SampleKeys keys{42, 2, 0, 7, {0, 1, 2}};
  for (int64_t s : {32, 64, 512}) EXPECT_EQ(cuda_ops->its_sample(p, s, keys), cpu_ops->its_sample(p, s, keys)) << s;
}

// The gather op on LADIES' P (one row per minibatch) and FastGCN's shared row:
// each block's own vertices, vertices outside its row of P (absent entries read
// 0), and an empty block.
TEST_F(CudaSampling, GatherEqualsCpu) {
  const Graph g = cora();
  const auto m = prepare_layerwise_matrices(g.adj);
  const int64_t n = g.num_vertices();
  const std::vector<vid_t> first = strided(n, 512, 5), second = strided(n, 300, 3, 1);
  CsrMatrix p = cpu_ops->spgemm(indicator(n, {first, second, {}}), m->squared);
  cpu_ops->normalize_rows(p, false);
  std::vector<vid_t> at = first;
  std::vector<char> in_row(n, 0);
  for (int64_t e = p.rowptr[0]; e < p.rowptr[1]; ++e) in_row[p.colidx[e]] = 1;
  std::vector<vid_t> outside;
  for (vid_t v = 0; v < n && outside.size() < 40; ++v)
    if (!in_row[v]) outside.push_back(v);
  ASSERT_EQ(outside.size(), 40u) << "cora has vertices outside the first row of P";
  at.insert(at.end(), outside.begin(), outside.end());
  const int64_t first_end = static_cast<int64_t>(at.size());
  at.insert(at.end(), second.begin(), second.end());
  const Offsets offsets{0, first_end, static_cast<int64_t>(at.size()), static_cast<int64_t>(at.size())};
  EXPECT_EQ(cuda_ops->gather(p, at, offsets), cpu_ops->gather(p, at, offsets)) << "LADIES";
  EXPECT_EQ(cuda_ops->gather(m->column_norms, at, offsets), cpu_ops->gather(m->column_norms, at, offsets)) << "FastGCN";
  // The CPU's messages.
  testing::expect_error(
      [&] {
        cuda_ops->gather(m->column_norms, {0, n}, {0, 1, 2});
      },
      "gather: id " + std::to_string(n) + " out of range for " + std::to_string(n) + " columns");
  testing::expect_error([&] { cuda_ops->gather(p, {0, 1}, {0, 2}); }, "gather: 1 blocks for 3 rows of P");
}

// entry_positions on Cora: rows of the graph (repeated, in any order) with all
// their entries (every one found), and random entries over renamed columns
// (most absent).
TEST_F(CudaSampling, EntryPositionsEqualCpu) {
  const Graph g = cora();
  const int64_t n = g.num_vertices();
  const std::vector<vid_t> rows = strided(n, 400, 7);
  std::vector<vid_t> identity(n), renamed(n);
  for (int64_t j = 0; j < n; ++j) identity[j] = j, renamed[j] = (j * 13 + 1) % n;
  const CsrMatrix whole_rows = cpu_ops->select_rows(g.adj, rows);
  const std::vector<vid_t> found = cpu_ops->entry_positions(g.adj, rows, whole_rows, identity);
  EXPECT_EQ(std::count(found.begin(), found.end(), -1), 0);
  EXPECT_EQ(cuda_ops->entry_positions(g.adj, rows, whole_rows, identity), found);
  const CsrMatrix random = testing::random_csr(static_cast<int64_t>(rows.size()), n, 0.01, 5);
  EXPECT_EQ(cuda_ops->entry_positions(g.adj, rows, random, renamed),
            cpu_ops->entry_positions(g.adj, rows, random, renamed));
  testing::expect_error([&] { cuda_ops->entry_positions(g.adj, {0}, random, renamed); },
                        "entry_positions: 1 row ids for " + std::to_string(rows.size()) +
                            " rows of the sampled matrix");
}

void expect_sample_rows_equal(testing::HostOps& cuda, testing::HostOps& cpu, const CsrMatrix& a, bool uniform) {
  const std::vector<vid_t> rows{3, 0, 7, 7, 12, 1, 30, 29, 5, 18, 22, 9};
  const SampleKeys keys{77, 2, 1, 40, {0, 5, 5, 12}};
  for (int64_t s : {1, 2, 9, 15, 30, 32, 33, 64, 100})
    EXPECT_EQ(cuda.sample_rows(a, rows, s, keys, uniform), cpu.sample_rows(a, rows, s, keys, uniform)) << "s " << s;
}

// LABOR's rows decided on the device: the CPU's decisions on unweighted and
// weighted rows, rows that keep everything (s·p >= 1) and empty rows.
TEST_F(CudaSampling, LaborSampleRowsEqualsCpu) {
  const std::vector<vid_t> rows{3, 0, 7, 7, 12, 1, 30, 29, 5, 18, 22, 9};
  const SampleKeys keys{77, 2, 1, 40, {0, 5, 5, 12}};
  for (const CsrMatrix& a :
       {uniform_rows_matrix(31, 300, 4), random_csr(31, 300, 0.5, 5, /*zero_rows=*/true), random_csr(31, 40, 0.3, 6)})
    for (int64_t s : {1, 3, 10, 64, 400})
      EXPECT_EQ(cuda_ops->labor_sample_rows(a, rows, s, keys), cpu_ops->labor_sample_rows(a, rows, s, keys))
          << "s " << s;
  const Graph g = cora();
  const std::vector<vid_t> frontier = strided(g.num_vertices(), 500, 7);
  const SampleKeys cora_keys{3, 0, 2, 9, {0, 250, 500}};
  EXPECT_EQ(cuda_ops->labor_sample_rows(g.adj, frontier, 5, cora_keys),
            cpu_ops->labor_sample_rows(g.adj, frontier, 5, cora_keys));
}

// DGS's guided rows decided on the device: the CPU's decisions with importance 1,
// with listed columns, and with an own range and other columns weighing less;
// an importance kept on the device is replaced when another is given.
TEST_F(CudaSampling, GuidedSampleRowsEqualsCpu) {
  const std::vector<vid_t> rows{3, 0, 7, 7, 12, 1, 30, 29, 5, 18, 22, 9};
  const SampleKeys keys{77, 2, 1, 40, {0, 5, 5, 12}};
  std::vector<vid_t> odd;
  for (vid_t t = 1; t < 300; t += 2) odd.push_back(t);
  const ColumnImportance everywhere;
  const ColumnImportance listed(odd, std::vector<float>(odd.size(), 0.2f));
  const ColumnImportance ranged({5, 250}, {0.5f, 0.125f}, 100, 200, 0.3f);
  for (const CsrMatrix& a :
       {uniform_rows_matrix(31, 300, 4), random_csr(31, 300, 0.5, 5, /*zero_rows=*/true), random_csr(31, 40, 0.3, 6)})
    for (const ColumnImportance* w : {&everywhere, &listed, &ranged, &listed})
      for (int64_t s : {1, 3, 10, 64, 400})
        EXPECT_EQ(cuda_ops->guided_sample_rows(a, rows, s, *w, keys), cpu_ops->guided_sample_rows(a, rows, s, *w, keys))
            << "s " << s;
  const Graph g = cora();
  const std::vector<vid_t> frontier = strided(g.num_vertices(), 500, 7);
  const SampleKeys cora_keys{3, 0, 2, 9, {0, 250, 500}};
  const ColumnImportance cora_w({10, 400, 2000}, {0.1f, 0.9f, 0.4f}, 0, 1200, 0.25f);
  EXPECT_EQ(cuda_ops->guided_sample_rows(g.adj, frontier, 5, cora_w, cora_keys),
            cpu_ops->guided_sample_rows(g.adj, frontier, 5, cora_w, cora_keys));
}

TEST_F(CudaSampling, SampleRowsUniformAndWeightedEqualCpu) {
  for (uint64_t seed = 1; seed <= 3; ++seed)
    expect_sample_rows_equal(*cuda_ops, *cpu_ops, uniform_rows_matrix(31, 40, seed), true);
  expect_sample_rows_equal(*cuda_ops, *cpu_ops, random_csr(31, 40, 0.6, 3, /*zero_rows=*/true), false);
  // Rows of ~90 or ~150 entries: fanouts from 32 on are drawn by a warp per row.
  expect_sample_rows_equal(*cuda_ops, *cpu_ops, uniform_rows_matrix(31, 300, 4), true);
  expect_sample_rows_equal(*cuda_ops, *cpu_ops, random_csr(31, 300, 0.5, 5, /*zero_rows=*/true), false);
  // Rows one longer than s (16 and 33 entries): many redraws and rebuilds.
  for (int64_t len : {16, 33}) {
    const CsrMatrix dense = repeated_row(std::vector<float>(len, 1.0f), 31);
    expect_sample_rows_equal(*cuda_ops, *cpu_ops, dense, true);
    expect_sample_rows_equal(*cuda_ops, *cpu_ops, dense, false);
  }
}

// Draws with replacement on Cora (uniform and weighted rows, short and long s):
// picks, values and positions equal to the CPU's.
TEST_F(CudaSampling, SampleRowsWithReplacementEqualsCpu) {
  const Graph c = cora();
  CsrMatrix weighted = c.adj;
  for (int64_t e = 0; e < weighted.nnz(); ++e) weighted.values[e] = static_cast<float>(1 + e % 7);
  const std::vector<vid_t> frontier = strided(c.adj.rows, 900, 7);
  const SampleKeys keys{4, 1, 2, 3, {0, 300, 600, 900}};
  for (int64_t s : {1, 10, 70}) {
    EXPECT_EQ(cuda_ops->sample_rows_with_replacement(c.adj, frontier, s, keys, true),
              cpu_ops->sample_rows_with_replacement(c.adj, frontier, s, keys, true))
        << "s = " << s;
    EXPECT_EQ(cuda_ops->sample_rows_with_replacement(weighted, frontier, s, keys, false),
              cpu_ops->sample_rows_with_replacement(weighted, frontier, s, keys, false))
        << "s = " << s;
  }
}

TEST_F(CudaSampling, SampleRowsOnRealGraphsEqualCpu) {
  const Graph c = cora(), e = email();
  for (const CsrMatrix* adj : {&c.adj, &e.adj}) {
    const std::vector<vid_t> frontier = strided(adj->rows, 900, 7);
    const SampleKeys keys{1, 0, 0, 3, {0, 300, 600, 900}};
    for (int64_t s : {5, 10, 25})
      EXPECT_EQ(cuda_ops->sample_rows(*adj, frontier, s, keys, true),
                cpu_ops->sample_rows(*adj, frontier, s, keys, true));
    CsrMatrix weighted = *adj;  // a weighted copy: the general path
    weighted.values.resize(weighted.nnz());
    for (int64_t i = 0; i < weighted.nnz(); ++i) weighted.values[i] = 1.0f + static_cast<float>((i * 7919) % 13);
    EXPECT_EQ(cuda_ops->sample_rows(weighted, frontier, 10, keys, false),
              cpu_ops->sample_rows(weighted, frontier, 10, keys, false));
  }
}

// ---- frontier walk -------------------------------------------------------------

// The walk on the device pops the CPU's vertices, for several compaction regimes
// (enlargement) and walk lengths, including walks that stop at dead ends; its
// result, the pops of each minibatch as a row, is the CPU backend's.
TEST_F(CudaSampling, FrontierWalkPopsTheCpusVertices) {
  for (const Graph& g : {cora(), email()}) {
    const Matrix adj = cuda->register_graph(g.adj);
    const std::vector<vid_t> roots = strided(g.num_vertices(), 600, 7);
    const Offsets offsets{0, 200, 450, 450, 600};  // an empty frontier among them
    const BlockedIds resident{cuda->upload_ids(roots), offsets};
    for (double enlargement : {1.0, 1.5, kFrontierEnlargement, 8.0})
      for (int64_t steps : {0, 1, 40, 3000}) {
        const FrontierKeys keys{5, 1, 10};
        EXPECT_EQ(cuda->to_host(cuda->frontier_walk(adj, resident, steps, keys, enlargement)),
                  popped_sets(frontier_sample(g.adj, roots, offsets, steps, keys, enlargement), g.num_vertices()))
            << g.num_vertices() << " vertices, enlargement " << enlargement << ", " << steps << " steps";
      }
  }
  const Matrix adj = cuda->register_graph(cora().adj);
  testing::expect_error(
      [&] {
        cuda->frontier_walk(adj, {cuda->upload_ids({0, 99999}), {0, 2}}, 5, {}, 2.0);
      },
      "frontier_sample: root 99999 out of range");
  testing::expect_error(
      [&] {
        cuda->frontier_walk(adj, {cuda->upload_ids({0, 1}), {0, 3}}, 5, {}, 2.0);
      },
      "frontier_sample: root offsets");
}

// Leaves around a hub: when the hub joins a frontier of leaves the walk outgrows
// its first pin buffer and is walked again with a larger one, to the same pops.
TEST_F(CudaSampling, FrontierWalkThroughAHubEqualsTheCpu) {
  const int64_t n = 20000;
  std::vector<int64_t> rows, cols;
  for (int64_t leaf = 1; leaf < n; ++leaf) {
    rows.push_back(0), cols.push_back(leaf);
    rows.push_back(leaf), cols.push_back(0);
  }
  const CsrMatrix star = csr_from_triples(n, n, rows, cols, {});
  const std::vector<vid_t> roots = strided(n, 64, 13, 1);
  const Offsets offsets{0, 16, 64};
  for (int64_t steps : {1, 2, 50, 500}) {
    const FrontierKeys keys{9, 0, 3};
    EXPECT_EQ(cuda->to_host(cuda->frontier_walk(cuda->register_graph(star), {cuda->upload_ids(roots), offsets}, steps,
                                                keys, kFrontierEnlargement)),
              popped_sets(frontier_sample(star, roots, offsets, steps, keys), n))
        << steps << " steps";
  }
}

// ---- tallies -------------------------------------------------------------------

// The vertex and entry tallies of a few rounds of blocks, and the rows they
// rescale, as one backend computes them; a kept handle is not changed by a later
// tally (the copy path), the handle moved in is added to in place.
struct TallyRun {
  std::vector<int64_t> vertex, entry, vertex_after_one_round;
  CsrMatrix scaled;
};
TallyRun run_tallies(Backend& b, const CsrMatrix& a, const std::vector<std::vector<vid_t>>& rounds,
                     const std::vector<Offsets>& offsets) {
  const Matrix da = b.register_graph(a);
  Counts vertex, entry, kept;
  for (size_t r = 0; r < rounds.size(); ++r) {
    const BlockedIds blocks{b.upload_ids(rounds[r]), offsets[r]};
    vertex = b.tally_ids(std::move(vertex), a.rows, blocks.ids);
    if (r == 0) kept = vertex;  // shared from here on: tallied into a copy
    entry = b.tally_induced_entries(std::move(entry), da, blocks);
  }
  TallyRun out;
  out.scaled = b.to_host(b.normalize_rows_by_tallies(da, vertex, entry));
  out.vertex = b.ids_to_host(vertex);
  out.entry = b.ids_to_host(entry);
  out.vertex_after_one_round = b.ids_to_host(kept);
  return out;
}

TEST_F(CudaSampling, TalliesEqualTheCpusOnRandomGraphsAndRealOnes) {
  const CsrMatrix random = random_csr(300, 300, 0.05, 3, /*zero_rows=*/true);
  for (const CsrMatrix& a : {random, gcn_normalize(cora().adj), gcn_normalize(email().adj)}) {
    std::vector<std::vector<vid_t>> rounds;
    std::vector<Offsets> offsets;
    for (uint64_t seed : {1, 2, 3}) {
      // Blocks of distinct ids: each block's ids are strided without repeats.
      std::vector<vid_t> ids;
      Offsets o{0};
      for (int64_t g = 0; g < 5; ++g) {
        const int64_t size = g == 2 ? 0 : std::min<int64_t>(a.rows, 40 + 30 * g);
        std::vector<vid_t> block = strided(a.rows, a.rows, 7, static_cast<int64_t>(seed) + g);
        std::sort(block.begin(), block.end());
        block.erase(std::unique(block.begin(), block.end()), block.end());
        std::rotate(block.begin(), block.begin() + (seed * 13 + g) % block.size(), block.end());
        ids.insert(ids.end(), block.begin(), block.begin() + std::min<int64_t>(size, block.size()));
        o.push_back(static_cast<int64_t>(ids.size()));
      }
      rounds.push_back(ids);
      offsets.push_back(o);
    }
    const TallyRun on_cuda = run_tallies(*cuda, a, rounds, offsets), on_cpu = run_tallies(*cpu, a, rounds, offsets);
    EXPECT_EQ(on_cuda.vertex, on_cpu.vertex) << a.shape();
    EXPECT_EQ(on_cuda.entry, on_cpu.entry) << a.shape();
    EXPECT_EQ(on_cuda.vertex_after_one_round, on_cpu.vertex_after_one_round) << a.shape();
    EXPECT_EQ(on_cuda.scaled, on_cpu.scaled) << a.shape();
  }
}

TEST_F(CudaSampling, TalliesRefuseWhatTheCpuRefuses) {
  const Matrix a = cuda->register_graph(random_csr(10, 10, 0.3, 4));
  testing::expect_error(
      [&] {
        cuda->tally_ids(Counts{}, 5, cuda->upload_ids({1, 7}));
      },
      "tally_ids: id 7 out of range for 5 tallies");
  testing::expect_error(
      [&] {
        cuda->tally_induced_entries(Counts{}, a, {cuda->upload_ids({1, 2}), {0, 3}});
      },
      "tally_induced_entries: block offsets");
  testing::expect_error(
      [&] {
        cuda->tally_induced_entries(cuda->upload_ids({0}), a, {cuda->upload_ids({1}), {0, 1}});
      },
      "tally_induced_entries: 1 tallies where");
  testing::expect_error([&] { cuda->normalize_rows_by_tallies(a, cuda->upload_ids({1}), cuda->upload_ids({1})); },
                        "normalize_rows_by_tallies: 1 row and 1 entry tallies");
}

// ---- compact_columns -----------------------------------------------------------

class CudaCompact : public CudaVersusCpu {};

void expect_compact_equal(const CompactResult& got, const CompactResult& want) {
  EXPECT_EQ(got.adj, want.adj);
  EXPECT_EQ(got.vertices, want.vertices);
  EXPECT_EQ(got.col_offsets, want.col_offsets);
}

// The picks' positions in A (what names a sampled edge): the CPU's, drawn,
// masked (composed on the device, then located) and carried through compaction.
TEST_F(CudaSampling, SampleRowsPositionsEqualCpu) {
  const Graph c = cora();
  const std::vector<vid_t> frontier = strided(c.adj.rows, 900, 7);
  const SampleKeys keys{1, 0, 0, 3, {0, 300, 600, 900}};
  const CsrMatrix mask = cpu_ops->select_rows(c.adj, strided(c.adj.rows, 900, 5));
  for (int64_t s : {2, 10}) {
    EXPECT_EQ(cuda_ops->sample_rows_positions(c.adj, frontier, s, keys, true),
              cpu_ops->sample_rows_positions(c.adj, frontier, s, keys, true));
    EXPECT_EQ(cuda_ops->sample_rows_positions(c.adj, frontier, s, keys, true, &mask),
              cpu_ops->sample_rows_positions(c.adj, frontier, s, keys, true, &mask));
    EXPECT_EQ(cuda_ops->labor_sample_rows_positions(c.adj, frontier, s, keys),
              cpu_ops->labor_sample_rows_positions(c.adj, frontier, s, keys));
  }
  for (const testing::CompactCase& k : {testing::compact_two_minibatches(), testing::compact_random()}) {
    std::vector<vid_t> on_cuda(k.s.nnz()), on_cpu;
    for (int64_t e = 0; e < k.s.nnz(); ++e) on_cuda[e] = 1000 + 3 * e;
    on_cpu = on_cuda;
    expect_compact_equal(cuda_ops->compact_columns_carrying(k.s, k.offsets, k.leading, k.offsets, on_cuda),
                         cpu_ops->compact_columns_carrying(k.s, k.offsets, k.leading, k.offsets, on_cpu));
    EXPECT_EQ(on_cuda, on_cpu);
  }
}

// Temporal draws (uniform and last) on Cora, entry times spread over 0..99 and
// three blocks' bounds: picks, values and positions equal to the CPU's.
TEST_F(CudaSampling, SampleRowsBeforeEqualsCpu) {
  const Graph c = cora();
  const std::vector<vid_t> frontier = strided(c.adj.rows, 900, 7);
  const SampleKeys keys{1, 0, 0, 3, {0, 300, 600, 900}};
  std::vector<int64_t> times(c.adj.nnz());
  for (int64_t e = 0; e < c.adj.nnz(); ++e) times[e] = (e * 37) % 100;
  for (TemporalStrategy strategy : {TemporalStrategy::uniform, TemporalStrategy::last})
    for (int64_t s : {2, 40}) {
      const auto on_cuda = cuda_ops->sample_rows_before(c.adj, frontier, s, keys, times, {30, 99, 0}, strategy);
      const auto on_cpu = cpu_ops->sample_rows_before(c.adj, frontier, s, keys, times, {30, 99, 0}, strategy);
      EXPECT_EQ(on_cuda.first, on_cpu.first) << "s = " << s;
      EXPECT_EQ(on_cuda.second, on_cpu.second) << "s = " << s;
      EXPECT_GT(on_cpu.first.nnz(), 0);
    }
  // The early rows temporal LABOR draws from (a pattern's values read as 1 on the device).
  CsrMatrix pattern = c.adj;
  pattern.values.clear();
  const CsrMatrix early = cpu_ops->select_rows_before(c.adj, frontier, keys.row_offsets, times, {30, 99, 0});
  EXPECT_EQ(cuda_ops->select_rows_before(c.adj, frontier, keys.row_offsets, times, {30, 99, 0}), early);
  const CsrMatrix early_pattern = cuda_ops->select_rows_before(pattern, frontier, keys.row_offsets, times, {30, 99, 0});
  EXPECT_EQ(early_pattern.rowptr, early.rowptr);
  EXPECT_EQ(early_pattern.colidx, early.colidx);
  EXPECT_EQ(early_pattern.values, std::vector<float>(early.nnz(), 1.0f));
  EXPECT_GT(early.nnz(), 0);
}

TEST_F(CudaCompact, EqualsCpu) {
  for (const testing::CompactCase& c : {testing::compact_two_minibatches(), testing::compact_random()})
    expect_compact_equal(cuda_ops->compact_columns(c.s, c.offsets, c.leading, c.offsets),
                         cpu_ops->compact_columns(c.s, c.offsets, c.leading, c.offsets));
  expect_compact_equal(cuda_ops->compact_columns(CsrMatrix(0, 5), {0}, {}, {0}),
                       cpu_ops->compact_columns(CsrMatrix(0, 5), {0}, {}, {0}));
}

TEST_F(CudaCompact, RejectsRepeatedLeadingVertex) {
  testing::CompactCase c = testing::compact_repeated_leader();
  c.s.values = {1, 1};
  testing::expect_repeated_leader_error([&] { cuda_ops->compact_columns(c.s, c.offsets, c.leading, c.offsets); });
}

TEST_F(CudaCompact, GraphSageLayerEqualsTheComposedCpuOps) {
  const Graph g = cora();
  const std::vector<vid_t> frontier = strided(g.num_vertices(), 600, 13);
  const Offsets offsets{0, 200, 400, 600};
  const SampleKeys keys{7, 1, 0, 0, offsets};
  // sample_rows, mean weights, compact_columns with the frontier leading, all on one backend.
  const auto layer = [&](Backend& b) {
    const BlockedIds rows{b.upload_ids(frontier), offsets};
    Matrix s = b.normalize_rows(b.sample_rows(b.register_graph(g.adj), rows.ids, 10, keys), RowScale::mean);
    Compacted c = b.compact_columns(std::move(s), offsets, rows);
    return std::make_tuple(b.to_host(std::move(c.adj)), b.ids_to_host(std::move(c.vertices.ids)), c.vertices.offsets);
  };
  EXPECT_TRUE(layer(*cuda) == layer(*cpu));
}

TEST_F(CudaCompact, WithoutLeadingVerticesEqualsCpu) {
  for (const testing::CompactCase& c : {testing::compact_two_minibatches(), testing::compact_random()})
    expect_compact_equal(cuda_ops->compact_columns_without_leading(c.s, c.offsets),
                         cpu_ops->compact_columns_without_leading(c.s, c.offsets));
}

// Several parts sharing each block's vertex list (a heterogeneous graph's
// relations into one type): parts of different row counts and blocks (some
// empty), weighted and pattern, with and without leading vertices, with values
// carried by some parts.
TEST_F(CudaCompact, SharedEqualsCpu) {
  const testing::CompactCase c = testing::compact_random();  // 60 x 200, blocks {0, 13, 13, 40, 60}
  CsrMatrix pattern = random_csr(25, 200, 0.08, 5);
  pattern.values.clear();
  const std::vector<CsrMatrix> parts{c.s, random_csr(90, 200, 0.03, 4, /*zero_rows=*/true), pattern};
  const std::vector<Offsets> row_offsets{c.offsets, {0, 30, 31, 31, 90}, {0, 0, 10, 20, 25}};
  const auto compact = [&](Backend& b, bool leads, bool carry) {
    std::vector<Matrix> uploaded;
    std::vector<Ids> carried;
    for (size_t i = 0; i < parts.size(); ++i) {
      uploaded.push_back(b.upload(parts[i]));
      std::vector<vid_t> values(parts[i].nnz());
      std::iota(values.begin(), values.end(), static_cast<vid_t>(1000 * i));
      carried.push_back(i == 1 ? Ids{} : b.upload_ids(values));  // part 1 carries nothing
    }
    const BlockedIds leading = leads ? BlockedIds{b.upload_ids(c.leading), c.offsets}
                                     : BlockedIds{Ids{}, Offsets(c.offsets.size(), 0)};
    SharedCompacted shared =
        b.compact_columns_shared(std::move(uploaded), row_offsets, leading, carry ? &carried : nullptr);
    std::vector<CsrMatrix> adj;
    std::vector<std::vector<vid_t>> moved;
    for (Matrix& m : shared.adj) adj.push_back(b.to_host(std::move(m)));
    for (Ids& ids : carried) moved.push_back(ids.defined() ? b.ids_to_host(std::move(ids)) : std::vector<vid_t>{});
    return std::make_tuple(adj, b.ids_to_host(std::move(shared.vertices.ids)), shared.vertices.offsets, moved);
  };
  for (bool carry : {false, true}) {
    EXPECT_TRUE(compact(*cuda, true, carry) == compact(*cpu, true, carry)) << carry;
    EXPECT_TRUE(compact(*cuda, false, carry) == compact(*cpu, false, carry)) << carry;
  }
  testing::expect_error(
      [&] {
        cuda->compact_columns_shared({cuda->upload(parts[0]), cuda->upload(random_csr(4, 300, 0.5, 1))},
                                     {c.offsets, {0, 1, 2, 3, 4}}, {cuda->upload_ids(c.leading), c.offsets});
      },
      "compact_columns: the matrices' columns differ");
}

// ---- the layer-wise column set: block_indicator, reciprocals ----------------------

class CudaLayerWise : public CudaVersusCpu {};

TEST_F(CudaLayerWise, BlockIndicatorEqualsCpu) {
  const Graph g = cora();
  const int64_t n = g.num_vertices();
  std::vector<vid_t> ids = strided(n, 600, 13);
  ids.insert(ids.end(), {5, 5, 0, static_cast<vid_t>(n - 1), 5});  // repeats in the last block
  for (const Offsets& offsets : {Offsets{0, 200, 200, 605}, Offsets{0, 605}, Offsets{0, 0, 1, 605}})
    EXPECT_EQ(cuda_ops->block_indicator(ids, offsets, n), cpu_ops->block_indicator(ids, offsets, n));
  EXPECT_EQ(cuda_ops->block_indicator({}, {0, 0}, n), cpu_ops->block_indicator({}, {0, 0}, n));
  testing::expect_error(
      [&] {
        cuda_ops->block_indicator({1, 9}, {0, 2}, 5);
      },
      "block_indicator: id 9 out of range for 5 columns");
}

TEST_F(CudaLayerWise, ReciprocalsAreBitIdentical) {
  const CsrMatrix p = random_csr(30, 200, 0.2, 9);
  for (float factor : {1.0f, 3.0f, 512.0f})
    EXPECT_EQ(cuda_ops->reciprocals(p.values, factor), cpu_ops->reciprocals(p.values, factor)) << factor;
  EXPECT_TRUE(cuda_ops->reciprocals({}, 2).empty());
}

// The layer-wise sampler's extraction inputs on one backend: LADIES' P from the
// frontier indicator, the draw compacted with the frontier leading, the weights.
TEST_F(CudaLayerWise, LadiesColumnsOnCoraEqualTheCpu) {
  const Graph g = cora();
  const int64_t n = g.num_vertices();
  const CsrMatrix squared = square_values(gcn_normalize(g.adj));
  const std::vector<vid_t> frontier = strided(n, 400, 11, 3);
  const Offsets offsets{0, 150, 151, 400}, per_minibatch{0, 1, 2, 3};
  const auto columns = [&](Backend& b) {
    const BlockedIds blocks{b.upload_ids(frontier), offsets};
    const Matrix p =
        b.normalize_rows(b.spgemm(b.block_indicator(blocks, n), b.register_graph(squared)), RowScale::by_sum);
    Compacted c = b.compact_columns(b.its_sample(p, 64, {3, 1, 0, 0, per_minibatch}), per_minibatch, blocks);
    const Values weights = b.reciprocals(b.gather(p, c.vertices), 64.0f);
    return std::make_tuple(b.ids_to_host(c.vertices.ids), c.vertices.offsets, b.values_to_host(weights));
  };
  EXPECT_TRUE(columns(*cuda) == columns(*cpu));
}

// ---- link prediction's masks ---------------------------------------------------

class CudaMasks : public CudaVersusCpu {};

// Cora's excluded edges keyed by source, looked up for a frontier, then masked
// out of the frontier's rows, and the keyed lookups of random matrices.
TEST_F(CudaMasks, KeyedRowsAndMaskedEntriesEqualTheCpu) {
  const Graph g = cora();
  const int64_t n = g.num_vertices();
  const CsrMatrix adj = gcn_normalize(g.adj);  // values that are not all equal
  ExcludedEdges excluded;
  for (vid_t b = 0; b < 3; ++b) {
    std::vector<std::pair<vid_t, vid_t>> edges;
    for (vid_t u = b * 300; u < b * 300 + 100; ++u)
      for (int64_t e = adj.rowptr[u]; e < adj.rowptr[u + 1]; ++e) edges.emplace_back(u, adj.colidx[e]);
    excluded.add_minibatch(std::move(edges));
  }
  const ExcludedBySource keyed = excluded.by_source(n);
  const std::vector<vid_t> frontier = strided(n, 600, 2);
  for (const Offsets& offsets : {Offsets{0, 200, 200, 600}, Offsets{0, 1, 300, 600}}) {
    const CsrMatrix mask = cpu_ops->select_rows_by_key(keyed.targets, keyed.keys, keyed.key_offsets, frontier, offsets);
    EXPECT_GT(mask.nnz(), 0);
    EXPECT_EQ(cuda_ops->select_rows_by_key(keyed.targets, keyed.keys, keyed.key_offsets, frontier, offsets), mask);
    const CsrMatrix rows = select_rows(adj, frontier);
    EXPECT_EQ(cuda_ops->mask_entries(rows, mask), cpu_ops->mask_entries(rows, mask));
  }
  const CsrMatrix m = random_csr(40, 90, 0.1, 5), p = random_csr(70, 90, 0.3, 6), mask = random_csr(70, 90, 0.2, 7);
  std::vector<vid_t> keys;
  for (vid_t v = 0; v < 40; ++v) keys.push_back(v % 20 * 3);  // two blocks of 20 ascending keys
  const std::vector<vid_t> rows = strided(60, 70, 1);
  EXPECT_EQ(cuda_ops->select_rows_by_key(m, keys, {0, 20, 40}, rows, {0, 35, 70}),
            cpu_ops->select_rows_by_key(m, keys, {0, 20, 40}, rows, {0, 35, 70}));
  EXPECT_EQ(cuda_ops->mask_entries(p, mask), cpu_ops->mask_entries(p, mask));
  EXPECT_EQ(cuda_ops->pad_row_blocks(p, {0, 0, 30, 31, 70}, {0, 5, 35, 40, 200}),
            cpu_ops->pad_row_blocks(p, {0, 0, 30, 31, 70}, {0, 5, 35, 40, 200}));
  EXPECT_EQ(cuda_ops->sequence_ids(1000), cpu_ops->sequence_ids(1000));
  EXPECT_TRUE(cuda_ops->sequence_ids(0).empty());
  // Runs of every length (empty ones included) and a gather through them.
  std::mt19937_64 rng(9);
  std::vector<int64_t> starts;
  Offsets run_offsets{0};
  for (int i = 0; i < 3000; ++i) {
    starts.push_back(static_cast<int64_t>(rng() % 5000));
    run_offsets.push_back(run_offsets.back() + static_cast<int64_t>(rng() % 7));
  }
  const std::vector<vid_t> runs = cpu_ops->sequence_runs(starts, run_offsets);
  EXPECT_EQ(cuda_ops->sequence_runs(starts, run_offsets), runs);
  const std::vector<vid_t> ids = strided(100000, 5006, 3);
  EXPECT_EQ(cuda_ops->gather_ids(ids, runs), cpu_ops->gather_ids(ids, runs));
  EXPECT_TRUE(cuda_ops->sequence_runs({}, {0}).empty());
  testing::expect_error([&] { cuda_ops->gather_ids(ids, {5006}); },
                        "gather_ids: position 5006 out of range for 5006 ids");
  // Each id's place when grouped by range (the process row's chunks), an empty range among them.
  for (const std::vector<vid_t>& bounds : {std::vector<vid_t>{0, 5010}, std::vector<vid_t>{0, 1200, 1200, 3000, 5010}})
    EXPECT_EQ(cuda_ops->range_positions(runs, bounds), cpu_ops->range_positions(runs, bounds));
  EXPECT_TRUE(cuda_ops->range_positions({}, {0, 1}).empty());
  testing::expect_error(
      [&] {
        cuda_ops->range_positions({3, 12}, {0, 5, 10});
      },
      "range_positions: an id is outside [0, 10)");
}

// ---- rows asked of their owners (distributed product) -----------------------------

class CudaRowRequests : public CudaVersusCpu {};

// request_rows and an owner's sample_requested_rows on the device give the CPU's
// requests and draws bit for bit (uniform and weighted rows, LABOR), and its arrays
// give each row's length as a transport sends it.
TEST_F(CudaRowRequests, RequestsAndOwnersDrawsEqualTheCpu) {
  const Graph g = cora();
  const SampleKeys keys{7, 2, 1, 40, {0, 700, 701, 2000}};
  const std::vector<vid_t> rows = strided(g.num_vertices(), 2000, 7);
  const std::vector<vid_t> bounds{0, 900, 900, 1800, static_cast<vid_t>(g.num_vertices())};
  const vid_t first = 900, end = 1800;
  const CsrMatrix block = select_rows(g.adj, strided(end, end - first, 1, first));
  const CsrMatrix weighted = testing::random_csr(end - first, g.num_vertices(), 0.01, 9);
  for (Backend* b : {cpu.get(), cuda.get()}) ASSERT_NE(b->resident_arrays(), nullptr);
  const auto on = [&](Backend& b, const CsrMatrix& owner_block, RowDraw draw) {
    const RequestedRows r = b.request_rows(b.upload_ids(rows), g.num_vertices(), keys, bounds);
    const std::vector<int64_t> asked{r.counts[2]};
    const std::vector<vid_t> words = b.ids_to_host(r.words);
    const int64_t at = 2 * (r.counts[0] + r.counts[1]);
    const Ids mine = b.upload_ids(std::vector<vid_t>(words.begin() + at, words.begin() + at + 2 * r.counts[2]));
    const AnsweredRows answer =
        b.sample_requested_rows(b.register_graph(owner_block), mine, asked, first, 5, {7, 2, 1}, draw);
    return std::make_tuple(words, b.ids_to_host(r.back), r.counts, b.to_host(answer.rows), answer.entries);
  };
  for (const CsrMatrix* owner : {&block, &weighted})
    for (const RowDraw draw : {RowDraw::its, RowDraw::labor})
      EXPECT_TRUE(on(*cuda, *owner, draw) == on(*cpu, *owner, draw));
  const CsrMatrix some = testing::random_csr(40, 10, 0.5, 1);
  EXPECT_EQ(cuda->ids_to_host(cuda->resident_arrays()->row_lengths(cuda->upload(some))),
            cpu->ids_to_host(cpu->resident_arrays()->row_lengths(cpu->upload(some))));
}

// ---- random walks' steps ---------------------------------------------------------

class CudaWalkSteps : public CudaVersusCpu {};

// Cora's walkers stepped on the device and on the CPU: each step's picks, where
// the walkers are, and their visits summed, bit for bit.
TEST_F(CudaWalkSteps, AddEntriesAndFirstColumnsEqualTheCpu) {
  const Graph g = cora();
  const CsrMatrix adj = symmetrize(g.adj);
  const std::vector<vid_t> roots = strided(g.num_vertices(), 500, 5);
  const auto walk = [&](Backend& b) {
    const Matrix graph = b.register_graph(adj);
    Ids position = b.upload_ids(roots);
    Matrix visited;
    for (uint32_t step = 0; step < 3; ++step) {
      const Matrix picks = b.sample_rows(graph, position, 1, {7, 0, step, 0, {0, 200, 500}});
      position = b.first_columns(picks, position);
      visited = visited.defined() ? b.add_entries(visited, picks) : picks;
    }
    return std::make_pair(b.ids_to_host(position), b.to_host(visited));
  };
  EXPECT_TRUE(walk(*cuda) == walk(*cpu));
  const CsrMatrix a = random_csr(80, 50, 0.2, 3), c = random_csr(80, 50, 0.1, 4);
  EXPECT_EQ(cuda_ops->add_entries(a, c), cpu_ops->add_entries(a, c));
  EXPECT_EQ(cuda_ops->add_entries(CsrMatrix(3, 5), CsrMatrix(3, 5)),
            cpu_ops->add_entries(CsrMatrix(3, 5), CsrMatrix(3, 5)));
  const std::vector<vid_t> fallback = strided(1000, 80, 1, 900);
  EXPECT_EQ(cuda_ops->first_columns(random_csr(80, 50, 0.02, 5), fallback),
            cpu_ops->first_columns(random_csr(80, 50, 0.02, 5), fallback));
}

// ---- memory ----------------------------------------------------------------------

class CudaMemory : public CudaVersusCpu {};

TEST_F(CudaMemory, ARegisteredGraphIsUploadedOnce) {
  const Graph g = cora();
  const Matrix adj = cuda->register_graph(g.adj);
  EXPECT_GE(cuda->device_counters().resident_bytes, g.adj.nnz() * 4);
  const Ids frontier = cuda->upload_ids(strided(g.num_vertices(), 100, 3));
  const SampleKeys keys = keys_for(100);
  const int64_t before = cuda->device_counters().bytes_to_device;
  const Matrix first = cuda->sample_rows(adj, frontier, 5, keys);
  const Matrix second = cuda->sample_rows(adj, frontier, 5, keys);
  EXPECT_LT(cuda->device_counters().bytes_to_device - before, g.adj.nnz() * 4)
      << "sampling a registered graph must not upload it again";
  EXPECT_EQ(cuda->to_host(first), cuda->to_host(second));
}

class CudaSmallMemory : public CudaVersusCpu {
  CudaOptions options() const override {
    CudaOptions o;
    o.memory_limit_bytes = int64_t{1} << 20;
    return o;
  }
};

TEST_F(CudaSmallMemory, RunningOutIsAnErrorWithNumbers) {
  const Graph g = email();
  try {
    cuda_ops->spgemm(g.adj, g.adj);
    FAIL() << "1 MiB cannot hold A·A of email-Eu-core";
  } catch (const DeviceOutOfMemory& e) {
    EXPECT_GT(e.requested_bytes, 0);
    EXPECT_NE(std::string(explain_out_of_memory(e, 8).what()).find("GPU out of memory"), std::string::npos);
  }
  // The backend stays usable after the error.
  const CsrMatrix a = random_csr(10, 10, 0.3, 1), b = random_csr(10, 10, 0.3, 2);
  EXPECT_EQ(cuda_ops->spgemm(a, b), cpu_ops->spgemm(a, b));
}

}  // namespace
}  // namespace matsamp
