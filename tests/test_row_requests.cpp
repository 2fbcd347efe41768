// request_rows and sample_requested_rows (ops.h) against their definitions: the
// requests name each row in range with its key, grouped by owner; an owner's draw of
// its block is the draw of the same rows where they were asked, bit for bit. On the
// CPU ops, the CPU backend and its arrays for a transport (the CUDA ones:
// test_cuda_ops.cpp; the exchange between ranks: mpi_tests' PartitionedAtOwners).
#include <gtest/gtest.h>

#include <random>

#include "backend/backend.h"
#include "backend/resident_arrays.h"
#include "error_checks.h"
#include "io/graph_io.h"
#include "ops/ops.h"
#include "reference.h"
#include "test_data.h"

namespace matsamp {
namespace {

const SampleKeys kKeys{7, 2, 1, 40, {0, 30, 31, 90}};

std::vector<vid_t> random_rows(int64_t m, int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<vid_t> rows(m);
  for (vid_t& v : rows) v = static_cast<vid_t>(rng() % n);  // repeats included
  return rows;
}

TEST(RequestRows, NamesEachRowInRangeWithItsKeyGroupedByOwner) {
  const std::vector<vid_t> rows = random_rows(90, 100, 3);
  const std::vector<vid_t> bounds{10, 40, 40, 75};  // an empty range among them
  const RowRequests r = request_rows(rows, 100, kKeys, bounds);
  std::vector<int64_t> in_range;
  for (int64_t i = 0; i < 90; ++i)
    if (rows[i] >= 10 && rows[i] < 75) in_range.push_back(i);
  ASSERT_EQ(r.back.size(), in_range.size());
  ASSERT_EQ(r.words.size(), 2 * in_range.size());
  std::vector<int64_t> counts(3, 0);
  for (size_t j = 0; j < in_range.size(); ++j) {
    const int64_t row = in_range[j], i = r.back[j];
    const RandomKey key = row_key(kKeys, row);
    EXPECT_EQ(static_cast<uint64_t>(r.words[2 * i]), key.minibatch);
    EXPECT_EQ(requested_row(r.words[2 * i + 1]), key.row);
    EXPECT_EQ(requested_vertex(r.words[2 * i + 1]), rows[row]);
    ++counts[rows[row] < 40 ? 0 : 2];
  }
  EXPECT_EQ(r.counts, counts);
  // By vertex, ties in row order: the back positions of one vertex ascend with the row.
  for (size_t i = 1; i < r.back.size(); ++i) {
    const vid_t a = requested_vertex(r.words[2 * i - 1]), b = requested_vertex(r.words[2 * i + 1]);
    EXPECT_LE(a, b);
  }
  for (size_t x = 0; x < in_range.size(); ++x)
    for (size_t y = x + 1; y < in_range.size(); ++y)
      if (rows[in_range[x]] == rows[in_range[y]]) EXPECT_LT(r.back[x], r.back[y]);
  auto cpu = make_cpu_backend();
  const RequestedRows on_cpu = cpu->request_rows(cpu->upload_ids(rows), 100, kKeys, bounds);
  EXPECT_EQ(cpu->ids_to_host(on_cpu.words), std::vector<vid_t>(r.words.begin(), r.words.end()));
  EXPECT_EQ(cpu->ids_to_host(on_cpu.back), r.back);
  EXPECT_EQ(on_cpu.counts, r.counts);
}

TEST(RequestRows, BadInputIsAnError) {
  testing::expect_error(
      [] {
        request_rows({1, 200}, 100, {1, 0, 0, 0, {0, 2}}, {0, 100});
      },
      "request_rows: row id 200 out of range for 100 rows");
  testing::expect_error(
      [] {
        request_rows({1}, 100, {1, 0, 0, 0, {0, 2}}, {0, 100});
      },
      "request_rows: 1 rows but the keys name 2");
  testing::expect_error(
      [] {
        request_rows({1}, 100, {1, 0, 0, 0, {0, 1}}, {50, 10});
      },
      "request_rows: the owners' bounds must ascend");
}

// Rows [first, end) of a as a block of its own.
CsrMatrix block_of(const CsrMatrix& a, vid_t first, vid_t end) {
  CsrMatrix b(end - first, a.cols);
  for (vid_t v = first; v < end; ++v) {
    b.colidx.insert(b.colidx.end(), a.colidx.begin() + a.rowptr[v], a.colidx.begin() + a.rowptr[v + 1]);
    b.values.insert(b.values.end(), a.values.begin() + a.rowptr[v], a.values.begin() + a.rowptr[v + 1]);
    b.rowptr[v - first + 1] = b.nnz();
  }
  return b;
}

// The owner's draw of each request equals row `row` of the draw where it was asked.
void check_owner_draws(const CsrMatrix& a, RowDraw draw, int64_t s) {
  const vid_t first = a.rows / 3, end = 2 * a.rows / 3;
  const std::vector<vid_t> rows = random_rows(90, a.rows, 11);
  const CsrMatrix asked = draw == RowDraw::labor ? labor_sample_rows(a, rows, s, kKeys)
                                                 : sample_rows(a, rows, s, kKeys, has_uniform_rows(a));
  const RowRequests r = request_rows(rows, a.rows, kKeys, {first, end});
  const CsrMatrix block = block_of(a, first, end);
  const RandomKey base{kKeys.seed, kKeys.epoch, kKeys.layer};
  const CsrMatrix drawn = sample_requested_rows(block, r.words, first, s, base, draw, has_uniform_rows(block));
  ASSERT_EQ(drawn.rows, static_cast<int64_t>(r.back.size()));
  int64_t j = 0;
  for (int64_t row = 0; row < 90; ++row) {
    if (rows[row] < first || rows[row] >= end) continue;
    const int64_t i = r.back[j++];
    const std::vector<col_t> want(asked.colidx.begin() + asked.rowptr[row],
                                  asked.colidx.begin() + asked.rowptr[row + 1]);
    const std::vector<col_t> got(drawn.colidx.begin() + drawn.rowptr[i], drawn.colidx.begin() + drawn.rowptr[i + 1]);
    EXPECT_EQ(got, want) << "row " << row;
    const std::vector<float> want_values(asked.values.begin() + asked.rowptr[row],
                                         asked.values.begin() + asked.rowptr[row + 1]);
    const std::vector<float> got_values(drawn.values.begin() + drawn.rowptr[i],
                                        drawn.values.begin() + drawn.rowptr[i + 1]);
    EXPECT_EQ(got_values, want_values) << "row " << row;
  }
  EXPECT_GT(drawn.nnz(), 0);
  // The CPU backend, in segments of askers.
  auto cpu = make_cpu_backend();
  const std::vector<int64_t> segments{j / 2, j - j / 2};
  const AnsweredRows answer = cpu->sample_requested_rows(
      cpu->register_graph(block), cpu->upload_ids(std::vector<vid_t>(r.words.begin(), r.words.end())), segments, first,
      s, base, draw);
  const CsrMatrix on_cpu = cpu->to_host(answer.rows);
  EXPECT_TRUE(on_cpu == drawn);
  EXPECT_EQ(answer.entries, (std::vector<int64_t>{drawn.rowptr[j / 2], drawn.nnz() - drawn.rowptr[j / 2]}));
}

TEST(SampleRequestedRows, OwnersDrawTheRowsAsTheyWereAsked) {
  const Graph cora = read_graph(testing::data_file("cora.npz"));
  check_owner_draws(cora.adj, RowDraw::its, 4);    // uniform rows
  check_owner_draws(cora.adj, RowDraw::labor, 4);  // LABOR's numbers per minibatch and column
  const CsrMatrix weighted = testing::random_csr(120, 120, 0.2, 5);
  check_owner_draws(weighted, RowDraw::its, 3);
  check_owner_draws(weighted, RowDraw::labor, 3);
}

TEST(SampleRequestedRows, RowsOutsideTheBlockAreErrors) {
  const CsrMatrix a = testing::random_csr(20, 20, 0.3, 2);
  const std::vector<int64_t> words{0, request_word_row(0, 35)};
  testing::expect_error([&] { sample_requested_rows(a, words, 10, 2, {}, RowDraw::its, false); },
                        "distributed product: row 35 was asked of the block [10, 30)");
  testing::expect_error([&] { sample_requested_rows(a, {1}, 0, 2, {}, RowDraw::its, false); },
                        "sample_requested_rows: 1 words are not whole requests");
  auto cpu = make_cpu_backend();
  testing::expect_error(
      [&] {
        cpu->sample_requested_rows(cpu->register_graph(a), cpu->upload_ids({0, request_word_row(0, 3)}), {2}, 0, 2, {},
                                   RowDraw::its);
      },
      "sample_requested_rows: segments of 1 askers do not fit 1 requests");
}

TEST(ResidentArrays, TheHostsArraysTakeRowsByLength) {
  auto cpu = make_cpu_backend();
  ResidentArrays* arrays = cpu->resident_arrays();
  ASSERT_NE(arrays, nullptr);
  EXPECT_EQ(arrays->memory(), ResidentArrays::Memory::host);
  Matrix m = arrays->allocate_rows(3, 10, 4);
  const WritableCsrArrays w = arrays->arrays(m);
  const int64_t lengths[] = {1, 0, 3};
  std::copy(lengths, lengths + 3, w.rowptr + 1);
  const col_t columns[] = {9, 0, 4, 7};
  const float values[] = {0.5f, 1, 2, 3};
  std::copy(columns, columns + 4, w.colidx);
  std::copy(values, values + 4, w.values);
  m = arrays->rows_from_lengths(std::move(m));
  const CsrMatrix host = cpu->to_host(m);
  EXPECT_EQ(host.rowptr, (std::vector<int64_t>{0, 1, 1, 4}));
  EXPECT_EQ(host.colidx, (std::vector<col_t>{9, 0, 4, 7}));
  EXPECT_EQ(cpu->ids_to_host(arrays->row_lengths(cpu->upload(host))), (std::vector<vid_t>{1, 0, 3}));
  Ids ids = arrays->allocate_ids(2);
  arrays->arrays(ids)[0] = 5;
  arrays->arrays(ids)[1] = 6;
  EXPECT_EQ(cpu->ids_to_host(ids), (std::vector<vid_t>{5, 6}));
  Matrix bad = arrays->allocate_rows(1, 10, 2);
  arrays->arrays(bad).rowptr[1] = 3;
  testing::expect_error([&] { arrays->rows_from_lengths(std::move(bad)); },
                        "rows_from_lengths: the lengths sum to 3 but 2 entries came");
}

}  // namespace
}  // namespace matsamp
