// Data-parallel training under mpirun: p ranks, each training on its lanes of
// every step, follow the loss curve of one process with the same seed and
// global batch (every rank also runs that one-process reference itself).
#include <gtest/gtest.h>
#include <mpi.h>

#include "distributed/mpi_communicator.h"
#include "distributed/partitioned_sampling.h"
#include "error_checks.h"
#include "generate/generators.h"
#include "graph/transform.h"
#include "io/graph_io.h"
#include "link_training_data.h"
#include "ops/ops.h"
#include "sampling/hetero_neighbor.h"
#include "sampling/hetero_temporal.h"
#include "test_data.h"
#include "test_sampler.h"
#include "train/hetero_trainer.h"
#include "train/trainer.h"

namespace matsamp {
namespace {

Communicator& world() {
  static std::unique_ptr<Communicator> comm = make_mpi_communicator(MPI_COMM_WORLD);
  return *comm;
}

// 300 vertices in 3 classes, symmetric, its largest component.
Graph planted_graph() {
  PlantedPartitionOptions graph;
  graph.vertices = 300;
  graph.classes = 3;
  graph.average_degree = 8;
  graph.feature_dim = 16;
  graph.seed = 5;
  return cleanup(generate_planted_partition(graph), {true, true, true});
}

TrainingData planted_training_data() {
  TrainingDataOptions options;
  options.split = {12, 10, 5};
  return prepare_training_data(planted_graph(), options);
}

struct MpiCase {
  std::string sampler;
  int64_t minibatches_per_step;
  int64_t bulk_steps;  // 0: from the memory budget
  int feature_replication = 0;
  int locality_blocks = 0;
  bool by_time = false;  // every seed sampled as of its vertex's time, evaluation sampled alike
};

void PrintTo(const MpiCase& c, std::ostream* out) {
  *out << c.sampler << ", " << c.minibatches_per_step << " minibatches per step, " << c.bulk_steps
       << " steps per bulk, feature replication " << c.feature_replication << ", locality blocks " << c.locality_blocks
       << (c.by_time ? ", by time" : "");
}

// Each vertex's time, and the neighbourhood matrix in time order, for sampling by time.
std::shared_ptr<const TemporalEpoch> vertex_times_epoch(const CsrMatrix& adj, Backend& backend) {
  auto times = std::make_shared<TemporalEpoch>();
  times->vertex_times.resize(adj.rows);
  for (int64_t v = 0; v < adj.rows; ++v) times->vertex_times[v] = (v * 7919) % 100;
  TimeOrder order = time_order(adj, column_times(adj, times->vertex_times));
  times->order = backend.upload_ids(std::move(order.order));
  times->sorted_times = backend.upload_ids(std::move(order.sorted_times));
  return times;
}

class TrainMpi : public ::testing::TestWithParam<MpiCase> {};

TEST_P(TrainMpi, FollowsTheSingleProcessLossCurve) {
  const int64_t lanes = GetParam().minibatches_per_step;
  if (lanes % world().size() != 0)
    GTEST_SKIP() << lanes << " minibatches per step cannot be shared by " << world().size() << " processes";
  const TrainingData data = planted_training_data();
  std::unique_ptr<testing::TestSampler> sampler = GetParam().sampler == "graphsage"
                                                      ? testing::graphsage(data.graph.adj, {4, 4}, 9)
                                                      : testing::layer_wise("ladies", data.graph.adj, {48, 48}, 9);
  TrainOptions options;
  options.model = GetParam().sampler == "graphsage" ? "sage" : "gcn";
  options.hidden = 16;
  options.dropout = 0.5;  // masks are keyed by minibatch, so they match across p too
  options.learning_rate = 0.02;
  options.epochs = 6;
  options.epoch.batch_size = 5;  // 36 training vertices: 8 minibatches, the last one short
  options.epoch.bulk_steps = GetParam().bulk_steps;
  options.feature_replication = GetParam().feature_replication;  // rows fetched from their owners
  options.epoch.memory_budget = 3 * sampler->bytes_per_minibatch(options.epoch.batch_size);  // 3 of 8 minibatches fit
  options.epoch.minibatches_per_step = lanes;
  options.epoch.locality.blocks = GetParam().locality_blocks;
  options.epoch.seed = 9;
  options.threads = 1;
  if (GetParam().by_time) {  // the evaluation's minibatches shared by the ranks, its trees numbered as one process's
    options.epoch.times = vertex_times_epoch(data.graph.adj, sampler->cpu());
    options.evaluation = EvaluationMode::sampled;
  }

  Trainer distributed(data, sampler->on_cpu(), sampler->cpu(), world(), options);
  auto self = make_self_communicator();
  Trainer single(data, sampler->on_cpu(), sampler->cpu(), *self, options);
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    const EpochMetrics got = distributed.train_epoch();
    const EpochMetrics expected = single.train_epoch();
    // Only the order of float sums differs (gradients summed over ranks vs. accumulated).
    EXPECT_NEAR(got.loss, expected.loss, 1e-5 * expected.loss) << "epoch " << epoch;
    EXPECT_NEAR(got.validation_loss, expected.validation_loss, 1e-5 * expected.validation_loss) << "epoch " << epoch;
    EXPECT_EQ(got.steps, expected.steps);
  }
  EXPECT_EQ(distributed.next_epoch(), options.epochs);
}

INSTANTIATE_TEST_SUITE_P(Samplers, TrainMpi,
                         ::testing::Values(MpiCase{"graphsage", 2, 2}, MpiCase{"graphsage", 4, 2},
                                           MpiCase{"graphsage", 2, 0}, MpiCase{"ladies", 2, 2},
                                           MpiCase{"graphsage", 2, 2, 1}, MpiCase{"ladies", 2, 2, 1},
                                           MpiCase{"graphsage", 2, 2, 1, 2}, MpiCase{"graphsage", 4, 2, 0, 0, true},
                                           MpiCase{"graphsage", 2, 0, 0, 0, true}),
                         [](const auto& info) {
                           return info.param.sampler + "_" + std::to_string(info.param.minibatches_per_step) + "_" +
                                  std::to_string(info.param.bulk_steps) + "_c" +
                                  std::to_string(info.param.feature_replication) + "_b" +
                                  std::to_string(info.param.locality_blocks) + (info.param.by_time ? "_by_time" : "");
                         });

// Graph-partitioned training: each rank reads from a .msg file only its block row
// of A, its feature rows and the labels of the split, samples through the
// distributed product and fetches feature rows from their owners; the loss
// curve is that of one process holding the whole graph. With the grid on a
// communicator of its own, sampling runs ahead of the steps on the prefetching
// worker (and the feature fetch on the preparing one) beside the gradient sums.
struct PartitionedCase {
  std::string sampler;
  int replication;
  bool own_communicator = false;
};

class TrainMpiPartitioned : public ::testing::TestWithParam<PartitionedCase> {};

TEST_P(TrainMpiPartitioned, FollowsTheWholeGraphLossCurve) {
  const int c = GetParam().replication, p = world().size();
  if (p % (c * c) != 0) GTEST_SKIP() << "replication " << c << ": c * c must divide " << p << " processes";
  Graph g = planted_graph();
  const DataSplit split = split_per_class(g.labels, {12, 10, 5});
  g.splits = {{"train", split.train}, {"valid", split.validation}, {"test", split.test}};  // as an OGB dataset's
  const std::string path = testing::scratch_dir("train_partitioned") + "/g.msg";  // one per rank: the same bytes
  write_binary_csr(path, g);

  const bool sage = GetParam().sampler == "graphsage";
  const SamplerParams params = sage ? SamplerParams().set("fanouts", std::vector<int64_t>{4, 4})
                                    : SamplerParams().set("samples", std::vector<int64_t>{48, 48});
  TrainOptions options;
  options.model = sage ? "sage" : "gcn";
  options.hidden = 16;
  options.learning_rate = 0.02;
  options.epochs = 4;
  options.epoch.batch_size = 5;  // 36 training vertices: 8 minibatches, the last one short
  options.epoch.bulk_steps = 1;
  options.epoch.minibatches_per_step = 4;
  options.evaluation = EvaluationMode::sampled;
  options.epoch.seed = 9;
  options.threads = 1;

  const std::unique_ptr<Communicator> sampling = GetParam().own_communicator ? world().concurrent_duplicate() : nullptr;
  ASSERT_TRUE(sampling || !GetParam().own_communicator) << "the MPI of this build has no MPI_THREAD_MULTIPLE";
  ProcessGrid grid(sampling ? *sampling : world(), c);
  const TrainingData part =
      read_partitioned_training_data(path, RowBlocks{g.num_vertices(), grid.process_rows()}, grid.row(), {});
  PartitionedSampling graph(grid, read_block_row(path, grid), GraphProduct::Exchange::sparsity_aware);
  const std::unique_ptr<Sampler> partitioned = make_sampler(GetParam().sampler, graph, params);
  TrainOptions partitioned_options = options;
  partitioned_options.feature_replication = c;
  Trainer distributed(part, *partitioned, graph.backend(), world(), partitioned_options);
  if (c == 1 && sage && !GetParam().own_communicator) {  // by time, each rank would need every row's time order
    TrainOptions by_time = partitioned_options;
    by_time.epoch.times = std::make_shared<TemporalEpoch>();
    testing::expect_error([&] { Trainer(part, *partitioned, graph.backend(), world(), by_time); },
                          "training by time needs the graph whole in each process: one process or --distributed "
                          "replicated");
  }

  const TrainingData whole = prepare_training_data(g, {});
  testing::TestSampler reference(GetParam().sampler, whole.graph.adj, params, options.epoch.seed);
  auto self = make_self_communicator();
  Trainer single(whole, reference.on_cpu(), reference.cpu(), *self, options);
  // Each process row holds the labels of the training set and of its share of the rest.
  const int64_t rest = static_cast<int64_t>(split.validation.size() + split.test.size());
  EXPECT_EQ(single.labelled_vertices_held(), static_cast<int64_t>(split.train.size()) + rest);
  std::vector<int64_t> held_beyond_training{distributed.labelled_vertices_held() -
                                            static_cast<int64_t>(split.train.size())};
  world().all_reduce_sum(held_beyond_training);
  EXPECT_EQ(held_beyond_training[0], c * rest);
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    const EpochMetrics got = distributed.train_epoch();
    const EpochMetrics expected = single.train_epoch();
    EXPECT_NEAR(got.loss, expected.loss, 1e-5 * expected.loss) << "epoch " << epoch;
    EXPECT_NEAR(got.validation_loss, expected.validation_loss, 1e-5 * expected.validation_loss) << "epoch " << epoch;
    EXPECT_EQ(got.validation_accuracy, expected.validation_accuracy) << "epoch " << epoch;
    EXPECT_EQ(got.test_accuracy, expected.test_accuracy) << "epoch " << epoch;
    EXPECT_EQ(got.steps, expected.steps);
  }
}

