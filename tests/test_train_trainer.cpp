// The training loop end to end on small planted-partition graphs: it learns,
// resumes exactly from a checkpoint, and rejects bad options with clear errors.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>

#include "generate/generators.h"
#include "graph/transform.h"
#include "test_data.h"
#include "test_sampler.h"
#include "train/trainer.h"

#include <torch/cuda.h>
#include <torch/nn/module.h>

namespace matsamp {
namespace {

TrainingData planted_training_data(uint64_t seed = 3) {
  PlantedPartitionOptions graph;
  graph.vertices = 240;
  graph.classes = 4;
  graph.average_degree = 8;
  graph.feature_dim = 16;
  graph.seed = seed;
  TrainingDataOptions options;
  options.split = {10, 10, seed};
  return prepare_training_data(cleanup(generate_planted_partition(graph), {true, true, true}), options);
}

std::unique_ptr<testing::TestSampler> sampler_for(const std::string& name, const TrainingData& data, uint64_t seed) {
  if (name == "graphsage") return testing::graphsage(data.graph.adj, {5, 5}, seed);
  if (name == "labor") return testing::labor(data.graph.adj, {5, 5}, seed);
  if (name == "saint") return testing::saint("saint", data.graph.adj, 2, 2, seed);
  return testing::layer_wise(name, data.graph.adj, {64, 64}, seed);
}

TrainOptions small_options(const std::string& model) {
  TrainOptions options;
  options.model = model;
  options.hidden = 32;
  options.dropout = 0.2;
  options.learning_rate = 0.02;
  options.weight_decay = 0;
  options.epochs = 60;
  options.epoch.batch_size = 8;
  options.epoch.bulk_steps = 2;
  options.epoch.seed = 11;
  options.threads = 1;  // tiny tensors: more threads only wait for each other
  return options;
}

// The planted training data, a sampler over it, the CPU backend and the
// one-process communicator: what every trainer of a test is built on.
struct TrainSetup {
  explicit TrainSetup(const std::string& sampler_name = "graphsage")
      : data(planted_training_data()), sampler(sampler_for(sampler_name, data, 11)), comm(make_self_communicator()) {}

  std::unique_ptr<Trainer> trainer(const TrainOptions& options) const {
    return std::make_unique<Trainer>(data, sampler->on_cpu(), sampler->cpu(), *comm, options);
  }

