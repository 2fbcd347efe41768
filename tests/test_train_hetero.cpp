// R-GCN on heterogeneous minibatches: on an ogbn-mag-shaped graph whose paper
// features carry no signal, the classes can only be read from typed
// neighbourhoods (authors, fields, cited papers), and R-GCN learns them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "backend/backend.h"
#include "cli_runner.h"
#include "error_checks.h"
#include "generate/generators.h"
#include "sampling/hetero_neighbor.h"
#include "test_data.h"
#include "train/hetero_trainer.h"
#include "train/rgcn.h"

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
  options.train.epoch.batch_size = 64;
  options.train.threads = 2;
  const HeteroSummary s = train_rgcn(g, g.type_index("paper"), sampler, *cpu, options, nullptr, nullptr);
  EXPECT_EQ(s.epochs, 8);
  EXPECT_GT(s.best_validation_accuracy, 0.7) << "4 classes: chance is 0.25";
  EXPECT_GT(s.test_accuracy, 0.7);
}

// Papers whose own features are noise, written by 3 authors of their class
// (whose features carry it) and citing 10 random papers: the class is in the
// writes relation only.
HeteroGraph class_in_one_relation() {
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
  return g;
}

HeteroTrainOptions small_options() {
  HeteroTrainOptions options;
  options.train.hidden = 16;
  options.train.dropout = 0;
  options.train.learning_rate = 0.02;
  options.train.weight_decay = 0;
  options.train.epochs = 15;
  options.train.epoch.batch_size = 32;
  options.train.threads = 2;
  return options;
}

// R-GCN reads the class in the writes relation; a model that ignores the types
// averages it with the citations' noise. One basis (W_writes and W_cites equal
// up to a scale each) still separates the relations.
TEST(HeteroTrainer, RelationWeightsBeatAModelThatIgnoresTypes) {
  const HeteroGraph g = class_in_one_relation();
  auto cpu = make_cpu_backend();
  const HeteroNeighborSampler sampler(*cpu, g, {{3}, {10}});
  HeteroTrainOptions options = small_options();
  const HeteroSummary typed = train_rgcn(g, 0, sampler, *cpu, options, nullptr, nullptr);
  options.num_bases = 1;
  const HeteroSummary basis = train_rgcn(g, 0, sampler, *cpu, options, nullptr, nullptr);
  options.num_bases = 0;
  options.shared_relation_weight = true;
  const HeteroSummary untyped = train_rgcn(g, 0, sampler, *cpu, options, nullptr, nullptr);
  EXPECT_GT(typed.test_accuracy, untyped.test_accuracy + 0.1)
      << "R-GCN " << typed.test_accuracy << ", types ignored " << untyped.test_accuracy;
  EXPECT_GT(typed.test_accuracy, 0.8);
  EXPECT_GT(basis.test_accuracy, untyped.test_accuracy + 0.1)
      << "one basis " << basis.test_accuracy << ", types ignored " << untyped.test_accuracy;
  EXPECT_GT(basis.test_accuracy, 0.8);
}

// By time (PyG's temporal node classification), training and evaluation:
// the class is in the authors, so R-GCN reads it when they are no later than
// the papers and cannot when every author is later than every paper.
TEST(HeteroTrainer, ReadsOnlyWhatIsNoLaterThanEachSeed) {
  const HeteroGraph g = class_in_one_relation();
  auto cpu = make_cpu_backend();
  const HeteroNeighborSampler sampler(*cpu, g, {{3}, {10}});
  HeteroTrainOptions options = small_options();
  const auto accuracy_with_authors_at = [&](int64_t author_time) {
    std::vector<std::vector<int64_t>> times{std::vector<int64_t>(g.types[0].count),
                                            std::vector<int64_t>(g.types[1].count, author_time)};
    for (int64_t p = 0; p < g.types[0].count; ++p) times[0][p] = 10 + p % 50;
    options.times =
        std::make_shared<HeteroTemporalEpoch>(hetero_epoch_times(*cpu, g, std::move(times), TemporalStrategy::uniform));
    return train_rgcn(g, 0, sampler, *cpu, options, nullptr, nullptr).test_accuracy;
  };
  const double past = accuracy_with_authors_at(0), future = accuracy_with_authors_at(100);
  EXPECT_GT(past, 0.8);
  EXPECT_LT(future, 0.5) << "4 classes, the class only in authors later than every paper";
  options.times = std::make_shared<HeteroTemporalEpoch>(
      hetero_epoch_times(*cpu, g, {{}, std::vector<int64_t>(g.types[1].count, 0)}, TemporalStrategy::uniform));
  testing::expect_error([&] { train_rgcn(g, 0, sampler, *cpu, options, nullptr, nullptr); },
                        "training by time: vertex type paper has no times");
}

