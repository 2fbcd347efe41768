// The torch-free parts of the trainer: the per-class split, input checks, the
// step plan that maps minibatches to steps and ranks, evaluation matrices.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "core/row_blocks.h"
#include "epoch_compare.h"
#include "error_checks.h"
#include "generate/generators.h"
#include "io/graph_io.h"
#include "reference.h"
#include "test_data.h"
#include "train/background_worker.h"
#include "train/metrics.h"
#include "train/step_plan.h"
#include "train/training_data.h"

namespace matsamp {
namespace {

std::vector<int64_t> labels_with_class_sizes(const std::vector<int64_t>& sizes) {
  std::vector<int64_t> labels;
  for (size_t c = 0; c < sizes.size(); ++c) labels.insert(labels.end(), sizes[c], static_cast<int64_t>(c));
  std::reverse(labels.begin(), labels.end());  // not sorted by class
  labels.push_back(-1);                        // unlabelled vertices belong to no set
  labels.push_back(-1);
  return labels;
}

template <class Fn>
std::string error_of(Fn&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(TrainSplit, TakesTheRequestedCountsPerClassAndTheRestIsTest) {
  const std::vector<int64_t> labels = labels_with_class_sizes({60, 55, 80});
  const DataSplit split = split_per_class(labels, {20, 30, 7});
  std::vector<int64_t> train_per_class(3), validation_per_class(3);
  for (vid_t v : split.train) ++train_per_class[labels[v]];
  for (vid_t v : split.validation) ++validation_per_class[labels[v]];
  EXPECT_EQ(train_per_class, (std::vector<int64_t>{20, 20, 20}));
  EXPECT_EQ(validation_per_class, (std::vector<int64_t>{30, 30, 30}));
  EXPECT_EQ(split.test.size(), 195u - 150u);

  std::vector<vid_t> all = split.train;
  all.insert(all.end(), split.validation.begin(), split.validation.end());
  all.insert(all.end(), split.test.begin(), split.test.end());
  std::sort(all.begin(), all.end());
  std::vector<vid_t> labelled(195);
  std::iota(labelled.begin(), labelled.end(), 0);
  EXPECT_EQ(all, labelled);  // disjoint, and the unlabelled vertices 195, 196 are nowhere
  EXPECT_TRUE(std::is_sorted(split.train.begin(), split.train.end()));
}

TEST(TrainSplit, IsSeeded) {
  const std::vector<int64_t> labels = labels_with_class_sizes({100, 100});
  EXPECT_EQ(split_per_class(labels, {20, 30, 1}).train, split_per_class(labels, {20, 30, 1}).train);
  EXPECT_NE(split_per_class(labels, {20, 30, 1}).train, split_per_class(labels, {20, 30, 2}).train);
}

TEST(TrainSplit, AClassWithTooFewVerticesIsAClearError) {
  const std::vector<int64_t> labels = labels_with_class_sizes({60, 49, 80});
  const std::string message = error_of([&] { split_per_class(labels, {20, 30, 1}); });
  EXPECT_NE(message.find("class 1 has 49 labelled vertices"), std::string::npos) << message;
  EXPECT_NE(message.find("needs 50"), std::string::npos) << message;
}

Graph small_planted_graph() {
  PlantedPartitionOptions options;
  options.vertices = 120;
  options.classes = 3;
  options.feature_dim = 8;
  return generate_planted_partition(options);
}

TEST(TrainData, RejectsGraphsItCannotTrainOn) {
  Graph wrong_labels = small_planted_graph();
  wrong_labels.labels.pop_back();
  EXPECT_NE(error_of([&] { prepare_training_data(wrong_labels, {}); }).find("119 labels for 120 vertices"),
            std::string::npos);

  Graph no_features = small_planted_graph();
  no_features.features.clear();
  no_features.feature_dim = 0;
  EXPECT_NE(error_of([&] { prepare_training_data(no_features, {}); }).find("needs vertex features"), std::string::npos);

  Graph no_labels = small_planted_graph();
  no_labels.labels.clear();
  EXPECT_NE(error_of([&] { prepare_training_data(no_labels, {}); }).find("needs vertex labels"), std::string::npos);

  TrainingDataOptions greedy;
  greedy.split = {30, 20, 1};  // 50 of each class of about 40
  EXPECT_NE(error_of([&] { prepare_training_data(small_planted_graph(), greedy); }).find("the split needs 50"),
            std::string::npos);
}

TEST(TrainData, NormalizesFeatureRowsToUnitSum) {
  Graph g = small_planted_graph();
  g.features.assign(g.features.size(), 0.0f);
  for (int64_t j = 0; j < g.feature_dim; ++j) g.features[j] = static_cast<float>(j);  // row 0: 0..7
  TrainingDataOptions options;
  options.split = {5, 5, 1};
  const TrainingData data = prepare_training_data(g, options);
  EXPECT_FLOAT_EQ(data.graph.features[7], 7.0f / 28.0f);
  EXPECT_EQ(data.graph.features[g.feature_dim], 0.0f);  // zero rows stay zero
  EXPECT_EQ(data.num_classes, 3);
}

// A rank of partitioned training reads the split, its labels and its block of
// (normalized) feature rows, equal to what the whole graph gives, for the
// dataset's own split and for a seeded per-class one.
TEST(TrainData, PartitionedReadEqualsTheWholeGraphsBlock) {
  const std::string dir = testing::scratch_dir("train_partitioned_read");
  Graph g = small_planted_graph();
  g.labels[3] = -1;  // unlabelled: kept out of every set
  const DataSplit random = split_per_class(g.labels, {5, 5, 1});
  Graph with_split = g;
  with_split.splits = {{"train", {0, 3, 4, 9, 40}}, {"valid", {1, 2}}, {"test", {5, 119}}};
  write_binary_csr(dir + "/random.msg", g);
  write_binary_csr(dir + "/given.msg", with_split);
  for (const auto& [path, whole_graph] :
       std::vector<std::pair<std::string, Graph>>{{dir + "/random.msg", g}, {dir + "/given.msg", with_split}}) {
    TrainingDataOptions options;
    options.split = {5, 5, 1};
    const TrainingData whole = prepare_training_data(whole_graph, options);
    const RowBlocks blocks{whole.vertices, 3};
    for (int block = 0; block < blocks.count; ++block) {
      const TrainingData part = read_partitioned_training_data(path, blocks, block, options);
      EXPECT_TRUE(part.partitioned);
      EXPECT_EQ(part.vertices, whole.vertices);
      EXPECT_EQ(part.split.train, whole.split.train) << path;
      EXPECT_EQ(part.split.validation, whole.split.validation);
      EXPECT_EQ(part.split.test, whole.split.test);
      EXPECT_EQ(part.split_labels, whole.split_labels);
      EXPECT_EQ(part.num_classes, whole.num_classes);
      EXPECT_EQ(part.first_feature_row, blocks.begin(block));
      const int64_t f = whole.graph.feature_dim;
      ASSERT_EQ(part.feature_rows(), blocks.end(block) - blocks.begin(block));
      EXPECT_EQ(part.graph.features, std::vector<float>(whole.graph.features.begin() + blocks.begin(block) * f,
                                                        whole.graph.features.begin() + blocks.end(block) * f));
      EXPECT_EQ(part.graph.adj.rows, 0);  // the sampler's graph holds the adjacency
    }
  }
  EXPECT_EQ(prepare_training_data(g, {true, SplitChoice::random, {5, 5, 1}}).split.train, random.train);
  EXPECT_NE(error_of([&] {
              read_partitioned_training_data(dir + "/random.msg", RowBlocks{120, 2}, 0, {true, SplitChoice::given, {}});
            }).find("has no split"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              read_partitioned_training_data(dir + "/random.msg", RowBlocks{100, 2}, 0, {});
            }).find("120 vertices, but the blocks cover 100"),
            std::string::npos);
}

TEST(TrainData, FullNeighbourhoodMatricesHaveUnitRowSums) {
  const Graph g = small_planted_graph();
  for (Aggregation aggregation : {Aggregation::mean, Aggregation::gcn}) {
    const CsrMatrix m = full_neighbourhood_matrix(g.adj, aggregation);
    for (int64_t r = 0; r < m.rows; ++r) {
      if (aggregation == Aggregation::mean && g.adj.row_nnz(r) == 0) continue;
      double sum = 0;
      for (int64_t e = m.rowptr[r]; e < m.rowptr[r + 1]; ++e) sum += m.values[e];
      ASSERT_NEAR(sum, 1.0, 1e-5) << "row " << r;
    }
  }
  // GCN aggregation includes the vertex itself, mean aggregation does not.
  const CsrMatrix gcn = full_neighbourhood_matrix(g.adj, Aggregation::gcn);
  EXPECT_EQ(gcn.nnz(), g.adj.nnz() + g.num_vertices());
}

TEST(TrainStepPlan, CoversEveryMinibatchOnceAndCountsStepSeeds) {
  for (int64_t lanes : {1, 2, 3})
    for (int64_t steps_per_bulk : {1, 2, 5})
      for (bool balanced : {false, true}) {
        // 11 minibatches, the last of 3 seeds; balanced: ceil(103 / (10 lanes)) steps of `lanes`
        const StepPlan plan(103, 10, lanes, steps_per_bulk, balanced);
        const int64_t expected = balanced ? (103 + 10 * lanes - 1) / (10 * lanes) * lanes : 11;
        ASSERT_EQ(plan.num_minibatches(), expected);
        ASSERT_EQ(static_cast<int64_t>(plan.minibatch_starts().size()), expected + 1);
        std::vector<int64_t> seen;
        int64_t seeds = 0;
        for (int64_t b = 0; b < plan.num_bulks(); ++b) {
          const StepPlan::Bulk bulk = plan.bulk(b);
          for (int64_t t = 0; t < bulk.lane_length; ++t) {
            int64_t step_seeds = 0;
            for (int64_t lane = 0; lane < lanes; ++lane) {
              const int64_t id = plan.minibatch(bulk, lane, t);
              if (id < 0) continue;
              seen.push_back(id);
              step_seeds += plan.minibatch_size(id);
            }
            EXPECT_EQ(plan.step_seeds(bulk, t), step_seeds);
            seeds += step_seeds;
          }
        }
        std::sort(seen.begin(), seen.end());
        std::vector<int64_t> all(expected);
        std::iota(all.begin(), all.end(), 0);
        EXPECT_EQ(seen, all) << "lanes " << lanes << ", steps per bulk " << steps_per_bulk << ", balanced " << balanced;
        EXPECT_EQ(seeds, 103);
        for (int64_t id = 0; id < expected; ++id) {
          EXPECT_EQ(plan.minibatch_size(id), plan.minibatch_starts()[id + 1] - plan.minibatch_starts()[id]);
          EXPECT_LE(plan.minibatch_size(id), 10);
          if (balanced) {
            EXPECT_GE(plan.minibatch_size(id), 103 / expected) << "sizes within one of each other";
          }
        }
      }
}

// Balanced (with locality blocks): Cora's 140 training vertices at b = 32 over 4
// lanes take 2 steps of 4 minibatches (18, then 17), not 4 of 32 and then one
// (whose seeds, with blocks, are mostly one block's leftovers); each lane's 35
// come from its block.
TEST(TrainStepPlan, BalancedStepsTakeEveryLaneAndBlockAlike) {
  const StepPlan plan(140, 32, 4, 2, true);
  ASSERT_EQ(plan.num_minibatches(), 8);
  EXPECT_EQ(plan.minibatch_starts(), (std::vector<int64_t>{0, 18, 35, 53, 70, 88, 105, 123, 140}));
  const StepPlan::Bulk bulk = plan.bulk(0);
  EXPECT_EQ(bulk.lane_length, 2);
  EXPECT_EQ(plan.step_seeds(bulk, 0), 4 * 18);
  EXPECT_EQ(plan.step_seeds(bulk, 1), 4 * 17);
  const RowBlocks blocks{400, 4};
  std::vector<vid_t> train;  // 35 per block
  for (int64_t j = 0; j < 4; ++j)
    for (int64_t i = 0; i < 35; ++i) train.push_back(static_cast<vid_t>(j * 100 + i));
  const std::vector<vid_t> order = plan.epoch_order(train, 3, 0, BatchLocality{4, 400});
  for (int64_t lane = 0; lane < 4; ++lane)
    for (int64_t step = 0; step < 2; ++step) {
      const int64_t id = plan.minibatch(bulk, lane, step);
      ASSERT_GE(id, 0);
      for (int64_t i = plan.minibatch_starts()[id]; i < plan.minibatch_starts()[id + 1]; ++i)
        EXPECT_EQ(blocks.owner(order[i]), lane) << "minibatch " << id << " of lane " << lane;
    }
  const EpochOrder cut(order, plan.minibatch_starts());
  EXPECT_EQ(cut.num_minibatches(), 8);
  EXPECT_EQ(cut.seeds(1, 2).first.size(), 17u);
  EXPECT_THROW(EpochOrder(order, std::vector<int64_t>{0, 18, 139}), Error);  // must end at the order's end
  EXPECT_EQ(StepPlan(3, 32, 4, 1, true).num_minibatches(), 3);               // fewer vertices than lanes
}

// A short bulk (5 minibatches over 4 lanes) gives every lane one before any a second:
// lane lengths 2, 1, 1, 1, so the first step trains 4 minibatches, and with one
// locality block per lane, one from each block.
TEST(TrainStepPlan, AShortBulkSpreadsItsMinibatchesOverEveryLane) {
  const StepPlan plan(140, 32, 4, 2);  // Cora's 140 training vertices, b = 32: 5 minibatches
  ASSERT_EQ(plan.num_bulks(), 1);
  const StepPlan::Bulk bulk = plan.bulk(0);
  EXPECT_EQ(bulk.lane_length, 2);
  EXPECT_EQ((std::vector<int64_t>{plan.minibatch(bulk, 0, 0), plan.minibatch(bulk, 1, 0), plan.minibatch(bulk, 2, 0),
                                  plan.minibatch(bulk, 3, 0)}),
            (std::vector<int64_t>{0, 2, 3, 4}));
  EXPECT_EQ((std::vector<int64_t>{plan.minibatch(bulk, 0, 1), plan.minibatch(bulk, 1, 1), plan.minibatch(bulk, 2, 1),
                                  plan.minibatch(bulk, 3, 1)}),
            (std::vector<int64_t>{1, -1, -1, -1}));
  EXPECT_EQ(plan.step_seeds(bulk, 0), 32 + 32 + 32 + 12);
  EXPECT_EQ(plan.lane_minibatches(bulk, {1, 3}), (std::pair<int64_t, int64_t>{2, 4}));

  const RowBlocks blocks{400, 4};
  std::vector<vid_t> train;  // 35 per block
  for (int64_t j = 0; j < 4; ++j)
    for (int64_t i = 0; i < 35; ++i) train.push_back(static_cast<vid_t>(j * 100 + i));
  const std::vector<vid_t> order = plan.epoch_order(train, 3, 0, BatchLocality{4, 400});
  for (int64_t lane = 0; lane < 4; ++lane) {
    const int64_t id = plan.minibatch(bulk, lane, 0);
    for (int64_t i = id * 32; i < id * 32 + plan.minibatch_size(id); ++i)
      EXPECT_EQ(blocks.owner(order[i]), lane) << "minibatch " << id << " of lane " << lane;
  }
}

TEST(TrainStepPlan, EachRankSamplesOneContiguousRangeHoldingItsLanes) {
  const StepPlan plan(1000, 7, 4, 3);
  for (int ranks : {1, 2, 4}) {
    for (int64_t b = 0; b < plan.num_bulks(); ++b) {
      const StepPlan::Bulk bulk = plan.bulk(b);
      int64_t covered = bulk.first;
      for (int rank = 0; rank < ranks; ++rank) {
        const auto lanes = plan.rank_lanes(rank, ranks);
        const auto ids = plan.lane_minibatches(bulk, lanes);
        EXPECT_EQ(ids.first, covered);  // the ranks' ranges tile the bulk in order
        covered = ids.second;
        for (int64_t lane = lanes.first; lane < lanes.second; ++lane)
          for (int64_t t = 0; t < bulk.lane_length; ++t) {
            const int64_t id = plan.minibatch(bulk, lane, t);
            if (id >= 0) {
              EXPECT_TRUE(id >= ids.first && id < ids.second);
            }
          }
      }
      EXPECT_EQ(covered, bulk.end);
    }
  }
  EXPECT_THROW(plan.rank_lanes(0, 3), Error);  // 3 processes cannot share 4 lanes
}

// Locality blocks: lane j's minibatches come from block j·B/lanes; with blocks that
// fill their lanes exactly every minibatch does, otherwise the leftovers of one block
// fill another's empty slots; always a permutation of the training vertices.
TEST(TrainStepPlan, LocalityOrderFillsEachLaneFromItsBlock) {
  const BatchLocality two_blocks{2, 1000};
  const RowBlocks blocks{1000, 2};
  auto lane_blocks_held = [&](const StepPlan& plan, const std::vector<vid_t>& order) {
    int64_t pure = 0;
    for (int64_t b = 0; b < plan.num_bulks(); ++b) {
      const StepPlan::Bulk bulk = plan.bulk(b);
      for (int64_t lane = 0; lane < plan.lanes(); ++lane)
        for (int64_t t = 0; t < bulk.lane_length; ++t) {
          const int64_t id = plan.minibatch(bulk, lane, t);
          if (id < 0) continue;
          bool all = true;
          for (int64_t i = id * 10; i < id * 10 + plan.minibatch_size(id); ++i)
            all = all && blocks.owner(order[i]) == lane * 2 / plan.lanes();
          pure += all;
        }
    }
    return pure;
  };
  const std::vector<vid_t> every = testing::all_vertices(1000);  // 500 per block: 50 minibatches of 10
  const StepPlan plan(1000, 10, 4, 3);                           // each lane: 25 minibatches
  const std::vector<vid_t> order = plan.epoch_order(every, 7, 2, two_blocks);
  std::vector<vid_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, every);
  EXPECT_EQ(lane_blocks_held(plan, order), plan.num_minibatches());
  EXPECT_EQ(order, plan.epoch_order(every, 7, 2, two_blocks));
  EXPECT_NE(order, plan.epoch_order(every, 7, 3, two_blocks));

