// Data-parallel training under mpirun: p ranks, each training on its lanes of
// every step, follow the loss curve of one process with the same seed and
// global batch (every rank also runs that one-process reference itself).
#include <gtest/gtest.h>
#include <mpi.h>

#include "distributed/mpi_communicator.h"
#include "generate/generators.h"
#include "graph/transform.h"
#include "train/trainer.h"

namespace matsamp {
namespace {

Communicator& world() {
  static std::unique_ptr<Communicator> comm = make_mpi_communicator(MPI_COMM_WORLD);
  return *comm;
}

TrainingData planted_training_data() {
  PlantedPartitionOptions graph;
  graph.vertices = 300;
  graph.classes = 3;
  graph.average_degree = 8;
  graph.feature_dim = 16;
  graph.seed = 5;
  TrainingDataOptions options;
  options.split = {12, 10, 5};
  return prepare_training_data(cleanup(generate_planted_partition(graph), {true, true, true}), options);
}

struct MpiCase {
  std::string sampler;
  int64_t minibatches_per_step;
  int64_t bulk_steps;   // 0: from the memory budget
  int feature_replication = 0;
};

void PrintTo(const MpiCase& c, std::ostream* out) {
  *out << c.sampler << ", " << c.minibatches_per_step << " minibatches per step, " << c.bulk_steps
       << " steps per bulk, feature replication " << c.feature_replication;
}

class TrainMpi : public ::testing::TestWithParam<MpiCase> {};

TEST_P(TrainMpi, FollowsTheSingleProcessLossCurve) {
  const int64_t lanes = GetParam().minibatches_per_step;
  if (lanes % world().size() != 0) GTEST_SKIP() << lanes << " minibatches per step cannot be shared by "
                                                << world().size() << " processes";
  const TrainingData data = planted_training_data();
  std::unique_ptr<Sampler> sampler =
      GetParam().sampler == "graphsage"
          ? make_graphsage_sampler(data.graph.adj, {4, 4}, 9)
          : make_layerwise_sampler(LayerWiseKind::ladies, data.graph.adj, {48, 48}, 9);
  auto backend = make_cpu_backend();
  TrainOptions options;
  options.model = GetParam().sampler == "graphsage" ? "sage" : "gcn";
  options.hidden = 16;
  options.dropout = 0.5;   // masks are keyed by minibatch, so they match across p too
  options.learning_rate = 0.02;
  options.epochs = 6;
  options.batch_size = 5;   // 36 training vertices: 8 minibatches, the last one short
  options.bulk_steps = GetParam().bulk_steps;
  options.feature_replication = GetParam().feature_replication;   // rows fetched from their owners
  options.memory_budget = 3 * sampler->bytes_per_minibatch(options.batch_size);   // 3 of 8 minibatches fit
  options.minibatches_per_step = lanes;
  options.seed = 9;
  options.threads = 1;

  Trainer distributed(data, *sampler, *backend, world(), options);
  auto self = make_self_communicator();
  Trainer single(data, *sampler, *backend, *self, options);
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    const EpochMetrics got = distributed.train_epoch();
    const EpochMetrics expected = single.train_epoch();
    // Only the order of float sums differs (gradients summed over ranks vs. accumulated).
    EXPECT_NEAR(got.loss, expected.loss, 1e-5 * expected.loss) << "epoch " << epoch;
    EXPECT_NEAR(got.validation_loss, expected.validation_loss, 1e-5 * expected.validation_loss)
        << "epoch " << epoch;
    EXPECT_EQ(got.steps, expected.steps);
  }
  EXPECT_EQ(distributed.next_epoch(), options.epochs);
}

INSTANTIATE_TEST_SUITE_P(Samplers, TrainMpi,
                         ::testing::Values(MpiCase{"graphsage", 2, 2}, MpiCase{"graphsage", 4, 2},
                                           MpiCase{"graphsage", 2, 0}, MpiCase{"ladies", 2, 2},
                                           MpiCase{"graphsage", 2, 2, 1}, MpiCase{"ladies", 2, 2, 1}),
                         [](const auto& info) {
                           return info.param.sampler + "_" + std::to_string(info.param.minibatches_per_step) +
                                  "_" + std::to_string(info.param.bulk_steps) + "_c" +
                                  std::to_string(info.param.feature_replication);
                         });

}  // namespace
}  // namespace matsamp
