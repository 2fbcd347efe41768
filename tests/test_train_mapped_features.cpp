// train --map-features: the trainer's features are a view of the .msg file's
// mapping (no copy on the CPU), training runs exactly as on the copy, and what
// cannot be mapped is a one-line error.
#include <gtest/gtest.h>

#include <memory>

#include "cli_runner.h"
#include "graph/transform.h"
#include "io/binary_csr.h"
#include "io/graph_io.h"
#include "io/mapped_features.h"
#include "split_dataset.h"
#include "test_data.h"
#include "train/tensors.h"
#include "train/training_data.h"

namespace matsamp {
namespace {

TEST(TrainMappedFeatures, CpuFeatureTableIsAViewOfTheMappingWithTheCopysRows) {
  const std::string path = testing::scratch_dir("train_mapped_view") + "/d.msg";
  const Graph g = testing::split_dataset();
  write_binary_csr(path, g);
  const auto mapped = std::make_shared<const MappedFeatures>(path);
  const torch::Device cpu("cpu");
  const FeatureTable dense(mapped, cpu, /*max_sparse_density=*/0.0);
  ASSERT_FALSE(dense.is_sparse());
  EXPECT_EQ(dense.all().data_ptr<float>(), mapped->data());
  const std::vector<vid_t> ids = {5, 2, 599, 0};
  EXPECT_TRUE(torch::equal(dense.rows(ids), FeatureTable(g, cpu, 0.0).rows(ids)));
  const FeatureTable sparse(mapped, cpu, /*max_sparse_density=*/1.0);  // a sparse copy of the nonzeros
  ASSERT_TRUE(sparse.is_sparse());
  EXPECT_TRUE(torch::equal(sparse.rows(ids).to_dense(), FeatureTable(g, cpu, 1.0).rows(ids).to_dense()));
}

TEST(TrainMappedFeatures, MappedRowsMustMatchTheVerticesAndStayUnnormalized) {
  const std::string path = testing::scratch_dir("train_mapped_data") + "/d.msg";
  Graph g = testing::split_dataset();
  write_binary_csr(path, g);
  const auto mapped = std::make_shared<const MappedFeatures>(path);
  g.features.clear();
  g.feature_dim = 0;
  TrainingDataOptions raw;
  raw.normalize_features = false;
  raw.split_choice = SplitChoice::given;
  const TrainingData data = prepare_training_data(g, raw, mapped);
  EXPECT_EQ(data.feature_rows(), 600);
  EXPECT_EQ(data.feature_dim(), 16);
  std::vector<vid_t> fewer(599);
  for (vid_t v = 0; v < 599; ++v) fewer[v] = v;
  EXPECT_THROW(
      {
        try {
          prepare_training_data(induced_subgraph(g, fewer), raw, mapped);
        } catch (const Error& e) {
          EXPECT_NE(std::string(e.what()).find("mapped features: 600 rows for 599 vertices"), std::string::npos)
              << e.what();
          throw;
        }
      },
      Error);
  TrainingDataOptions normalized = raw;
  normalized.normalize_features = true;
  EXPECT_THROW(prepare_training_data(g, normalized, mapped), Error);
}

// The per-epoch numbers of `train`'s JSON lines: loss and accuracies, no times.
std::string epoch_metrics(const std::string& out) {
  std::string kept;
  for (size_t at = out.find("\"loss\":"); at != std::string::npos; at = out.find("\"loss\":", at + 1))
    kept += out.substr(at, out.find(",\"improved\"", at) - at) + "\n";
  return kept;
}

TEST(TrainMappedFeatures, TrainsAsOnTheCopyAndRefusesWhatItCannotMap) {
  const std::string dir = testing::scratch_dir("train_mapped_cli");
  const Graph g = testing::split_dataset();
  write_binary_csr(dir + "/d.msg", g);
  const std::string train = "train -g " + dir + "/d.msg --raw-features --epochs 2 --fanouts 4,4 -b 64";
  const testing::CliResult copied = testing::run_cli(train, dir);
  const testing::CliResult mapped = testing::run_cli(train + " --map-features", dir);
  ASSERT_EQ(copied.exit_code, 0) << copied.err;
  ASSERT_EQ(mapped.exit_code, 0) << mapped.err;
  EXPECT_EQ(testing::count_lines(epoch_metrics(copied.out)), 2) << copied.out;
  EXPECT_EQ(epoch_metrics(mapped.out), epoch_metrics(copied.out));

  testing::expect_one_line_error(testing::run_cli("train -g " + dir + "/d.msg --map-features --epochs 1", dir),
                                 "--map-features uses the features as stored: add --raw-features");
  write_binary_csr(dir + "/half.msg", g, FeatureType::float16);
  testing::expect_one_line_error(
      testing::run_cli("train -g " + dir + "/half.msg --map-features --raw-features --epochs 1", dir),
      "features are stored as float16, which must be converted to float32");
  testing::expect_one_line_error(
      testing::run_cli("train -g planted:300:3 --map-features --raw-features --epochs 1", dir),
      "--map-features maps the features of a .msg file; planted:300:3 is not one");
  testing::expect_one_line_error(
      testing::run_cli("train -g " + dir + "/d.msg --task link --map-features --raw-features --epochs 1", dir),
      "--map-features applies to node classification (--task node)");
}

}  // namespace
}  // namespace matsamp