INSTANTIATE_TEST_SUITE_P(Samplers, TrainMpiPartitioned,
                         ::testing::Values(PartitionedCase{"graphsage", 1}, PartitionedCase{"graphsage", 2},
                                           PartitionedCase{"ladies", 1}, PartitionedCase{"fastgcn", 2},
                                           PartitionedCase{"graphsage", 1, true}, PartitionedCase{"graphsage", 2, true},
                                           PartitionedCase{"ladies", 2, true}),
                         [](const auto& info) {
                           return info.param.sampler + "_c" + std::to_string(info.param.replication) +
                                  (info.param.own_communicator ? "_prefetched" : "");
                         });

// Two communities with no edge between them, renumbered so that each is one of the
// p = 2 blocks of the 1.5D features: with locality blocks every rank's minibatches and
// their neighbourhoods lie in the block it holds, and its fetches move (almost) nothing.
TEST(TrainMpiLocality, RanksFetchOnlyTheFeatureRowsTheyHold) {
  if (world().size() != 2) GTEST_SKIP() << "needs 2 processes, has " << world().size();
  PlantedPartitionOptions graph;
  graph.vertices = 400;
  graph.classes = 2;
  graph.homophily = 1.0;  // classes v % 2 are the two components
  graph.feature_dim = 8;
  const Graph planted = generate_planted_partition(graph);
  std::vector<vid_t> by_class;
  for (int c = 0; c < 2; ++c)
    for (vid_t v = c; v < 400; v += 2) by_class.push_back(v);
  TrainingDataOptions data_options;
  data_options.split = {20, 10, 5};
  const TrainingData data = prepare_training_data(induced_subgraph(planted, by_class), data_options);
  auto sampler = testing::graphsage(data.graph.adj, {5, 5}, 3);
  TrainOptions options;
  options.hidden = 8;
  options.epochs = 1;
  options.epoch.batch_size = 10;  // 20 training vertices per block: two minibatches for each lane
  options.epoch.minibatches_per_step = 2;
  options.feature_replication = 1;
  options.threads = 1;
  int64_t bytes[2];
  for (int blocks : {0, 2}) {
    options.epoch.locality.blocks = blocks;
    Trainer trainer(data, sampler->on_cpu(), sampler->cpu(), world(), options);
    bytes[blocks / 2] = trainer.train_epoch().feature_fetch_bytes;
  }
  EXPECT_GT(bytes[0], 4000) << "without locality about half the rows are the other rank's; with: " << bytes[1];
  EXPECT_LT(bytes[1], bytes[0] / 20) << "with locality only the exchange of counts remains";
}