  const TrainingData data;
  const std::unique_ptr<testing::TestSampler> sampler;  // and the CPU backend it samples on
  const std::unique_ptr<Communicator> comm;
};

struct TrainCase {
  std::string sampler, model;
};

void PrintTo(const TrainCase& c, std::ostream* out) { *out << c.sampler << " sampler, " << c.model << " model"; }

class TrainerOnPlantedGraph : public ::testing::TestWithParam<TrainCase> {};

TEST_P(TrainerOnPlantedGraph, ReachesFullTrainingAccuracy) {
  const TrainSetup setup(GetParam().sampler);
  const auto trainer = setup.trainer(small_options(GetParam().model));
  EpochMetrics first = trainer->train_epoch(), last;
  while (!trainer->finished()) last = trainer->train_epoch();
  EXPECT_EQ(last.train_accuracy, 1.0);
  EXPECT_LT(last.loss, 0.5 * first.loss);
  EXPECT_EQ(last.steps, 5);                                     // 40 training vertices in minibatches of 8
  EXPECT_GT(trainer->summary().best_validation_accuracy, 0.5);  // 4 classes: chance is 0.25
}

TEST_P(TrainerOnPlantedGraph, ResumesFromACheckpointWithTheSameNextEpoch) {
  const TrainSetup setup(GetParam().sampler);
  const std::string path = testing::scratch_dir("train_checkpoint") + "/model.pt";

  const auto original = setup.trainer(small_options(GetParam().model));
  for (int e = 0; e < 3; ++e) original->train_epoch();
  original->save_checkpoint(path);
  const EpochMetrics expected = original->train_epoch();

  const auto resumed = setup.trainer(small_options(GetParam().model));
  resumed->load_checkpoint(path);
  EXPECT_EQ(resumed->next_epoch(), 3);
  const EpochMetrics got = resumed->train_epoch();
  EXPECT_EQ(got.epoch, 3);
  EXPECT_DOUBLE_EQ(got.loss, expected.loss);
  EXPECT_DOUBLE_EQ(got.validation_loss, expected.validation_loss);
  EXPECT_EQ(resumed->summary().best_epoch, original->summary().best_epoch);

  // A fresh trainer differs: the checkpoint did carry the state.
  const auto fresh = setup.trainer(small_options(GetParam().model));
  EXPECT_NE(fresh->train_epoch().loss, expected.loss);
}

INSTANTIATE_TEST_SUITE_P(Models, TrainerOnPlantedGraph,
                         ::testing::Values(TrainCase{"graphsage", "sage"}, TrainCase{"ladies", "gcn"},
                                           TrainCase{"fastgcn", "gcn"}, TrainCase{"saint", "sage"},
                                           TrainCase{"labor", "sage"}),
                         [](const auto& info) { return info.param.sampler + "_" + info.param.model; });

// Sampling ahead and preparing steps ahead on their own threads change when
// things run, never what: the same losses and scores, epoch after epoch. On a
// GPU, training runs on a stream of its own that the preparing thread shares
// (training_stream.h); a step read before its tensors are written would differ.
// Summation order may differ there between runs: a relative tolerance (0: equal).
void expect_pipeline_changes_nothing(const std::string& device, double tolerance) {
  const TrainSetup setup;
  TrainOptions options = small_options("sage");
  options.epoch.bulk_steps = 2;
  options.device = device;
  std::vector<std::unique_ptr<Trainer>> trainers;
  for (bool prefetch : {true, false})
    for (bool pipeline : {true, false}) {
      options.prefetch = prefetch;
      options.pipeline = pipeline;
      trainers.push_back(setup.trainer(options));
    }
  for (int e = 0; e < 3; ++e) {
    const EpochMetrics first = trainers[0]->train_epoch();
    EXPECT_GT(first.steps, 4) << "steps of several bulks go through the pipeline";
    for (size_t t = 1; t < trainers.size(); ++t) {
      const EpochMetrics m = trainers[t]->train_epoch();
      if (tolerance == 0) EXPECT_DOUBLE_EQ(m.loss, first.loss) << "configuration " << t << ", epoch " << e;
      else EXPECT_NEAR(m.loss, first.loss, tolerance * first.loss) << "configuration " << t << ", epoch " << e;
      EXPECT_DOUBLE_EQ(m.validation_accuracy, first.validation_accuracy) << "configuration " << t;
      EXPECT_EQ(m.steps, first.steps);
    }
  }
}

TEST(Trainer, PrefetchAndPipelineChangeNothingButTiming) { expect_pipeline_changes_nothing("cpu", 0); }

TEST(Trainer, PrefetchAndPipelineChangeNothingButTimingOnTheGpu) {
  if (!torch::cuda::is_available()) GTEST_SKIP() << "no GPU";
  expect_pipeline_changes_nothing("cuda", 1e-5);
}

// A sampler that fails on its n-th call: the epoch ends with its error while
// other bulks are being sampled and steps prepared, and nothing hangs.
class FailingSampler final : public Sampler {
 public:
  FailingSampler(const Sampler& inner, int fail_at) : inner_(inner), fail_at_(fail_at) {}
  std::string name() const override { return inner_.name(); }
  int num_layers() const override { return inner_.num_layers(); }
  Bulk sample(Context& ctx, const SeedBatch& seeds, int64_t first, uint32_t epoch) const override {
    MATSAMP_CHECK(++calls_ != fail_at_, "sampling failed on call ", calls_);
    return inner_.sample(ctx, seeds, first, epoch);
  }
  int64_t bytes_per_minibatch(int64_t batch_size) const override { return inner_.bytes_per_minibatch(batch_size); }
  void count_traffic(const BulkSample& bulk, StepStats& stats) const override { inner_.count_traffic(bulk, stats); }

