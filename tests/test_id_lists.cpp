// sequence_runs, gather_ids, range_positions and pad_row_blocks (ops.h) against their
// definitions, on the CPU ops and the CPU backend (the CUDA ones: test_cuda_ops.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "backend/backend.h"
#include "error_checks.h"
#include "host_ops.h"
#include "ops/ops.h"
#include "reference.h"

namespace matsamp {
namespace {

TEST(SequenceRuns, LaysRunsOfConsecutiveIdsEndToEnd) {
  EXPECT_EQ(sequence_runs({7, 0, 3}, {0, 2, 2, 5}), (std::vector<vid_t>{7, 8, 3, 4, 5}));
  EXPECT_TRUE(sequence_runs({}, {0}).empty());
  EXPECT_EQ(sequence_runs({0}, {0, 6}), sequence_ids(6));
  // Random runs: item j of run i is starts[i] + j.
  std::mt19937_64 rng(4);
  std::vector<int64_t> starts;
  Offsets offsets{0};
  for (int i = 0; i < 500; ++i) {
    starts.push_back(static_cast<int64_t>(rng() % 1000));
    offsets.push_back(offsets.back() + static_cast<int64_t>(rng() % 5));
  }
  const std::vector<vid_t> ids = sequence_runs(starts, offsets);
  ASSERT_EQ(static_cast<int64_t>(ids.size()), offsets.back());
  for (size_t i = 0; i < starts.size(); ++i)
    for (int64_t j = offsets[i]; j < offsets[i + 1]; ++j) EXPECT_EQ(ids[j], starts[i] + (j - offsets[i]));
  auto cpu = make_cpu_backend();
  EXPECT_EQ(testing::HostOps(*cpu).sequence_runs(starts, offsets), ids);
}

TEST(SequenceRuns, BadRunsAreErrors) {
  testing::expect_error([&] { sequence_runs({1, 2}, {0, 3}); }, "sequence_runs: 2 run offsets for 2 runs");
  testing::expect_error([&] { sequence_runs({1, 2}, {0, 3, 2}); }, "sequence_runs: run offsets decrease at block 2");
  testing::expect_error([&] { sequence_runs({-1}, {0, 1}); }, "sequence_runs: run 0 starts at -1");
}

TEST(GatherIds, TakesIdsInTheOrderOfThePositions) {
  const std::vector<vid_t> ids{40, 41, 42, 43, 44};
  EXPECT_EQ(gather_ids(ids, {4, 0, 0, 2}), (std::vector<vid_t>{44, 40, 40, 42}));
  EXPECT_TRUE(gather_ids(ids, {}).empty());
  auto cpu = make_cpu_backend();
  EXPECT_EQ(testing::HostOps(*cpu).gather_ids(ids, {3, 1}), (std::vector<vid_t>{43, 41}));
  testing::expect_error([&] { gather_ids(ids, {1, 5}); }, "gather_ids: position 5 out of range for 5 ids");
  testing::expect_error([&] { gather_ids(ids, {-1}); }, "gather_ids: position -1 out of range for 5 ids");
}

// Against its definition: sorting the positions by (range, position) lists
// them in the order of the places given, and each place is within its range's.
TEST(RangePositions, GroupsIdsByRangeInTheirOrder) {
  EXPECT_EQ(range_positions({5, 1, 7, 2, 9, 0}, {0, 3, 7, 10}), (std::vector<vid_t>{3, 0, 4, 1, 5, 2}));
  EXPECT_TRUE(range_positions({}, {0, 4}).empty());
  std::mt19937_64 rng(12);
  std::vector<vid_t> ids(3000);
  for (vid_t& v : ids) v = 10 + static_cast<vid_t>(rng() % 990);
  const std::vector<vid_t> bounds{10, 200, 200, 600, 1000};  // an empty range among them
  const std::vector<vid_t> places = range_positions(ids, bounds);
  std::vector<int64_t> by_range(ids.size());
  std::iota(by_range.begin(), by_range.end(), 0);
  const auto range_of = [&](vid_t v) { return std::upper_bound(bounds.begin(), bounds.end(), v) - bounds.begin(); };
  std::stable_sort(by_range.begin(), by_range.end(),
                   [&](int64_t x, int64_t y) { return range_of(ids[x]) < range_of(ids[y]); });
  std::vector<vid_t> expected(ids.size());
  for (size_t i = 0; i < by_range.size(); ++i) expected[by_range[i]] = static_cast<vid_t>(i);
  EXPECT_EQ(places, expected);
  auto cpu = make_cpu_backend();
  EXPECT_EQ(testing::HostOps(*cpu).range_positions(ids, bounds), places);
  testing::expect_error(
      [&] {
        range_positions({3, 12}, {0, 5, 10});
      },
      "range_positions: id 12 at 1 is outside [0, 10)");
  testing::expect_error([&] { range_positions({3}, {0, 5, 4}); }, "range_positions: the bounds must ascend");
}

TEST(PadRowBlocks, PutsEachBlockAtTheEndOfItsPaddedBlock) {
  // Blocks of 0, 3, 1 and 6 rows padded by 2, 0, 4 and 1 (an empty block padded too).
  const CsrMatrix m = testing::random_csr(10, 30, 0.3, 8);
  const Offsets row_offsets{0, 0, 3, 4, 10}, padded_offsets{0, 2, 5, 10, 17};
  const CsrMatrix padded = pad_row_blocks(m, row_offsets, padded_offsets);
  ASSERT_EQ(padded.rows, 17);
  EXPECT_EQ(padded.cols, m.cols);
  EXPECT_EQ(padded.colidx, m.colidx);  // the entries in order
  EXPECT_EQ(padded.values, m.values);
  for (size_t g = 0; g + 1 < row_offsets.size(); ++g) {
    const int64_t rows = row_offsets[g + 1] - row_offsets[g];
    const int64_t pad = padded_offsets[g + 1] - padded_offsets[g] - rows;
    for (int64_t i = 0; i < pad; ++i) EXPECT_EQ(padded.row_nnz(padded_offsets[g] + i), 0);
    for (int64_t i = 0; i < rows; ++i) {
      const int64_t from = row_offsets[g] + i, to = padded_offsets[g] + pad + i;
      ASSERT_EQ(padded.row_nnz(to), m.row_nnz(from));
      EXPECT_EQ(padded.rowptr[to], m.rowptr[from]);
    }
  }
  // The same as looking each row up by key where the keys are the blocks' last rows.
  std::vector<vid_t> keys, rows;
  for (size_t g = 0; g + 1 < row_offsets.size(); ++g) {
    const int64_t pad = padded_offsets[g + 1] - padded_offsets[g] - (row_offsets[g + 1] - row_offsets[g]);
    for (int64_t i = padded_offsets[g]; i < padded_offsets[g + 1]; ++i) rows.push_back(static_cast<vid_t>(i));
    for (int64_t i = padded_offsets[g] + pad; i < padded_offsets[g + 1]; ++i) keys.push_back(static_cast<vid_t>(i));
  }
  EXPECT_EQ(select_rows_by_key(m, keys, row_offsets, rows, padded_offsets), padded);
  auto cpu = make_cpu_backend();
  EXPECT_EQ(testing::HostOps(*cpu).pad_row_blocks(m, row_offsets, padded_offsets), padded);
  EXPECT_EQ(pad_row_blocks(m, {0, 10}, {0, 10}), m);
  EXPECT_EQ(pad_row_blocks(CsrMatrix(0, 4), {0}, {0}), CsrMatrix(0, 4));
}

TEST(PadRowBlocks, BadBlocksAreErrors) {
  const CsrMatrix m = testing::random_csr(4, 5, 0.5, 1);
  testing::expect_error(
      [&] {
        pad_row_blocks(m, {0, 2, 3}, {0, 2, 6});
      },
      "pad_row_blocks: row offsets must run from 0 to 4");
  testing::expect_error([&] { pad_row_blocks(m, {0, 2, 4}, {0, 3}); }, "pad_row_blocks: 2 row blocks, 1 padded blocks");
  testing::expect_error(
      [&] {
        pad_row_blocks(m, {0, 3, 4}, {0, 2, 6});
      },
      "pad_row_blocks: block 0 has 3 rows, padded to 2");
  testing::expect_error(
      [&] {
        pad_row_blocks(m, {0, 4}, {0, 5, 4});
      },
      "pad_row_blocks: padded offsets decrease at block 2");
}

}  // namespace
}  // namespace matsamp