int64_t parameter_count(const torch::nn::Module& m) {
  int64_t n = 0;
  for (const torch::Tensor& p : m.parameters()) n += p.numel();
  return n;
}

// B bases: B·in·out + R·B relation weights per layer, plus a root (weight and
// bias) per type; a full weight per relation: R·in·out.
TEST(HeteroTrainer, BasisDecompositionHasItsParameterCount) {
  const HeteroGraph g = class_in_one_relation();  // 2 types, 2 relations
  const int64_t hidden = 16, classes = 4, relations = 2, types = 2;
  const auto roots = [&](int64_t out) { return types * (hidden * out + out); };
  for (const int64_t bases : {1, 2}) {
    const Rgcn model(g, RgcnShape{2, hidden, classes, bases, false, 0});
    EXPECT_EQ(parameter_count(model.layer(1)), bases * hidden * hidden + relations * bases + roots(hidden));
    EXPECT_EQ(parameter_count(model.layer(0)), bases * hidden * classes + relations * bases + roots(classes));
  }
  const Rgcn full(g, RgcnShape{2, hidden, classes, 0, false, 0});
  EXPECT_EQ(parameter_count(full.layer(1)), relations * hidden * hidden + roots(hidden));

  const auto refused = [&](const RgcnShape& shape, const std::string& needle) {
    try {
      const Rgcn model(g, shape);
      ADD_FAILURE() << "built a model of " << shape.num_bases << " bases";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  refused(RgcnShape{2, hidden, classes, 3, false, 0}, "3 bases for 2 relations");
  refused(RgcnShape{2, hidden, classes, -1, false, 0}, "must be 0 (a full weight per relation) or positive");
  refused(RgcnShape{2, hidden, classes, 1, true, 0}, "the ablation that ignores types has one weight");
}

// --torch-threads reaches torch through the loop, for every task (this one included).
TEST(HeteroTrainer, SetsTorchsThreads) {
  const HeteroGraph g = class_in_one_relation();
  auto cpu = make_cpu_backend();
  const std::unique_ptr<Communicator> self = make_self_communicator();
  const HeteroNeighborSampler sampler(*cpu, g, {{3, 3}, {4, 4}});
  const int before = torch::get_num_threads();
  torch::set_num_threads(2);
  HeteroTrainOptions options = small_options();
  options.train.threads = 1;
  const RgcnTrainer trainer(g, 0, sampler, *cpu, *self, options);
  EXPECT_EQ(torch::get_num_threads(), 1);
  torch::set_num_threads(before);
}

// k epochs, a checkpoint, a new trainer resumed from it for the rest: the
// epochs and the summary of a run that never stopped, bit for bit.
TEST(HeteroTrainer, ResumesFromACheckpointExactly) {
  const HeteroGraph g = class_in_one_relation();
  auto cpu = make_cpu_backend();
  const std::unique_ptr<Communicator> self = make_self_communicator();
  const HeteroNeighborSampler sampler(*cpu, g, {{3, 3}, {4, 4}});
  const std::string dir = testing::scratch_dir("rgcn_checkpoint");
  HeteroTrainOptions options = small_options();
  options.train.epochs = 4;
  options.train.dropout = 0.3;
  options.num_bases = 2;
  RgcnTrainer straight(g, 0, sampler, *cpu, *self, options);
  std::vector<HeteroEpoch> expected;
  while (!straight.finished()) expected.push_back(straight.train_epoch());
  {
    RgcnTrainer first(g, 0, sampler, *cpu, *self, options);
    for (int e = 0; e < 2; ++e) first.train_epoch();
    first.save_checkpoint(dir + "/rgcn.pt");
  }
  RgcnTrainer resumed(g, 0, sampler, *cpu, *self, options);
  resumed.load_checkpoint(dir + "/rgcn.pt");
  EXPECT_EQ(resumed.next_epoch(), 2);
  for (size_t e = 2; e < expected.size(); ++e) {
    const HeteroEpoch got = resumed.train_epoch();
    EXPECT_EQ(got.epoch, expected[e].epoch);
    EXPECT_EQ(got.loss, expected[e].loss) << "epoch " << e;
    EXPECT_EQ(got.validation_accuracy, expected[e].validation_accuracy) << "epoch " << e;
    EXPECT_EQ(got.test_accuracy, expected[e].test_accuracy) << "epoch " << e;
  }
  EXPECT_TRUE(resumed.finished());
  const HeteroSummary a = straight.summary(), b = resumed.summary();
  EXPECT_EQ(b.epochs, a.epochs);
  EXPECT_EQ(b.best_epoch, a.best_epoch);
  EXPECT_EQ(b.best_validation_accuracy, a.best_validation_accuracy);
  EXPECT_EQ(b.test_accuracy, a.test_accuracy);
  EXPECT_NE(RgcnTrainer(g, 0, sampler, *cpu, *self, options).train_epoch().loss, expected[2].loss)
      << "a fresh trainer: the checkpoint carried state";

  // Another model shape's checkpoint is refused by name, before anything is loaded.
  options.num_bases = 1;
  try {
    RgcnTrainer(g, 0, sampler, *cpu, *self, options).load_checkpoint(dir + "/rgcn.pt");
    ADD_FAILURE() << "loaded a checkpoint of 2 bases into a model of 1";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("belongs to another run (seed, vertex types"), std::string::npos) << e.what();
  }
}

TEST(HeteroTrainer, TrainsFromTheCli) {
  const std::string dir = testing::scratch_dir("hetero_train_cli");
  const std::string options =
      " --relation-fanouts 'writes=5,5;rev_writes=5,5;cites=5,5' -b 64 --epochs 2 --hidden 16 "
      "--torch-threads 1";
  const testing::CliResult r = testing::run_cli("train -g mag:1000:4 --model rgcn --add-reverse" + options, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("training R-GCN (per-relation weights) on paper vertices"), std::string::npos) << r.err;
  EXPECT_EQ(testing::count_lines(r.out), 3) << r.out;  // two epochs and the summary
  EXPECT_NE(r.out.find("\"summary\":true"), std::string::npos);
  testing::expect_one_line_error(testing::run_cli("train -g mag:1000 --task link --epochs 1", dir),
                                 "--task link is for homogeneous graphs");
  testing::expect_one_line_error(testing::run_cli("train -g mag:1000 --explain-every 2 --epochs 1", dir),
                                 "reads its features whole (no --feature-replication or --explain-every)");
  testing::expect_one_line_error(testing::run_cli("train -g mag:1000 --model gcn --epochs 1", dir),
                                 "heterogeneous graphs train R-GCN (--model rgcn), not gcn");
  testing::expect_one_line_error(testing::run_cli("train -g planted:300:4 --model rgcn --epochs 1", dir),
                                 "planted:300:4 has one vertex type");
  testing::expect_one_line_error(testing::run_cli("train -g mag:1000 --seed-type author --epochs 1", dir),
                                 "vertex type author has no labels to train on");

  // The same graph stored as .msg trains alike: the same summary line.
  ASSERT_EQ(testing::run_cli("convert -g mag:1000:4 -o " + dir + "/mag.msg", dir).exit_code, 0);
  const testing::CliResult stored = testing::run_cli("train -g " + dir + "/mag.msg" + options, dir);
  ASSERT_EQ(stored.exit_code, 0) << stored.err;
  const auto summary = [](const std::string& out) { return out.substr(out.rfind("{\"summary\"")); };
  EXPECT_EQ(summary(stored.out), summary(r.out));
}

// train --temporal on an OGB folder with paper years (ogbn-mag's node_year):
// --time-split splits the papers by them, and training samples by them.
TEST(HeteroTrainer, TrainsByTimeFromTheCli) {
  const std::string dir = testing::scratch_dir("hetero_train_time");
  ASSERT_EQ(testing::run_cli("convert -g mag:1000:4 --format ogb -o " + dir + "/ogbn_mag", dir).exit_code, 0);
  std::filesystem::create_directories(dir + "/ogbn_mag/raw/node_year/paper");
  std::ofstream years(dir + "/ogbn_mag/raw/node_year/paper/node_year.csv");
  for (int v = 0; v < 1000; ++v) years << 2000 + v % 20 << "\n";
  years.close();
  const std::string command = "train -g " + dir +
                              "/ogbn_mag --fanouts 5,5 -b 64 --epochs 2 --hidden 16 --torch-threads 1";
  const testing::CliResult timed = testing::run_cli(command + " --temporal uniform --time-split 2010,2015", dir);
  ASSERT_EQ(timed.exit_code, 0) << timed.err;
  EXPECT_NE(timed.err.find("on paper vertices: 500 train, 250 validation, 250 test"), std::string::npos) << timed.err;
  EXPECT_EQ(testing::count_lines(timed.out), 3) << timed.out;
  const testing::CliResult again = testing::run_cli(command + " --temporal uniform --time-split 2010,2015", dir);
  const testing::CliResult last = testing::run_cli(command + " --temporal last --time-split 2010,2015", dir);
  ASSERT_EQ(last.exit_code, 0) << last.err;
  const auto summary = [](const std::string& out) { return out.substr(out.rfind("{\"summary\"")); };
  EXPECT_EQ(summary(again.out), summary(timed.out));
  EXPECT_NE(summary(last.out), summary(timed.out));
  testing::expect_one_line_error(testing::run_cli("train -g mag:1000 --epochs 1 --time-split 1,2", dir),
                                 "--time-split needs --temporal");
  // Times for authors only: papers, the seeds, have none to split or sample by.
  HeteroMagOptions shape;
  shape.papers = 1000;
  shape.classes = 4;
  const HeteroGraph mag = generate_hetero_mag(shape);
  std::filesystem::remove_all(dir + "/ogbn_mag/raw/node_year/paper");
  std::filesystem::create_directories(dir + "/ogbn_mag/raw/node_year/author");
  std::ofstream author_years(dir + "/ogbn_mag/raw/node_year/author/node_year.csv");
  for (int64_t v = 0; v < mag.types[mag.type_index("author")].count; ++v) author_years << 2000 + v % 20 << "\n";
  author_years.close();
  testing::expect_one_line_error(
      testing::run_cli("train -g " + dir + "/ogbn_mag --epochs 1 --temporal uniform --time-split 2010,2015", dir),
      "--time-split: vertex type paper has no times to split by");
  testing::expect_one_line_error(testing::run_cli("train -g mag:1000 --epochs 1 --temporal uniform", dir),
                                 "--temporal needs vertex times: no vertex type of the graph has any");
}

TEST(HeteroTrainer, CheckpointsAndResumesFromTheCli) {
  const std::string dir = testing::scratch_dir("hetero_train_resume");
  const std::string command = "train -g mag:600:4 --fanouts 4,4 -b 64 --hidden 16 --num-bases 2 --torch-threads 1";
  const testing::CliResult first = testing::run_cli(command + " --epochs 2 --checkpoint " + dir + "/rgcn.pt", dir);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.err.find("training R-GCN (2 bases for the relation weights)"), std::string::npos) << first.err;
  const testing::CliResult straight = testing::run_cli(command + " --epochs 3", dir);
  const testing::CliResult resumed = testing::run_cli(command + " --epochs 3 --resume " + dir + "/rgcn.pt", dir);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("resumed from " + dir + "/rgcn.pt at epoch 2"), std::string::npos) << resumed.err;
  EXPECT_EQ(testing::count_lines(resumed.out), 2) << resumed.out;  // epoch 2 and the summary
  // The third epoch's line, times aside, and the summary are those of a run that never stopped.
  const auto without_measurements = [](const std::string& out, const std::string& from) {
    const size_t at = out.find(from);
    return at == std::string::npos ? std::string("missing")
                                   : out.substr(at, out.find("\"peak_memory_bytes\"", at) - at);
  };
  EXPECT_EQ(without_measurements(resumed.out, "{\"epoch\":2,"), without_measurements(straight.out, "{\"epoch\":2,"));
  EXPECT_NE(without_measurements(straight.out, "{\"epoch\":2,"), "missing") << straight.out;
  EXPECT_EQ(without_measurements(resumed.out, "{\"summary\""), without_measurements(straight.out, "{\"summary\""));

  // Another kind of training's checkpoint, and another model shape's, are refused.
  testing::expect_one_line_error(
      testing::run_cli("train -g planted:300:4 --epochs 1 --resume " + dir + "/rgcn.pt", dir),
      "belongs to another run: R-GCN wrote it, this is node classification");
  ASSERT_EQ(testing::run_cli("train -g planted:300:4 --epochs 1 --checkpoint " + dir + "/node.pt", dir).exit_code, 0);
  testing::expect_one_line_error(testing::run_cli(command + " --epochs 3 --resume " + dir + "/node.pt", dir),
                                 "belongs to another run: node classification wrote it, this is R-GCN");
  testing::expect_one_line_error(
      testing::run_cli("train -g mag:600:4 --fanouts 4,4 -b 64 --hidden 16 --torch-threads 1 --epochs 3 --resume " +
                           dir + "/rgcn.pt",
                       dir),
      "belongs to another run (seed, vertex types, relations");

  // Bases: at most one per relation (mag has 7 with its reverses), none negative, none for the ablation.
  testing::expect_one_line_error(testing::run_cli("train -g mag:600 --epochs 1 --num-bases 8", dir),
                                 "8 bases for 7 relations");
  testing::expect_usage_error(testing::run_cli("train -g mag:600 --epochs 1 --num-bases -1", dir), "--num-bases");
  testing::expect_one_line_error(
      testing::run_cli("train -g mag:600 --epochs 1 --num-bases 2 --relation-weights shared", dir),
      "the ablation that ignores types has one weight");
}

}  // namespace
}  // namespace matsamp