  const std::vector<vid_t> train = training_vertices(1000, 0.3, 5);  // blocks of unequal size
  const StepPlan uneven(static_cast<int64_t>(train.size()), 10, 4, 3);
  const std::vector<vid_t> mixed = uneven.epoch_order(train, 7, 2, two_blocks);
  sorted = mixed;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, train);
  EXPECT_GE(lane_blocks_held(uneven, mixed), uneven.num_minibatches() - 3);  // a few minibatches mix

  // One block is the plain shuffle; blocks must divide the lanes.
  EXPECT_EQ(plan.epoch_order(every, 7, 2, {1, 1000}), shuffle_vertices(every, 7, 2));
  EXPECT_EQ(plan.epoch_order(every, 7, 2, {}), shuffle_vertices(every, 7, 2));
  testing::expect_error([&] { plan.epoch_order(every, 7, 2, {3, 1000}); }, "locality blocks (3) must divide");
}

TEST(TrainStepPlan, SampledMinibatchesFollowTheEpochOrder) {
  const CsrMatrix ring = testing::ring_graph(50);
  auto sampler = testing::graphsage(ring, {1}, 3);
  std::vector<vid_t> order(23);
  std::iota(order.begin(), order.end(), 10);
  const EpochOrder cut(order, 5);
  Context ctx{sampler->cpu(), sampler->seed()};
  const BulkSample bulk = sample_minibatches(sampler->on_cpu(), ctx, cut, {2, 5}, 0);
  EXPECT_EQ(bulk.first_minibatch, 2);
  EXPECT_EQ(bulk.seed_offsets, (Offsets{0, 5, 10, 13}));
  EXPECT_EQ(bulk.seeds.front(), 20);
  EXPECT_EQ(bulk.seeds.back(), 32);
  EXPECT_EQ(sample_minibatches(sampler->on_cpu(), ctx, cut, {3, 3}, 0).count(), 0);
}

