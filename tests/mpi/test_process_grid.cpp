// The (p/c) x c grid: rank r in row r / c and column r % c, row and column
// communicators with the right members, and bad configurations ending every rank
// with the same message.
#include <gtest/gtest.h>

#include "distributed/agreement.h"
#include "mpi_test_env.h"

namespace matsamp {
namespace {

using testing::world;

TEST(ProcessGrid, RowsAndColumnsHoldTheRightRanks) {
  for (int c : testing::valid_replications()) {
    ProcessGrid grid(world(), c);
    const int r = world().rank();
    EXPECT_EQ(grid.row(), r / c);
    EXPECT_EQ(grid.col(), r % c);
    EXPECT_EQ(grid.process_rows(), world().size() / c);
    // Members in order: the row by column, the column by row.
    std::vector<int64_t> row_members = grid.row_comm().all_gatherv(std::vector<int64_t>{r});
    std::vector<int64_t> col_members = grid.col_comm().all_gatherv(std::vector<int64_t>{r});
    ASSERT_EQ(static_cast<int>(row_members.size()), c);
    ASSERT_EQ(static_cast<int>(col_members.size()), grid.process_rows());
    for (int j = 0; j < c; ++j) EXPECT_EQ(row_members[j], grid.row() * c + j);
    for (int i = 0; i < grid.process_rows(); ++i) EXPECT_EQ(col_members[i], i * c + grid.col());
  }
}

TEST(ProcessGrid, ReplicationThatDoesNotFitEndsEveryRankWithOneMessage) {
  const int p = world().size();
  for (int c : {0, p + 1, 3}) {
    if (c == 3 && p % 9 == 0) continue;
    try {
      ProcessGrid grid(world(), c);
      ADD_FAILURE() << "c = " << c << " was accepted for p = " << p;
    } catch (const AgreedError& e) {
      EXPECT_NE(std::string(e.what()).find("replication factor c = " + std::to_string(c)), std::string::npos)
          << e.what();
    }
  }
}

TEST(ProcessGrid, RanksAskingForDifferentReplicationsAllFail) {
  if (world().size() < 2) GTEST_SKIP() << "needs two ranks";
  EXPECT_THROW(ProcessGrid(world(), world().rank() == 0 ? 1 : 2), AgreedError);
}

TEST(Agreement, AnErrorOnOneRankReachesEveryRank) {
  const int last = world().size() - 1;
  try {
    agree_on(world(), [&] {
      if (world().rank() == last) fail("only the last rank saw this");
    });
    ADD_FAILURE() << "no error was agreed on";
  } catch (const AgreedError& e) {
    EXPECT_STREQ(e.what(), "only the last rank saw this");
  }
  EXPECT_NO_THROW(agree(world(), true, "unused"));
}

}  // namespace
}  // namespace matsamp