// DGS in training: each rank's part explained every 2 steps by a learner on its
// own thread, the masks steering the draws and the fetch from a fixed step on.
// Training is deterministic (with and without prefetching and the pipeline, whose
// threads run at their own pace), and once masks apply, remote rows cost half:
// fewer bytes than the same draws from each rank's own rows without explanations.
TEST(TrainMpiGuidance, DeterministicAndFetchesFewerBytes) {
  const int p = world().size();
  if (4 % p != 0) GTEST_SKIP() << "4 minibatches per step cannot be shared by " << p << " processes";
  const TrainingData data = planted_training_data();
  const SamplerParams fanouts = SamplerParams().set("fanouts", std::vector<int64_t>{4, 4});
  TrainOptions options;
  options.hidden = 16;
  options.epochs = 4;
  options.epoch.batch_size = 5;  // 36 training vertices: 8 minibatches, 2 steps per epoch
  options.epoch.bulk_steps = 1;
  options.epoch.minibatches_per_step = 4;
  options.feature_replication = 1;
  options.epoch.seed = 9;
  options.threads = 1;
  options.guidance.every = 2;
  options.guidance.remote_feature_fraction = 0.5;
  options.guidance.explainer_steps = 20;
  std::vector<std::vector<EpochMetrics>> runs;
  for (int run = 0; run < 3; ++run) {
    testing::TestSampler dgs("dgs", data.graph.adj, fanouts, 9);  // each run its own: masks live in the sampler
    TrainOptions o = options;
    o.prefetch = o.pipeline = run != 1;
    if (run == 2) {  // no explanations: importance 1 and whole rows, minibatches from each rank's rows
      o.guidance = {};
      o.epoch.locality.blocks = p;
    }
    Trainer trainer(data, dgs.on_cpu(), dgs.cpu(), world(), o);
    auto& epochs = runs.emplace_back();
    while (!trainer.finished()) epochs.push_back(trainer.train_epoch());
  }
  int64_t guided = 0, unguided = 0;
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    EXPECT_EQ(runs[0][epoch].loss, runs[1][epoch].loss) << "epoch " << epoch;
    EXPECT_EQ(runs[0][epoch].feature_fetch_bytes, runs[1][epoch].feature_fetch_bytes) << "epoch " << epoch;
    EXPECT_EQ(runs[0][epoch].validation_accuracy, runs[1][epoch].validation_accuracy) << "epoch " << epoch;
    if (epoch < 2) {  // the first snapshot (after step 2, due at step 3) applies from epoch 2 on
      EXPECT_EQ(runs[0][epoch].loss, runs[2][epoch].loss) << "epoch " << epoch;
      continue;
    }
    guided += runs[0][epoch].feature_fetch_bytes;
    unguided += runs[2][epoch].feature_fetch_bytes;
  }
  std::vector<int64_t> bytes{guided, unguided};
  world().all_reduce_sum(bytes);
  if (p == 1) {
    EXPECT_EQ(bytes[1], 0) << "one process holds every row";
  } else {
    EXPECT_GT(bytes[1], 0);
    EXPECT_LT(bytes[0], bytes[1] * 3 / 4) << "remote rows fetched with half their dimensions";
  }
}

