// Fetched feature rows are exactly the rows of X asked for, in the order asked, for
// every c, with repeats, distinct ids in any order, empty requests and ids owned by
// any block row.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "distributed/feature_fetcher.h"
#include "error_checks.h"
#include "mpi_test_env.h"

namespace matsamp {
namespace {

TEST(FeatureFetcher, FetchedRowsAreTheRowsOfX) {
  const int64_t n = 101, f = 3;
  std::vector<float> x(n * f);
  for (int64_t i = 0; i < n * f; ++i) x[i] = static_cast<float>(i) * 0.5f;
  for (int c : testing::valid_replications()) {
    ProcessGrid grid(testing::world(), c);
    const RowBlocks blocks{n, grid.process_rows()};
    FeatureFetcher fetcher(grid, n, f, feature_block_of(x, f, grid),
                           (blocks.end(grid.row()) - blocks.begin(grid.row())) * f);
    std::mt19937_64 rng(grid.rank() + 17 * c);
    for (int round = 0; round < 3; ++round) {
      std::vector<vid_t> ids(round == 1 && grid.rank() % 2 ? 0 : 40);  // some ranks ask for nothing
      for (vid_t& v : ids) v = static_cast<vid_t>(rng() % n);
      if (round == 0 && ids.size() > 2) ids[2] = ids[0];
      if (round == 2) {  // distinct, in no order: a minibatch's inputs (permuted in place)
        std::vector<vid_t> all(n);
        std::iota(all.begin(), all.end(), 0);
        std::shuffle(all.begin(), all.end(), rng);
        ids.assign(all.begin(), all.begin() + 60);
      }
      grid.reset_counters();
      const std::vector<float> rows = fetcher.fetch(ids);
      ASSERT_EQ(rows.size(), ids.size() * f);
      for (size_t i = 0; i < ids.size(); ++i)
        for (int64_t j = 0; j < f; ++j)
          ASSERT_EQ(rows[i * f + j], x[ids[i] * f + j]) << "c = " << c << ", id " << ids[i];
      // Bytes over the column: 8 per count to each other rank, then per distinct id held
      // elsewhere 8 out (the id) and 4 per feature back.
      std::vector<vid_t> distinct(ids);
      std::sort(distinct.begin(), distinct.end());
      distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
      int64_t remote = 0;
      for (vid_t v : distinct) remote += fetcher.blocks().owner(v) != grid.row();
      const int64_t rows_of_grid = grid.process_rows();
      std::vector<int64_t> bytes{bytes_sent(grid.col_comm()), 8 * (rows_of_grid - 1) + (8 + 4 * f) * remote};
      grid.col_comm().all_reduce_sum(bytes);
      EXPECT_EQ(bytes[0], bytes[1]) << "c = " << c;
    }
  }
}

// With remote_dims, rows held elsewhere carry only those dimensions (the rest 0)
// and cost 4 bytes per dimension; this rank's own rows come whole.
TEST(FeatureFetcher, RemoteRowsComeWithTheAskedDimensionsOnly) {
  const int64_t n = 90, f = 6;
  std::vector<float> x(n * f);
  for (int64_t i = 0; i < n * f; ++i) x[i] = 1.0f + static_cast<float>(i);
  const std::vector<int64_t> dims{1, 4};
  for (int c : testing::valid_replications()) {
    ProcessGrid grid(testing::world(), c);
    const RowBlocks blocks{n, grid.process_rows()};
    FeatureFetcher fetcher(grid, n, f, feature_block_of(x, f, grid),
                           (blocks.end(grid.row()) - blocks.begin(grid.row())) * f);
    std::mt19937_64 rng(grid.rank() + 5 * c);
    std::vector<vid_t> ids(30);
    for (vid_t& v : ids) v = static_cast<vid_t>(rng() % n);
    ids[3] = ids[1];
    grid.reset_counters();
    std::vector<int64_t> one{1};
    grid.col_comm().all_reduce_sum(one);  // the size of the dimensions' check
    const int64_t check_bytes = bytes_sent(grid.col_comm());
    grid.reset_counters();
    const std::vector<float> rows = fetcher.fetch(ids, dims);
    ASSERT_EQ(rows.size(), ids.size() * f);
    std::vector<vid_t> distinct(ids);
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    int64_t remote = 0;
    for (vid_t v : distinct) remote += blocks.owner(v) != grid.row();
    for (size_t i = 0; i < ids.size(); ++i) {
      const bool own = blocks.owner(ids[i]) == grid.row();
      for (int64_t j = 0; j < f; ++j) {
        const bool sent = own || std::count(dims.begin(), dims.end(), j);
        ASSERT_EQ(rows[i * f + j], sent ? x[ids[i] * f + j] : 0.0f)
            << "c = " << c << ", id " << ids[i] << ", dim " << j;
      }
    }
    std::vector<int64_t> bytes{bytes_sent(grid.col_comm()),
                               check_bytes + 8 * (grid.process_rows() - 1) + (8 + 4 * 2) * remote};
    grid.col_comm().all_reduce_sum(bytes);
    EXPECT_EQ(bytes[0], bytes[1]) << "c = " << c;
    if (grid.col_comm().size() > 1) {  // a rank that asks for other dimensions is refused
      const std::vector<int64_t> mine = grid.col_comm().rank() == 0 ? std::vector<int64_t>{0} : dims;
      testing::expect_error([&] { fetcher.fetch(ids, mine); }, "ask for different feature dimensions of remote rows");
    }
  }
}

TEST(FeatureFetcher, RejectsBadInput) {
  ProcessGrid grid(testing::world(), 1);
  const std::vector<float> x(10 * grid.process_rows(), 1.0f);  // one row per vertex: block rows of 10
  EXPECT_THROW(FeatureFetcher(grid, x.size(), 2, x.data(), 3), Error);
  EXPECT_THROW(feature_block_of(std::vector<float>(x.size() + 1), 2, grid), Error);  // not rows of 2
  FeatureFetcher fetcher(grid, x.size(), 1, feature_block_of(x, 1, grid), 10);
  EXPECT_THROW(fetcher.fetch({static_cast<vid_t>(x.size())}), Error);
  EXPECT_THROW(fetcher.fetch({0}, {1}), Error);     // dimension 1 of 1
  EXPECT_THROW(fetcher.fetch({0}, {0, 0}), Error);  // not distinct
}

}  // namespace
}  // namespace matsamp
