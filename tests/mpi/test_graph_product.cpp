// The 1.5D product P = Q·A equals the local spgemm bit for bit (sparsity-aware and
// oblivious, every valid c, process rows with different Q and different amounts of
// work), and so do the backend ops built on it.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <numeric>
#include <random>

#include "distributed/distributed_backend.h"
#include "error_checks.h"
#include "mpi_test_env.h"
#include "ops/ops.h"

namespace matsamp {
namespace {

using testing::world;
using Exchange = GraphProduct::Exchange;

// Values spread over many binades, so that summing in another order changes bits.
CsrMatrix random_matrix(int64_t rows, int64_t cols, double density, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  CsrMatrix m(rows, cols);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c)
      if (unit(rng) < density) {
        m.colidx.push_back(static_cast<col_t>(c));
        m.values.push_back(static_cast<float>(std::ldexp(0.5 + unit(rng), static_cast<int>(unit(rng) * 40) - 20)));
      }
    m.rowptr[r + 1] = m.nnz();
  }
  return m;
}

using RowWork = GraphProduct::RowWork;

struct Case {
  Exchange exchange;
  int replication;
  RowWork work;
  // Who passes its own operands: the process row, or with split row work each rank.
  int worker(const ProcessGrid& grid) const { return work == RowWork::split ? grid.rank() : grid.row(); }
};

std::vector<Case> all_cases() {
  std::vector<Case> out;
  for (int c : testing::valid_replications())
    for (Exchange e : {Exchange::sparsity_aware, Exchange::oblivious})
      for (RowWork w : {RowWork::shared, RowWork::split})
        if (c > 1 || w == RowWork::shared) out.push_back({e, c, w});
  return out;
}

std::string describe(const Case& k) {
  return std::string(k.exchange == Exchange::sparsity_aware ? "aware" : "oblivious") +
         ", c = " + std::to_string(k.replication) + (k.work == RowWork::split ? ", rows split" : "");
}

TEST(GraphProduct, EqualsTheLocalSpgemmBitForBit) {
  const CsrMatrix a = random_matrix(157, 157, 0.08, 7);
  for (const Case& k : all_cases()) {
    ProcessGrid grid(world(), k.replication);
    const DistributedCsr block = block_row_of(a, grid);
    GraphProduct product(grid, k.exchange, k.work);
    const int operand = product.add_operand(block);
    // Worker w multiplies w + 1 times, so workers run out of work at different times.
    const int w = k.worker(grid);
    for (int t = 0; t <= w; ++t) {
      const CsrMatrix q = random_matrix(9 + t, 157, 0.1, 100 * w + t);
      const CsrMatrix p = product.multiply(q, operand);
      EXPECT_TRUE(p == spgemm(q, a)) << describe(k) << ", worker " << w << ", product " << t;
    }
    product.finish();
  }
}

// Few nonzeros over many columns, all among 64 columns spread over the range, so
// rows share columns and their sums have several terms.
CsrMatrix spread_matrix(int64_t rows, int64_t cols, int per_row, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  CsrMatrix m(rows, cols);
  for (int64_t r = 0; r < rows; ++r) {
    std::map<col_t, float> row;
    for (int k = 0; k < per_row; ++k)
      row[static_cast<col_t>(rng() % 64 * (cols / 64))] =
          static_cast<float>(std::ldexp(0.5 + unit(rng), static_cast<int>(unit(rng) * 40) - 20));
    for (const auto& [c, v] : row) m.colidx.push_back(c), m.values.push_back(v);
    m.rowptr[r + 1] = m.nnz();
  }
  return m;
}

TEST(GraphProduct, EqualsTheLocalSpgemmWhenColumnsFarOutnumberTheProducts) {
  // Here the product's accumulator is sized by the terms, not by the 2^16 columns
  // (a rank's share of a large graph); the sums must still be spgemm's.
  const int64_t n = int64_t{1} << 16;
  const CsrMatrix a = spread_matrix(n, n, 6, 11);
  for (const Case& k : all_cases()) {
    ProcessGrid grid(world(), k.replication);
    GraphProduct product(grid, k.exchange, k.work);
    const DistributedCsr block = block_row_of(a, grid);
    const int operand = product.add_operand(block);
    const CsrMatrix q = spread_matrix(12, n, 5, 200 + k.worker(grid));
    EXPECT_TRUE(product.multiply(q, operand) == spgemm(q, a)) << describe(k);
    product.finish();
  }
}

