// Block rows: the owner map, reading only this rank's rows of a .msg file, ranks
// given different or missing files all failing with one message, and the
// transpose of a matrix held in block rows.
#include <gtest/gtest.h>

#include "distributed/agreement.h"
#include "distributed/distributed_csr.h"
#include "io/graph_io.h"
#include "mpi_test_env.h"

namespace matsamp {
namespace {

using testing::world;

// Rank 0 writes the files, the others wait; every rank gets the same paths.
std::vector<std::string> write_graphs(const std::vector<std::string>& sources) {
  const std::string dir = testing::shared_scratch_dir("block_rows");
  std::vector<std::string> paths;
  for (size_t i = 0; i < sources.size(); ++i) paths.push_back(dir + "/g" + std::to_string(i) + ".msg");
  if (world().rank() == 0)
    for (size_t i = 0; i < sources.size(); ++i) write_binary_csr(paths[i], read_graph(sources[i]));
  world().barrier();
  return paths;
}

TEST(RowBlocks, OwnerIsTheBlockHoldingTheRow) {
  for (int64_t n : {1, 7, 100, 101}) {
    for (int count : {1, 2, 3, 8}) {
      const RowBlocks blocks{n, count};
      EXPECT_EQ(blocks.begin(0), 0);
      EXPECT_EQ(blocks.end(count - 1), n);
      for (vid_t v = 0; v < n; ++v) {
        const int q = blocks.owner(v);
        EXPECT_TRUE(blocks.begin(q) <= v && v < blocks.end(q)) << n << " " << count << " " << v;
      }
    }
  }
}

TEST(ReadBlockRow, ReadsThisRanksRowsOfTheFile) {
  const auto paths = write_graphs({testing::data_file("cora.npz")});
  const Graph whole = read_binary_csr(paths[0]);
  for (int c : testing::valid_replications()) {
    ProcessGrid grid(world(), c);
    const DistributedCsr d = read_block_row(paths[0], grid);
    EXPECT_EQ(d.blocks.count, grid.process_rows());
    EXPECT_EQ(d.block, grid.row());
    EXPECT_TRUE(d.local == row_slice(whole.adj, d.first_row(), d.blocks.end(d.block)));
  }
}

TEST(DistributedTranspose, EqualsTheBlockRowOfTheWholeTranspose) {
  // Rectangular, with empty rows and columns, and values that tell entries apart.
  for (const auto& [rows, cols] : {std::pair<int64_t, int64_t>{37, 53}, {53, 37}, {5, 200}, {1, 1}}) {
    std::vector<int64_t> r, c;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        if ((i * 7 + j * 13) % 5 == 0 && i % 4 != 3) r.push_back(i), c.push_back(j);
    std::vector<float> values(r.size());
    for (size_t e = 0; e < values.size(); ++e) values[e] = 0.5f + static_cast<float>(e);
    const CsrMatrix whole = csr_from_triples(rows, cols, r, c, values);
    for (int cr : testing::valid_replications()) {
      ProcessGrid grid(world(), cr);
      const DistributedCsr t = transpose(block_row_of(whole, grid), grid);
      const DistributedCsr want = block_row_of(transpose(whole), grid);
      EXPECT_EQ(t.blocks.n, cols);
      EXPECT_EQ(t.block, grid.row());
      EXPECT_TRUE(t.local == want.local) << rows << " x " << cols << ", c = " << cr << ", rank " << world().rank();
    }
  }
}

TEST(ReadBlockRow, DifferentFilesOnDifferentRanksFailEverywhere) {
  if (world().size() < 2) GTEST_SKIP() << "needs two ranks";
  const auto paths = write_graphs({testing::data_file("cora.npz"), testing::data_file("karate.mtx")});
  ProcessGrid grid(world(), 1);
  try {
    read_block_row(paths[world().rank() % 2], grid);
    ADD_FAILURE() << "different graph files were accepted";
  } catch (const AgreedError& e) {
    EXPECT_NE(std::string(e.what()).find("different graph files"), std::string::npos) << e.what();
  }
}

TEST(ReadBlockRow, AFileMissingOnOneRankFailsEverywhere) {
  const auto paths = write_graphs({testing::data_file("karate.mtx")});
  ProcessGrid grid(world(), 1);
  const bool last = world().rank() == world().size() - 1;
  try {
    read_block_row(last ? paths[0] + ".missing" : paths[0], grid);
    ADD_FAILURE() << "a missing file was accepted";
  } catch (const AgreedError& e) {
    EXPECT_NE(std::string(e.what()).find(".missing"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace matsamp
