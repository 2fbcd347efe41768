// sequence_runs and gather_ids (ops.h) against their definitions, on the CPU
// ops and the CPU backend (the CUDA ones: test_cuda_ops.cpp).
#include <gtest/gtest.h>

#include <random>

#include "backend/backend.h"
#include "error_checks.h"
#include "host_ops.h"
#include "ops/ops.h"

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

}  // namespace
}  // namespace matsamp