TEST(GraphProduct, TheOrderOfTheSumMatters) {
  // The test above has teeth: a sum in another order gives other bits on this data.
  const CsrMatrix a = random_matrix(157, 157, 0.08, 7);
  const CsrMatrix q = random_matrix(9, 157, 0.1, 0);
  const CsrMatrix p = spgemm(q, a);
  CsrMatrix reversed_q = q;  // same product, terms added in reverse row order of A
  int64_t differing = 0;
  for (int64_t r = 0; r < q.rows; ++r) {
    std::vector<double> dummy;
    std::vector<float> sum(a.cols, 0.0f);
    for (int64_t e = q.rowptr[r + 1] - 1; e >= q.rowptr[r]; --e)
      for (int64_t f = a.rowptr[q.colidx[e]]; f < a.rowptr[q.colidx[e] + 1]; ++f)
        sum[a.colidx[f]] += q.values[e] * a.values[f];
    for (int64_t e = p.rowptr[r]; e < p.rowptr[r + 1]; ++e) differing += sum[p.colidx[e]] != p.values[e];
  }
  EXPECT_GT(differing, 0);
}

TEST(DistributedBackend, RowOpsAndColumnExtractionEqualTheLocalOnes) {
  const CsrMatrix a = random_matrix(120, 120, 0.1, 11);
  auto local = make_cpu_backend();
  for (const Case& k : all_cases()) {
    ProcessGrid grid(world(), k.replication);
    const DistributedCsr block = block_row_of(a, grid);
    GraphProduct product(grid, k.exchange, k.work);
    DistributedBackend backend(product, make_cpu_backend());
    const int w = k.worker(grid);
    const Matrix distributed = backend.register_distributed(block);
    const Matrix whole = local->register_graph(a);
    EXPECT_EQ(distributed.uniform_rows(), whole.uniform_rows());
    EXPECT_EQ(distributed.nnz(), a.nnz());
    Backend& here = backend.local();  // the distributed backend's local handles

    std::mt19937_64 rng(5 + w);
    std::vector<vid_t> rows(23);
    for (vid_t& v : rows) v = static_cast<vid_t>(rng() % 120);
    rows[1] = rows[0];  // repeats are fine
    const Offsets offsets{0, 10, 10, 23};
    const Ids ids = backend.upload_ids(rows), local_ids = local->upload_ids(rows);
    EXPECT_TRUE(backend.to_host(backend.select_rows(distributed, ids)) ==
                local->to_host(local->select_rows(whole, local_ids)))
        << describe(k);
    const SampleKeys keys{3, 1, 2, 40 + w, offsets};
    for (auto where : {DistributedBackend::RowSampling::at_owner, DistributedBackend::RowSampling::fetched_rows}) {
      backend.set_row_sampling(where);
      EXPECT_TRUE(backend.to_host(backend.sample_rows(distributed, ids, 4, keys)) ==
                  local->to_host(local->sample_rows(whole, local_ids, 4, keys)))
          << describe(k) << (where == DistributedBackend::RowSampling::at_owner ? ", at owner" : ", fetched rows");
    }
    testing::expect_error(
        [&] {
          backend.sample_rows(distributed, backend.upload_ids({0, 120}), 4, {3, 1, 2, 0, {0, 2}});
        },
        "row id 120 out of range for 120");
    backend.set_row_sampling(DistributedBackend::RowSampling::at_owner);
    testing::expect_error(
        [&] {
          backend.labor_sample_rows(distributed, backend.upload_ids({0, 120}), 4, {3, 1, 2, 0, {0, 2}});
        },
        // one rank draws on its local backend; the oblivious exchange checks before fetching
        world().size() == 1 || k.exchange == GraphProduct::Exchange::oblivious
            ? "labor_sample_rows: row id 120 out of range for 120"
            : "request_rows: row id 120 out of range for 120 rows");
    testing::expect_error(
        [&] {
          backend.sample_rows(distributed, backend.upload_ids({0, 1}), 4, {3, 1, 2, 0, {0, 3}});
        },
        "2 rows selected but the keys name 3");
    const CsrMatrix q = random_matrix(3, 120, 0.2, 9 + w);
    EXPECT_TRUE(backend.to_host(backend.spgemm(here.upload(q), distributed)) == spgemm(q, a)) << describe(k);
    EXPECT_THROW(backend.spgemm(distributed, here.upload(q)), Error);

    // Column extraction, split across the process row, on a local matrix.
    const CsrMatrix r = select_rows(a, rows);
    const std::vector<vid_t> cols{5, 7, 9, 11, 3, 2, 1, 119, 60};
    const Offsets col_offsets{0, 4, 6, 9};
    std::vector<float> weights(cols.size());
    std::iota(weights.begin(), weights.end(), 1.0f);
    EXPECT_TRUE(backend.to_host(backend.select_cols_blocked(
                    here.upload(r), offsets, {here.upload_ids(cols), col_offsets}, here.upload_values(weights))) ==
                select_cols_blocked(r, offsets, cols, col_offsets, weights))
        << describe(k);
    product.finish();
  }
}

