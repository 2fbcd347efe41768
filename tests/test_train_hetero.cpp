// R-GCN on heterogeneous minibatches: on an ogbn-mag-shaped graph whose paper
// features carry no signal, the classes can only be read from typed
// neighbourhoods (authors, fields, cited papers), and R-GCN learns them.
#include <gtest/gtest.h>

#include <random>

#include "backend/backend.h"
#include "cli_runner.h"
#include "generate/generators.h"
#include "sampling/hetero_neighbor.h"
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

// Papers whose own features are noise, written by 3 authors of their class
// (whose features carry it) and citing 10 random papers: the class is in the
// writes relation only. R-GCN reads it there; a model that ignores the types
// averages it with the citations' noise.
TEST(HeteroTrainer, RelationWeightsBeatAModelThatIgnoresTypes) {
  const int64_t papers = 800, authors = 400, dim = 8, classes = 4;
  HeteroGraph g;
  g.types = {{"paper", papers}, {"author", authors}};
  std::mt19937_64 rng(5);
  std::normal_distribution<float> noise(0, 1);
  const auto features = [&](VertexType& t, float signal) {
    t.feature_dim = dim;
    for (int64_t v = 0; v < t.count; ++v)
      for (int64_t j = 0; j < dim; ++j)
        t.features.push_back(noise(rng) + ((((v % classes) >> (j % 2)) & 1) ? signal : -signal) * (j < 4));
  };
  features(g.types[0], 0);
  features(g.types[1], 0.8f);
  std::vector<int64_t> ws, wd, cs, cd;
  for (int64_t p = 0; p < papers; ++p) {
    for (int i = 0; i < 3; ++i)
      ws.push_back(p % classes + classes * static_cast<int64_t>(rng() % (authors / classes))), wd.push_back(p);
    for (int i = 0; i < 10; ++i) cs.push_back(static_cast<int64_t>(rng() % papers)), cd.push_back(p);
  }
  add_relation(g, "author", "writes", "paper", ws, wd);
  add_relation(g, "paper", "cites", "paper", cs, cd);
  VertexType& paper = g.types[0];
  for (int64_t p = 0; p < papers; ++p) {
    paper.labels.push_back(p % classes);
    paper.splits[p % 10 < 6 ? "train" : p % 10 < 8 ? "valid" : "test"].push_back(p);
  }
  auto cpu = make_cpu_backend();
  const HeteroNeighborSampler sampler(*cpu, g, {{3}, {10}});
  HeteroTrainOptions options;
  options.train.hidden = 16;
  options.train.dropout = 0;
  options.train.learning_rate = 0.02;
  options.train.weight_decay = 0;
  options.train.epochs = 15;
  options.train.batch_size = 32;
  options.train.threads = 2;
  const HeteroSummary typed = train_rgcn(g, 0, sampler, *cpu, options, nullptr, nullptr);
  options.shared_relation_weight = true;
  const HeteroSummary untyped = train_rgcn(g, 0, sampler, *cpu, options, nullptr, nullptr);
  EXPECT_GT(typed.test_accuracy, untyped.test_accuracy + 0.1)
      << "R-GCN " << typed.test_accuracy << ", types ignored " << untyped.test_accuracy;
  EXPECT_GT(typed.test_accuracy, 0.8);
}

TEST(HeteroTrainer, TrainsFromTheCli) {
  const std::string dir = testing::scratch_dir("hetero_train_cli");
  const std::string options =
      " --relation-fanouts 'writes=5,5;rev_writes=5,5;cites=5,5' -b 64 --epochs 2 --hidden 16 "
      "--torch-threads 1";
  const testing::CliResult r = testing::run_cli("train -g mag:1000:4" + options, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("training R-GCN (per-relation weights) on paper vertices"), std::string::npos) << r.err;
  EXPECT_EQ(testing::count_lines(r.out), 3) << r.out;  // two epochs and the summary
  EXPECT_NE(r.out.find("\"summary\":true"), std::string::npos);
  testing::expect_one_line_error(testing::run_cli("train -g mag:1000 --task link --epochs 1", dir),
                                 "--task link is for homogeneous graphs");

  // The same graph stored as .msg trains alike: the same summary line.
  ASSERT_EQ(testing::run_cli("convert -g mag:1000:4 -o " + dir + "/mag.msg", dir).exit_code, 0);
  const testing::CliResult stored = testing::run_cli("train -g " + dir + "/mag.msg" + options, dir);
  ASSERT_EQ(stored.exit_code, 0) << stored.err;
  const auto summary = [](const std::string& out) { return out.substr(out.rfind("{\"summary\"")); };
  EXPECT_EQ(summary(stored.out), summary(r.out));
}

}  // namespace
}  // namespace matsamp
