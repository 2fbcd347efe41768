// `matsamp train` as a user runs it: JSON lines on stdout, checkpoints that
// resume, and one-line errors for input it cannot train on.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "cli_runner.h"
#include "generate/generators.h"
#include "io/graph_io.h"
#include "split_dataset.h"
#include "test_data.h"

#include <torch/cuda.h>

namespace matsamp {
namespace {

TEST(TrainCli, PrintsOneJsonLinePerEpochAndASummary) {
  const std::string dir = testing::scratch_dir("train_cli");
  const testing::CliResult r = testing::run_cli(
      "train -g planted:300:3 --fanouts 5,5 -b 16 --epochs 4 --train-per-class 10 --validation-per-class 10 "
      "--hidden 16 --checkpoint " +
          dir + "/ckpt.pt",
      dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::count_lines(r.out), 5) << r.out;
  EXPECT_NE(r.out.find("\"epoch\":3"), std::string::npos);
  EXPECT_NE(r.out.find("\"gradient_reduction\":["), std::string::npos);
  EXPECT_NE(r.out.find("\"feature_fetch_bytes\":[0]"), std::string::npos) << "features not partitioned";
  EXPECT_NE(r.out.find("\"summary\":true"), std::string::npos);
  EXPECT_NE(r.err.find("epoch 4/4"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(dir + "/ckpt.pt"));

  const testing::CliResult resumed = testing::run_cli(
      "train -g planted:300:3 --fanouts 5,5 -b 16 --epochs 6 --train-per-class 10 --validation-per-class 10 "
      "--hidden 16 --resume " +
          dir + "/ckpt.pt",
      dir);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_EQ(testing::count_lines(resumed.out), 3) << resumed.out;  // epochs 4 and 5, then the summary
  EXPECT_NE(resumed.out.find("\"epoch\":4"), std::string::npos);
}

// Node classification by time: every seed sampled as of its vertex's time, the
// labelled vertices split by time, evaluation sampled the same way.
TEST(TrainCli, TrainsByTime) {
  const std::string dir = testing::scratch_dir("train_cli_temporal");
  const std::string base = "train -g planted:300:3 --fanouts 5,5 -b 16 --hidden 16 --epochs 3 ";
  const testing::CliResult r =
      testing::run_cli(base + "--temporal uniform --vertex-times random:100 --time-split 50,75", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::count_lines(r.out), 4) << r.out;
  EXPECT_NE(r.out.find("\"summary\":true"), std::string::npos) << r.out;
  // About half of the 300 labelled vertices are earlier than 50: the training set.
  const size_t at = r.err.find(" train, ");
  ASSERT_NE(at, std::string::npos) << r.err;
  const int64_t train = std::stoll(r.err.substr(r.err.rfind(' ', at - 1) + 1));
  EXPECT_GT(train, 110);
  EXPECT_LT(train, 190);
  // A graph's own vertex times (a .msg keeps them): --temporal needs no --vertex-times.
  PlantedPartitionOptions planted;
  planted.vertices = 300;
  planted.classes = 3;
  Graph g = generate_planted_partition(planted);
  g.vertex_times.resize(g.num_vertices());
  for (int64_t v = 0; v < g.num_vertices(); ++v) g.vertex_times[v] = 2000 + (v * 7) % 20;
  write_binary_csr(dir + "/timed.msg", g);
  const testing::CliResult own = testing::run_cli(
      "train -g " + dir +
          "/timed.msg --fanouts 5,5 -b 16 --hidden 16 --epochs 2 --temporal last --time-split 2010,2015",
      dir);
  ASSERT_EQ(own.exit_code, 0) << own.err;
  EXPECT_NE(own.out.find("\"summary\":true"), std::string::npos) << own.out;
  for (const auto& [args, message] : std::vector<std::pair<std::string, std::string>>{
           {"--temporal uniform --vertex-times random:100 --evaluation full", "evaluates sampled minibatches"},
           {"--time-split 5,6", "--time-split needs --temporal"},
           {"--temporal uniform --vertex-times random:100 --time-split 5,200", "each set needs one"},
           {"--temporal uniform --vertex-times random:100 --task link", "--task link --temporal needs --edge-times"}}) {
    const testing::CliResult bad = testing::run_cli(base + args, dir);
    EXPECT_NE(bad.exit_code, 0) << args;
    EXPECT_NE(bad.err.find(message), std::string::npos) << args << ": " << bad.err;
  }
}

TEST(TrainCli, BadInputIsAOneLineError) {
  const std::string dir = testing::scratch_dir("train_cli_errors");
  Graph unlabelled = generate_planted_partition({});
  unlabelled.labels.clear();
  write_binary_csr(dir + "/unlabelled.msg", unlabelled);
  const testing::CliResult no_labels = testing::run_cli("train -g " + dir + "/unlabelled.msg", dir);
  EXPECT_EQ(no_labels.exit_code, 1);
  EXPECT_NE(no_labels.err.find("error: training needs vertex labels"), std::string::npos) << no_labels.err;

  const testing::CliResult too_few =
      testing::run_cli("train -g planted:100:5 --train-per-class 20 --validation-per-class 30", dir);
  EXPECT_EQ(too_few.exit_code, 1);
  EXPECT_NE(too_few.err.find("the split needs 50"), std::string::npos) << too_few.err;
  EXPECT_EQ(testing::count_lines(too_few.err.substr(too_few.err.find("error:"))), 1);

  testing::expect_one_line_error(
      testing::run_cli("train -g planted:300:3 --minibatches-per-step 2 --locality-blocks 3 --epochs 1", dir),
      "locality blocks (3) must divide the minibatches per step (2)");

  const testing::CliResult cuda = testing::run_cli("train -g planted:300:3 --device cuda --epochs 1", dir);
  if (torch::cuda::is_available()) {
    EXPECT_EQ(cuda.exit_code, 0) << cuda.err;
  } else {
    EXPECT_EQ(cuda.exit_code, 1);
    EXPECT_NE(cuda.err.find("error: --device cuda"), std::string::npos) << cuda.err;
    EXPECT_EQ(testing::count_lines(cuda.err.substr(cuda.err.find("error:"))), 1) << cuda.err;
  }
}

// A checkpoint that cannot be written is reported before the graph is read, not after an epoch.
TEST(TrainCli, UnwritableCheckpointIsReportedBeforeTraining) {
  const std::string dir = testing::scratch_dir("train_cli_checkpoint");
  for (const std::string& checkpoint : {dir + "/missing/ckpt.pt", dir}) {
    const testing::CliResult r =
        testing::run_cli("train -g planted:300:3 --epochs 2 --hidden 8 --checkpoint " + checkpoint, dir);
    testing::expect_one_line_error(r, "cannot write " + checkpoint);
    EXPECT_EQ(r.out, "") << "no epoch ran";
    EXPECT_EQ(r.err.find("graph ready"), std::string::npos) << r.err;
  }
}

// Writing a checkpoint past the file-size limit: one line, the earlier checkpoint intact, no
// temporary file left. The limit (6 MB) lies above what MPI's start-up writes (PMIx keeps a
// few MB in files; below about 4 MB `train` cannot start) and below the checkpoint of a
// 3000-wide model.
TEST(TrainCli, CheckpointPastTheFileSizeLimitFailsCleanly) {
  const std::string dir = testing::scratch_dir("train_cli_file_limit");
  const std::string args = "train -g planted:300:3 --fanouts 5,5 -b 16 --epochs 1 --hidden 3000 --checkpoint " + dir +
                           "/ckpt.pt";
  ASSERT_EQ(testing::run_cli(args, dir).exit_code, 0);
  const std::string earlier = testing::read_text(dir + "/ckpt.pt");
  ASSERT_GT(earlier.size(), size_t{6000} << 10) << "the checkpoint must exceed the limit";
  const auto names = [&] {
    std::set<std::string> out;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) out.insert(entry.path().filename());
    return out;
  };
  const std::set<std::string> before = names();
  const testing::CliResult r = testing::run_cli_with_file_limit(args, dir, 6000);
  testing::expect_one_line_error(r, "cannot write " + dir + "/ckpt.pt: File too large");
  EXPECT_EQ(testing::read_text(dir + "/ckpt.pt"), earlier);
  EXPECT_EQ(names(), before) << "a temporary file was left";
}

// A dataset folder in OGB's layout, and its .msg, train on the dataset's own
// split (no cut to the largest component); --split random draws one per class.
TEST(TrainCli, TrainsOnADatasetsOwnSplit) {
  const std::string root = testing::scratch_dir("train_ogb");
  const std::string dir = root + "/ogbn_made";
  write_ogb_node_dataset(dir, testing::split_dataset());
  write_binary_csr(root + "/d.msg", read_graph(dir));
  testing::CliResult r;
  for (const std::string& graph : {dir, root + "/d.msg"}) {
    r = testing::run_cli("train -g " + graph + " --epochs 2 --fanouts 4,4 -b 64", root);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("360 train, 120 validation, 120 test"), std::string::npos) << r.err;
  }
  r = testing::run_cli("train -g " + dir + " --split random --epochs 1 --fanouts 4,4 -b 64", root);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("60 train, 90 validation"), std::string::npos) << r.err;  // 20 and 30 per class
  r = testing::run_cli("train -g planted:300:3 --split given --epochs 1", root);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--split given: the graph has no split"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace matsamp