TEST(GraphProduct, SparsityAwareMovesFewerBytesThanOblivious) {
  const CsrMatrix a = random_matrix(400, 400, 0.05, 3);
  if (world().size() == 1) GTEST_SKIP() << "one rank moves nothing";
  std::map<Exchange, int64_t> bytes;
  for (Exchange e : {Exchange::sparsity_aware, Exchange::oblivious}) {
    ProcessGrid grid(world(), 1);
    const DistributedCsr block = block_row_of(a, grid);
    GraphProduct product(grid, e);
    const int operand = product.add_operand(block);
    grid.reset_counters();
    product.multiply(random_matrix(4, 400, 0.01, grid.row()), operand);
    product.finish();
    std::vector<int64_t> sent{grid.bytes_sent()};
    world().all_reduce_sum(sent);
    bytes[e] = sent[0];
  }
  EXPECT_GT(bytes[Exchange::sparsity_aware], 0);
  EXPECT_LT(bytes[Exchange::sparsity_aware] * 5, bytes[Exchange::oblivious]);
}

// Rows of 20 entries on average, 3 picks each: sampling at the owners sends back
// (8 + 3·8) bytes a row instead of (8 + 20·8), whatever the 16 bytes of its key.
TEST(GraphProduct, SamplingAtTheOwnersMovesFewerBytesThanFetchingRows) {
  const CsrMatrix a = random_matrix(400, 400, 0.05, 3);
  if (world().size() == 1) GTEST_SKIP() << "one rank moves nothing";
  std::map<DistributedBackend::RowSampling, int64_t> bytes;
  for (auto where : {DistributedBackend::RowSampling::at_owner, DistributedBackend::RowSampling::fetched_rows}) {
    ProcessGrid grid(world(), 1);
    const DistributedCsr block = block_row_of(a, grid);
    GraphProduct product(grid, Exchange::sparsity_aware);
    DistributedBackend backend(product, make_cpu_backend());
    const Matrix distributed = backend.register_distributed(block);
    backend.set_row_sampling(where);
    std::vector<vid_t> rows(100);
    for (size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<vid_t>((i * 37 + grid.row()) % 400);
    grid.reset_counters();
    backend.sample_rows(distributed, backend.upload_ids(rows), 3, {1, 0, 0, 0, {0, 100}});
    product.finish();
    std::vector<int64_t> sent{grid.bytes_sent()};
    world().all_reduce_sum(sent);
    bytes[where] = sent[0];
  }
  EXPECT_GT(bytes[DistributedBackend::RowSampling::at_owner], 0);
  EXPECT_LT(bytes[DistributedBackend::RowSampling::at_owner] * 2, bytes[DistributedBackend::RowSampling::fetched_rows]);
}

}  // namespace
}  // namespace matsamp
