// `matsamp partition` and sampling with --locality-blocks, run as a user would.
#include <gtest/gtest.h>

#include "cli_runner.h"
#include "graph/partition.h"
#include "graph/transform.h"
#include "io/graph_io.h"
#include "io/npz.h"
#include "test_data.h"

namespace matsamp {
namespace {

using testing::data_file;
using testing::expect_one_line_error;
using testing::run_cli;
using testing::scratch_dir;

// The written graph is the input renumbered by the written permutation, whose
// parts are contiguous and in order; the JSON reports the cut.
TEST(CliPartition, WritesTheRenumberedGraphAndItsPermutation) {
  const std::string dir = scratch_dir("cli_partition");
  const std::string graph = data_file("karate.mtx");
  const auto r = run_cli("partition -g " + graph + " --parts 2 -o " + dir + "/karate2.msg --permutation " + dir +
                             "/karate2_order.npz",
                         dir);
  if (!metis_available()) {
    expect_one_line_error(r, "no METIS");
    return;
  }
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* key : {"\"parts\":2", "\"cut_fraction\":", "\"block_cut_fraction_after\":", "\"vertices\":34"})
    EXPECT_NE(r.out.find(key), std::string::npos) << key << " missing in " << r.out;

  const NpzReader npz(dir + "/karate2_order.npz");
  const std::vector<int64_t> old_id = npz.get("old_id").as_int64("old_id");
  const std::vector<int64_t> part = npz.get("part").as_int64("part");
  ASSERT_EQ(old_id.size(), 34u);
  ASSERT_EQ(part.size(), 34u);
  EXPECT_TRUE(std::is_sorted(part.begin(), part.end()));
  EXPECT_EQ(part.front(), 0);
  EXPECT_EQ(part.back(), 1);
  const Graph written = read_graph(dir + "/karate2.msg");
  const Graph want = induced_subgraph(read_graph(graph), std::vector<vid_t>(old_id.begin(), old_id.end()));
  EXPECT_TRUE(written.adj == want.adj);
}

// info --blocks: the share of nonzeros between equal id ranges, before and after.
// --balance: the JSON reports each constraint's imbalance (largest part over the
// mean), and names what it balanced; a set the graph's split lacks is one line.
TEST(CliPartition, BalancesTheSplitsSetsOnRequest) {
  const std::string dir = scratch_dir("cli_partition_balance");
  if (!metis_available()) GTEST_SKIP() << "this build has no METIS (CliPartition.Writes... tests the message)";
  Graph g = read_graph(data_file("karate.mtx"));
  g.splits = {{"train", {0, 1, 2, 3, 4, 5, 6, 7}}, {"test", {30, 31, 32, 33}}};
  write_binary_csr(dir + "/karate.msg", g);
  const auto r =
      run_cli("partition -g " + dir + "/karate.msg --parts 2 -o " + dir + "/k2.msg --balance edges,train", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* key : {"\"balanced\":{\"edges\":true,\"sets\":1}",
                          "\"imbalance\":{\"vertices\":", "\"edges\":", "\"test\":", "\"train\":"})
    EXPECT_NE(r.out.find(key), std::string::npos) << key << " missing in " << r.out;
  expect_one_line_error(
      run_cli("partition -g " + dir + "/karate.msg --parts 2 -o " + dir + "/x.msg --balance valid", dir),
      "--balance valid: no such vertex set in the graph's split");
  expect_one_line_error(
      run_cli("partition -g " + data_file("karate.mtx") + " --parts 2 -o " + dir + "/x.msg --balance train", dir),
      "--balance train: the graph has no split");
}

TEST(CliPartition, TwoLevelsReportTheCutBetweenMachines) {
  const std::string dir = scratch_dir("cli_partition_machines");
  if (!metis_available()) GTEST_SKIP() << "this build has no METIS (CliPartition.Writes... tests the message)";
  const std::string graph = data_file("jagmesh7.mtx");
  const auto r = run_cli("partition -g " + graph + " --parts 4 --machines 2 -o " + dir + "/j4.msg", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* key : {"\"parts\":4", "\"machines\":2", "\"machine_cut_fraction\":"})
    EXPECT_NE(r.out.find(key), std::string::npos) << key << " missing in " << r.out;
  expect_one_line_error(run_cli("partition -g " + graph + " --parts 4 --machines 3 -o " + dir + "/x.msg", dir),
                        "--machines 3 does not divide --parts 4");
}

TEST(CliPartition, InfoReportsTheBlockCut) {
  const std::string dir = scratch_dir("cli_info_blocks");
  const std::string karate = data_file("karate.mtx");
  const auto before = run_cli("info -g " + karate + " --blocks 2", dir);
  ASSERT_EQ(before.exit_code, 0) << before.err;
  const Graph g = read_graph(karate);
  const double want = static_cast<double>(cut_nonzeros(g.adj, 2)) / static_cast<double>(g.num_edges());
  const size_t at = before.out.find("\"block_cut_fraction\":");
  ASSERT_NE(at, std::string::npos) << before.out;
  EXPECT_NEAR(std::stod(before.out.substr(at + 21)), want, 1e-5) << before.out;
  EXPECT_GT(want, 0.0);
  EXPECT_EQ(run_cli("info -g " + karate, dir).out.find("block_cut_fraction"), std::string::npos);
  expect_one_line_error(run_cli("info -g " + karate + " --blocks 40", dir), "--blocks 40 exceeds the graph's 34");
}

TEST(CliPartition, LocalityBlocksInBench) {
  const std::string dir = scratch_dir("cli_locality");
  const auto r = run_cli("bench --graph rmat:10 --fanouts 5,3 -b 64 --locality-blocks 4 --compare-per-batch", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* key : {"\"locality_blocks\":4", "\"identical_minibatches\":true"})
    EXPECT_NE(r.out.find(key), std::string::npos) << key << " missing in " << r.out;
}

TEST(CliPartition, BadInputIsOneLineError) {
  const std::string dir = scratch_dir("cli_partition_errors");
  const std::string karate = data_file("karate.mtx");
  expect_one_line_error(run_cli("partition -g " + karate + " --parts 100 -o " + dir + "/x.msg", dir),
                        metis_available() ? "100 parts for 34 vertices" : "no METIS");
  expect_one_line_error(run_cli("bench -g " + karate + " -b 4 --locality-blocks 50", dir), "50 blocks for 34 vertices");
  const auto missing = run_cli("partition -g " + karate + " -o " + dir + "/x.msg", dir);
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.err.find("--parts is required"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace matsamp