TEST(TrainMpiGuidance, ConfigurationsThatCannotWorkAreErrors) {
  const TrainingData data = planted_training_data();
  const SamplerParams fanouts = SamplerParams().set("fanouts", std::vector<int64_t>{4, 4});
  testing::TestSampler dgs("dgs", data.graph.adj, fanouts, 9), sage("graphsage", data.graph.adj, fanouts, 9);
  TrainOptions options;
  options.epoch.batch_size = 5;
  options.feature_replication = 1;
  options.guidance.every = 2;
  const auto error_of = [&](const testing::TestSampler& sampler, const TrainOptions& o) {
    try {
      Trainer trainer(data, sampler.on_cpu(), sampler.cpu(), world(), o);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error_of(sage, options).find("draws by a column importance, which graphsage does not take (dgs does)"),
            std::string::npos);
  TrainOptions whole_rows = options;
  whole_rows.feature_replication = 0;
  EXPECT_NE(error_of(dgs, whole_rows).find("needs partitioned features"), std::string::npos);
  TrainOptions other_blocks = options;
  other_blocks.epoch.minibatches_per_step = 2 * world().size();
  other_blocks.epoch.locality.blocks = 2 * world().size();
  EXPECT_NE(error_of(dgs, other_blocks).find("locality blocks must be p/c"), std::string::npos);
  TrainOptions fraction = options;
  fraction.guidance.every = 0;
  fraction.guidance.remote_feature_fraction = 0.5;
  EXPECT_NE(error_of(dgs, fraction).find("(--explain-every T)"), std::string::npos);
}

// Link prediction the same way: p ranks share 4 lanes of every step; by time,
// each positive's trees sampled before its time.
void expect_link_curve_of_one_process(const testing::LinkTrainingData& data, bool by_time) {
  auto sampler = testing::graphsage(data.graph.adj, {4, 4}, 9);
  LinkTrainOptions options = testing::small_link_options();
  if (by_time) options.times = testing::link_times(data.split, sampler->cpu());
  options.train.epoch.minibatches_per_step = 4;
  options.train.epochs = 3;
  // 18 minibatches in bulks of 2 steps x 4 lanes: the last bulk leaves lanes 2 and 3 without one.
  options.train.epoch.batch_size = (data.split.train.size() + 17) / 18;
  ASSERT_EQ(minibatch_count(data.split.train.size(), options.train.epoch.batch_size), 18);
  LinkTrainer distributed(data.graph, data.split, sampler->on_cpu(), sampler->cpu(), world(), options);
  auto self = make_self_communicator();
  LinkTrainer single(data.graph, data.split, sampler->on_cpu(), sampler->cpu(), *self, options);
  while (!single.finished()) {
    const LinkEpoch got = distributed.train_epoch(), expected = single.train_epoch();
    EXPECT_NEAR(got.loss, expected.loss, 1e-5 * expected.loss) << "epoch " << expected.epoch;
    EXPECT_NEAR(got.validation.auc, expected.validation.auc, 1e-4) << "epoch " << expected.epoch;
    EXPECT_EQ(got.steps, expected.steps);
  }
  EXPECT_TRUE(distributed.finished());
}

TEST(LinkTrainMpi, FollowsTheSingleProcessLossCurve) {
  if (4 % world().size() != 0) GTEST_SKIP() << "4 minibatches per step cannot be shared by " << world().size();
  expect_link_curve_of_one_process(testing::planted_link_data(), false);
}

TEST(LinkTrainMpi, FollowsTheSingleProcessLossCurveByTime) {
  if (4 % world().size() != 0) GTEST_SKIP() << "4 minibatches per step cannot be shared by " << world().size();
  expect_link_curve_of_one_process(testing::planted_link_data_by_time(), true);
}

// R-GCN the same way: p ranks share the lanes of every step and the evaluation's
// minibatches, and every epoch scores as one process's; by time too (every type's
// vertices timed, each seed a tree as of its own).
class RgcnTrainMpi : public ::testing::TestWithParam<bool> {};

TEST_P(RgcnTrainMpi, FollowsTheSingleProcessLossCurve) {
  if (4 % world().size() != 0) GTEST_SKIP() << "4 minibatches per step cannot be shared by " << world().size();
  HeteroMagOptions mag;
  mag.papers = 600;
  mag.classes = 4;
  mag.feature_dim = 8;
  HeteroGraph g = generate_hetero_mag(mag);
  add_reverse_relations(g);
  auto cpu = make_cpu_backend();
  const HeteroNeighborSampler sampler(*cpu, g, parse_relation_fanouts(g, "4,4"));
  HeteroTrainOptions options;
  options.train.hidden = 16;
  options.train.epochs = 3;
  options.train.epoch.batch_size = 24;
  options.train.epoch.minibatches_per_step = 4;
  options.train.epoch.bulk_steps = 2;
  options.num_bases = 2;
  if (GetParam()) {
    std::vector<std::vector<int64_t>> times(g.types.size());
    for (size_t t = 0; t < g.types.size(); ++t)
      for (int64_t v = 0; v < g.types[t].count; ++v) times[t].push_back((v * 7919 + static_cast<int64_t>(t)) % 100);
    options.times =
        std::make_shared<HeteroTemporalEpoch>(hetero_epoch_times(*cpu, g, std::move(times), TemporalStrategy::uniform));
  }
  const int paper = g.type_index("paper");
  RgcnTrainer distributed(g, paper, sampler, *cpu, world(), options);
  auto self = make_self_communicator();
  RgcnTrainer single(g, paper, sampler, *cpu, *self, options);
  while (!single.finished()) {
    const HeteroEpoch got = distributed.train_epoch(), expected = single.train_epoch();
    EXPECT_NEAR(got.loss, expected.loss, 1e-5 * expected.loss) << "epoch " << expected.epoch;
    // Gradients summed in another order may move one vertex across a decision boundary.
    const double one_vertex = 1.01 / static_cast<double>(g.types[paper].splits.at("valid").size());
    EXPECT_NEAR(got.validation_accuracy, expected.validation_accuracy, one_vertex) << "epoch " << expected.epoch;
    EXPECT_EQ(got.improved, expected.improved) << "epoch " << expected.epoch;
    EXPECT_EQ(got.steps, expected.steps);
  }
  EXPECT_TRUE(distributed.finished());
}

INSTANTIATE_TEST_SUITE_P(Untimed, RgcnTrainMpi, ::testing::Values(false));
INSTANTIATE_TEST_SUITE_P(ByTime, RgcnTrainMpi, ::testing::Values(true));

}  // namespace
}  // namespace matsamp
