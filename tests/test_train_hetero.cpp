// R-GCN on heterogeneous minibatches: on an ogbn-mag-shaped graph whose paper
// features carry no signal, the classes can only be read from typed
// neighbourhoods (authors, fields, cited papers), and R-GCN learns them.
#include <gtest/gtest.h>

#include "backend/backend.h"
#include "cli_runner.h"
#include "generate/generators.h"
#include "test_data.h"
#include "train/hetero_trainer.h"

namespace matsamp {
namespace {

TEST(HeteroTrainer, LearnsClassesFromTypedNeighbourhoods) {
  HeteroMagOptions graph;
  graph.papers = 1500;
  graph.classes = 4;
  graph.homophily = 0.5;
  graph.feature_dim = 8;
  graph.feature_signal = 0;  // the features say nothing: only the typed neighbours do
  HeteroGraph g = generate_hetero_mag(graph);
  add_reverse_relations(g);
  auto cpu = make_cpu_backend();
  const HeteroNeighborSampler sampler(*cpu, g, parse_relation_fanouts(g, "8,8"));
  HeteroTrainOptions options;
  options.train.hidden = 32;
  options.train.dropout = 0.2;
  options.train.learning_rate = 0.01;
  options.train.weight_decay = 0;
  options.train.epochs = 8;
  options.train.batch_size = 64;
  options.train.threads = 2;
  const HeteroSummary s = train_rgcn(g, g.type_index("paper"), sampler, *cpu, options, nullptr, nullptr);
  EXPECT_EQ(s.epochs, 8);
  EXPECT_GT(s.best_validation_accuracy, 0.7) << "4 classes: chance is 0.25";
  EXPECT_GT(s.test_accuracy, 0.7);
}

TEST(HeteroTrainer, TrainsFromTheCli) {
  const std::string dir = testing::scratch_dir("hetero_train_cli");
  const testing::CliResult r = testing::run_cli(
      "train -g mag:1000:4 --relation-fanouts 'writes=5,5;rev_writes=5,5;cites=5,5' -b 64 --epochs 2 --hidden 16 "
      "--torch-threads 1",
      dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("training R-GCN (per-relation weights) on paper vertices"), std::string::npos) << r.err;
  EXPECT_EQ(testing::count_lines(r.out), 3) << r.out;  // two epochs and the summary
  EXPECT_NE(r.out.find("\"summary\":true"), std::string::npos);
  testing::expect_one_line_error(testing::run_cli("train -g mag:1000 --task link --epochs 1", dir),
                                 "--task link is for homogeneous graphs");
}

}  // namespace
}  // namespace matsamp