 private:
  const Sampler& inner_;
  int fail_at_;
  mutable std::atomic<int> calls_{0};
};

TEST(Trainer, AFailingStageEndsTheEpochWithItsError) {
  const TrainSetup setup;
  TrainOptions options = small_options("sage");
  options.epoch.bulk_steps = 1;
  options.evaluation = EvaluationMode::full;
  for (bool pipeline : {true, false}) {
    const FailingSampler failing(setup.sampler->on_cpu(), 3);
    Trainer trainer(setup.data, failing, setup.sampler->cpu(), *setup.comm, [&] {
      TrainOptions o = options;
      o.pipeline = pipeline;
      return o;
    }());
    try {
      trainer.train_epoch();
      ADD_FAILURE() << "no error (pipeline " << pipeline << ")";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("sampling failed on call 3"), std::string::npos) << e.what();
    }
  }
}

TEST(Trainer, SampledEvaluationScoresTheSameVertices) {
  const TrainSetup setup;
  TrainOptions options = small_options("sage");
  options.evaluation = EvaluationMode::sampled;
  options.epochs = 40;
  const auto trainer = setup.trainer(options);
  EpochMetrics last;
  while (!trainer->finished()) last = trainer->train_epoch();
  EXPECT_GT(last.train_accuracy, 0.9);
  EXPECT_GT(last.validation_accuracy, 0.5);
}

TEST(Trainer, EarlyStoppingEndsAfterPatienceEpochsWithoutImprovement) {
  const TrainSetup setup;
  TrainOptions options = small_options("sage");
  options.epochs = 500;
  options.patience = 5;
  const TrainSummary summary = setup.trainer(options)->run(nullptr, nullptr);
  EXPECT_TRUE(summary.stopped_early);
  EXPECT_EQ(summary.epochs_run, summary.best_epoch + 1 + 5);
}

TEST(Trainer, RejectsCheckpointsOfAnotherModelAndBadOptions) {
  const TrainSetup setup;
  const std::string dir = testing::scratch_dir("train_bad_checkpoint");
  const auto small = setup.trainer(small_options("sage"));
  small->save_checkpoint(dir + "/small.pt");
  TrainOptions wider = small_options("sage");
  wider.hidden = 48;
  const auto other = setup.trainer(wider);
  EXPECT_THROW(other->load_checkpoint(dir + "/small.pt"), Error);
  EXPECT_THROW(other->load_checkpoint(dir + "/missing.pt"), Error);

  TrainOptions bad = small_options("sage");
  bad.device = "cuda";  // without a GPU: a clear error, not a crash
  if (torch::cuda::is_available()) EXPECT_NO_THROW(setup.trainer(bad));
  else EXPECT_THROW(setup.trainer(bad), Error);
  bad = small_options("mlp");
  EXPECT_THROW(setup.trainer(bad), Error);
  bad = small_options("sage");
  bad.learning_rate = 0;
  EXPECT_THROW(setup.trainer(bad), Error);
}

// A checkpoint with a flipped byte or cut short is refused in one line; a flip
// inside a model tensor names it, a flip anywhere else fails the file's checksum.
// A changed byte anywhere, in a tensor's data or in torch's archive structure, is refused
// by the file's checksum before torch parses anything (torch 1.13's reader can terminate the
// process on a damaged archive: scripts/fuzz.sh's checkpoint target found it).
TEST(Trainer, CorruptCheckpointsAreRefusedBeforeTorchReadsThem) {
  const TrainSetup setup;
  const std::string dir = testing::scratch_dir("train_corrupt_checkpoint");
  const auto trainer = setup.trainer(small_options("sage"));
  trainer->save_checkpoint(dir + "/good.pt");
  EXPECT_FALSE(std::filesystem::exists(dir + "/good.pt.partial"));
  std::ifstream in(dir + "/good.pt", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), {});
  auto write = [&](const std::string& name, const std::string& content) {
    std::ofstream(dir + "/" + name, std::ios::binary) << content;
    return dir + "/" + name;
  };
  auto expect_refused = [&](const std::string& path, const std::string& fragment) {
    const auto other = setup.trainer(small_options("sage"));
    try {
      other->load_checkpoint(path);
      ADD_FAILURE() << "accepted " << path;
    } catch (const Error& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      EXPECT_NE(message.find(fragment), std::string::npos) << message;
    }
  };
  // The first parameter's bytes, found in the file; and the type names of torch's pickle.
  const torch::Tensor first = trainer->model().parameters().front().detach().contiguous().cpu();
  const std::string raw(static_cast<const char*>(first.data_ptr()), first.numel() * first.element_size());
  const size_t in_tensor = bytes.find(raw), in_pickle = bytes.find("torch");
  ASSERT_NE(in_tensor, std::string::npos);
  ASSERT_NE(in_pickle, std::string::npos);
  for (size_t offset : {in_tensor + raw.size() / 2, in_pickle + 2, size_t{40}, bytes.size() / 3, bytes.size() - 30}) {
    std::string flipped = bytes;
    flipped[offset] ^= 0x01;
    expect_refused(write("flip.pt", flipped), "is corrupt: the file fails its checksum");
  }
  expect_refused(write("cut.pt", bytes.substr(0, bytes.size() - 100)), "is truncated");
  expect_refused(write("old.pt", bytes.substr(32)), "not a matsamp checkpoint");
  EXPECT_NO_THROW(setup.trainer(small_options("sage"))->load_checkpoint(dir + "/good.pt"));
}

}  // namespace
}  // namespace matsamp
