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