TEST(TrainBackgroundWorker, RunsTasksInOrderOnOneThreadAndPassesErrorsOn) {
  std::vector<int> done;
  std::future<std::thread::id> first, second;
  std::future<int> failing;
  {
    BackgroundWorker worker;
    first = worker.submit([&] {
      done.push_back(1);
      return std::this_thread::get_id();
    });
    failing = worker.submit([]() -> int { fail("sampling failed"); });
    second = worker.submit([&] {
      done.push_back(2);
      return std::this_thread::get_id();
    });
  }  // the destructor runs what is queued
  EXPECT_EQ(done, (std::vector<int>{1, 2}));
  const std::thread::id worker_thread = first.get();
  EXPECT_EQ(second.get(), worker_thread);
  EXPECT_NE(worker_thread, std::this_thread::get_id());
  EXPECT_THROW(failing.get(), Error);
}

TEST(TrainProgress, BestIsHighestScoreThenLowestTiebreakAndPatienceStops) {
  TrainingProgress progress;
  const auto epoch = [&](int64_t e, double accuracy, double loss) { return progress.record(e, accuracy, loss, 2); };
  EXPECT_TRUE(epoch(0, 0.5, 1.0));
  EXPECT_TRUE(epoch(1, 0.6, 1.2));   // higher accuracy wins over a higher loss
  EXPECT_TRUE(epoch(2, 0.6, 1.1));   // a tie goes to the lower loss
  EXPECT_FALSE(epoch(3, 0.6, 1.1));  // an equal epoch is no improvement
  EXPECT_FALSE(progress.stopped_early);
  EXPECT_FALSE(epoch(4, 0.55, 0.9));
  EXPECT_TRUE(progress.stopped_early);  // patience 2 used up
  EXPECT_EQ(progress.best_epoch, 2);
  EXPECT_EQ(progress.next_epoch, 5);
  EXPECT_DOUBLE_EQ(progress.best_score, 0.6);
  EXPECT_DOUBLE_EQ(progress.best_tiebreak, 1.1);
  TrainingProgress fresh;
  EXPECT_TRUE(fresh.record(0, 0.0, 9.0, 0)) << "the first epoch is the best so far, whatever its score";
  EXPECT_FALSE(fresh.record(1, 0.0, 9.0, 0));
  EXPECT_FALSE(fresh.stopped_early) << "patience 0 never stops";
}

}  // namespace
}  // namespace matsamp
