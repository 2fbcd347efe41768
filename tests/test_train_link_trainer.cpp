// The link trainer as a loop: it learns, its steps do not depend on how many
// minibatches are sampled at once, it resumes exactly from a checkpoint, and it
// refuses another run's checkpoint.
#include <gtest/gtest.h>

#include "link_training_data.h"
#include "test_data.h"
#include "test_sampler.h"

namespace matsamp {
namespace {

struct LinkSetup {
  LinkSetup() : data(testing::planted_link_data()), sampler(testing::graphsage(data.graph.adj, {5, 5}, 3)) {}
  std::unique_ptr<LinkTrainer> trainer(const LinkTrainOptions& options) const {
    return std::make_unique<LinkTrainer>(data.graph, data.split, sampler->on_cpu(), sampler->cpu(), *comm, options);
  }
  const testing::LinkTrainingData data;
  const std::unique_ptr<testing::TestSampler> sampler;
  const std::unique_ptr<Communicator> comm = make_self_communicator();
};

TEST(LinkTrainer, LearnsToTellEdgesFromNegatives) {
  const LinkSetup setup;
  LinkTrainOptions options = testing::small_link_options();
  options.train.epochs = 30;
  const auto trainer = setup.trainer(options);
  const LinkEpoch first = trainer->train_epoch();
  LinkEpoch last;
  while (!trainer->finished()) last = trainer->train_epoch();
  EXPECT_LT(last.loss, 0.8 * first.loss);
  EXPECT_EQ(last.steps, (setup.data.split.train.size() + 31) / 32);
  const LinkSummary summary = trainer->summary();
  EXPECT_EQ(summary.epochs, 30);
  EXPECT_GT(summary.validation.auc, 0.75) << "a random scorer gives 0.5";
  EXPECT_GT(summary.test.auc, 0.7);
  EXPECT_EQ(summary.test.hits.size(), 2u);
}

TEST(LinkTrainer, BulkSizeChangesNothing) {
  const LinkSetup setup;
  LinkTrainOptions options = testing::small_link_options();
  std::vector<LinkEpoch> runs[2];
  for (int i = 0; i < 2; ++i) {
    options.train.epoch.bulk_steps = i == 0 ? 1 : 5;
    const auto trainer = setup.trainer(options);
    while (!trainer->finished()) runs[i].push_back(trainer->train_epoch());
  }
  ASSERT_EQ(runs[0].size(), runs[1].size());
  for (size_t e = 0; e < runs[0].size(); ++e) {
    EXPECT_DOUBLE_EQ(runs[0][e].loss, runs[1][e].loss) << "epoch " << e;
    EXPECT_DOUBLE_EQ(runs[0][e].validation.auc, runs[1][e].validation.auc) << "epoch " << e;
  }
}

TEST(LinkTrainer, ResumesFromACheckpointExactly) {
  const LinkSetup setup;
  const std::string dir = testing::scratch_dir("link_checkpoint");
  LinkTrainOptions options = testing::small_link_options();
  const auto original = setup.trainer(options);
  for (int e = 0; e < 2; ++e) original->train_epoch();
  original->save_checkpoint(dir + "/link.pt");
  const LinkEpoch expected = original->train_epoch();

  const auto resumed = setup.trainer(options);
  resumed->load_checkpoint(dir + "/link.pt");
  EXPECT_EQ(resumed->next_epoch(), 2);
  const LinkEpoch got = resumed->train_epoch();
  EXPECT_EQ(got.epoch, 2);
  EXPECT_DOUBLE_EQ(got.loss, expected.loss);
  EXPECT_DOUBLE_EQ(got.validation.auc, expected.validation.auc);
  EXPECT_EQ(resumed->summary().best_epoch, original->summary().best_epoch);
  EXPECT_DOUBLE_EQ(resumed->summary().test.auc, original->summary().test.auc);
  EXPECT_NE(setup.trainer(options)->train_epoch().loss, expected.loss)
      << "a fresh trainer: the checkpoint carried state";

  // Another run's checkpoint is refused by name, before anything is loaded.
  options.decoder = "mlp";
  try {
    setup.trainer(options)->load_checkpoint(dir + "/link.pt");
    ADD_FAILURE() << "loaded a checkpoint of a dot-product model into an MLP one";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("belongs to another run"), std::string::npos) << e.what();
  }
}

TEST(LinkTrainer, RejectsBadOptions) {
  const LinkSetup setup;
  LinkTrainOptions options = testing::small_link_options();
  options.train.epoch.minibatches_per_step = 3;
  EXPECT_NO_THROW(setup.trainer(options));  // one process shares any number of lanes
  options.train.model = "gcn";
  EXPECT_THROW(setup.trainer(options), Error);
  options = testing::small_link_options();
  options.train.feature_replication = 1;
  EXPECT_THROW(setup.trainer(options), Error);
  options = testing::small_link_options();
  options.train.epoch.batch_size = 0;
  EXPECT_THROW(setup.trainer(options), Error);
}

}  // namespace
}  // namespace matsamp
