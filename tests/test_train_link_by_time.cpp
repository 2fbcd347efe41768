// Link prediction by time: the split by edge time, each positive's trees sampled
// strictly before its time (no leak of its own edge or a later one, the same trees
// at any bulk size), the trainer learning from them, and `train --task link
// --temporal` as a user runs it.
#include <gtest/gtest.h>

#include <numeric>
#include <set>

#include "cli_runner.h"
#include "io/graph_io.h"
#include "io_test_helpers.h"
#include "link_training_data.h"
#include "sampling_checks.h"
#include "test_data.h"
#include "test_sampler.h"

namespace matsamp {
namespace {

TEST(EdgeSplitByTime, SetsFollowTheEdgesTimes) {
  const Graph g = testing::planted_link_graph();
  const EdgeSplit s = split_edges_by_time(g.adj, testing::entry_times(g.adj), 60, 80, {0, 0, 3, 5});
  ASSERT_TRUE(s.undirected);
  EXPECT_EQ(s.train.size() + s.validation.size() + s.test.size(), g.adj.nnz() / 2);
  const auto times_of = [](const EdgeSet& set) {
    std::vector<int64_t> t;
    for (int64_t e = 0; e < set.size(); ++e) t.push_back(testing::edge_time(set.sources[e], set.destinations[e]));
    return t;
  };
  const std::vector<int64_t> train = times_of(s.train), valid = times_of(s.validation), test = times_of(s.test);
  EXPECT_EQ(s.train_times, train);
  EXPECT_TRUE(std::is_sorted(train.begin(), train.end()) && std::is_sorted(valid.begin(), valid.end()) &&
              std::is_sorted(test.begin(), test.end()));
  ASSERT_FALSE(train.empty() || valid.empty() || test.empty());
  EXPECT_LT(train.back(), 60);
  EXPECT_GE(valid.front(), 60);
  EXPECT_LT(valid.back(), 80);
  EXPECT_GE(test.front(), 80);
  // The training graph: the training edges both ways, each entry at its edge's time.
  EXPECT_EQ(s.train_graph.nnz(), 2 * s.train.size());
  ASSERT_EQ(static_cast<int64_t>(s.train_graph_times.size()), s.train_graph.nnz());
  for (int64_t r = 0; r < s.train_graph.rows; ++r)
    for (int64_t e = s.train_graph.rowptr[r]; e < s.train_graph.rowptr[r + 1]; ++e)
      EXPECT_EQ(s.train_graph_times[e], testing::edge_time(r, s.train_graph.colidx[e]));
  EXPECT_EQ(s.test_negatives.size(), 5 * s.test.size());
  // Bad input: one line naming the problem.
  EXPECT_TRUE(testing::throws_error_with(
      [&] {
        split_edges_by_time(g.adj, {1, 2}, 60, 80, {});
      },
      {"edge split by time: 2 edge times for ", " edges"}));
  EXPECT_TRUE(testing::throws_error_with([&] { split_edges_by_time(g.adj, testing::entry_times(g.adj), 80, 60, {}); },
                                         {"T1 (80) is after T2 (60)"}));
  EXPECT_TRUE(testing::throws_error_with([&] { split_edges_by_time(g.adj, testing::entry_times(g.adj), 60, 60, {}); },
                                         {"from T1 to before T2 = 60 (validation); both need some"}));
}

// Minibatches of one positive each: every entry of every layer is an edge of the
// training graph earlier than that positive, the first layer's vertices are its
// trees' seeds (source, destination, negatives), and sampling the minibatches
// one at a time gives the same layers.
TEST(EdgeTrees, EveryTreeEndsBeforeItsEdgesTime) {
  const testing::LinkTrainingData data = testing::planted_link_data_by_time();
  const EdgeSplit& s = data.split;
  const auto sampler = testing::graphsage(data.graph.adj, {4, 3}, 3);
  const auto times = testing::link_times(s, sampler->cpu());
  const NegativeSampler negatives(data.graph.adj, {2, NegativeDistribution::uniform, false});
  const int64_t m = std::min<int64_t>(s.train.size(), 120), k = 2;
  const auto bulk_of = [&](int64_t first, int64_t end) {
    std::vector<vid_t> sources(s.train.sources.begin() + first, s.train.sources.begin() + end);
    std::vector<vid_t> destinations(s.train.destinations.begin() + first, s.train.destinations.begin() + end);
    std::vector<int64_t> edge_times(s.train_times.begin() + first, s.train_times.begin() + end);
    Offsets offsets(end - first + 1);
    std::iota(offsets.begin(), offsets.end(), 0);
    EdgeBulkOptions options{5, 1, false, false, &edge_times, nullptr, true};
    const EdgeBulk edges =
        make_edge_bulk(std::move(sources), std::move(destinations), std::move(offsets), first, &negatives, options);
    Context ctx{sampler->cpu(), 3};
    return std::make_pair(edges, to_host(sampler->cpu(), sample_edge_trees(sampler->on_cpu(), ctx, edges, 1, *times,
                                                                           edge_times, (2 + k) * first)));
  };
  const auto [edges, bulk] = bulk_of(0, m);
  ASSERT_EQ(bulk.count(), m);
  int64_t sampled = 0;
  for (int64_t g = 0; g < m; ++g) {
    const Minibatch mb = extract_minibatch(bulk, g);
    EXPECT_EQ(mb.id, g);
    const std::vector<vid_t> trees = {edges.sources[g], edges.destinations[g], edges.negatives[2 * g],
                                      edges.negatives[2 * g + 1]};
    EXPECT_EQ(std::vector<vid_t>(mb.layers.front().vertices.begin(), mb.layers.front().vertices.begin() + 4), trees);
    EXPECT_EQ(edges.source_index[g], 0);
    EXPECT_EQ(edges.destination_index[g], 1);
    EXPECT_EQ(edges.negative_index[2 * g + 1], 3);
    for (const MinibatchLayer& layer : mb.layers)
      for (int64_t r = 0; r < layer.adj.rows; ++r)
        for (int64_t e = layer.adj.rowptr[r]; e < layer.adj.rowptr[r + 1]; ++e, ++sampled) {
          const vid_t u = layer.vertices[r], v = layer.vertices[layer.adj.colidx[e]];
          ASSERT_TRUE(testing::has_entry(data.graph.adj, u, v)) << u << " -> " << v;
          EXPECT_LT(testing::edge_time(u, v), s.train_times[g]) << "minibatch " << g << ": " << u << " -> " << v;
        }
    const auto [one_edges, one] = bulk_of(g, g + 1);
    const Minibatch alone = extract_minibatch(one, 0);
    EXPECT_EQ(one_edges.negatives,
              std::vector<vid_t>(edges.negatives.begin() + 2 * g, edges.negatives.begin() + 2 * g + 2));
    ASSERT_EQ(alone.layers.size(), mb.layers.size());
    for (size_t l = 0; l < mb.layers.size(); ++l) {
      EXPECT_EQ(alone.layers[l].adj, mb.layers[l].adj) << "minibatch " << g << " layer " << l;
      EXPECT_EQ(alone.layers[l].vertices, mb.layers[l].vertices) << "minibatch " << g << " layer " << l;
    }
  }
  EXPECT_GT(sampled, 500) << "the check above ran on real layers";
}

struct TimedLinkSetup {
  TimedLinkSetup()
      : data(testing::planted_link_data_by_time()),
        sampler(testing::graphsage(data.graph.adj, {5, 5}, 3)),
        times(testing::link_times(data.split, sampler->cpu())) {}
  std::unique_ptr<LinkTrainer> trainer(LinkTrainOptions options) const {
    options.times = times;
    return std::make_unique<LinkTrainer>(data.graph, data.split, sampler->on_cpu(), sampler->cpu(), *comm, options);
  }
  const testing::LinkTrainingData data;
  const std::unique_ptr<testing::TestSampler> sampler;
  const std::shared_ptr<const TemporalEpoch> times;
  const std::unique_ptr<Communicator> comm = make_self_communicator();
};

TEST(LinkTrainerByTime, LearnsAndDoesNotDependOnTheBulkSize) {
  const TimedLinkSetup setup;
  LinkTrainOptions options = testing::small_link_options();
  options.train.epochs = 30;
  std::vector<LinkEpoch> runs[2];
  for (int i = 0; i < 2; ++i) {
    options.train.epoch.bulk_steps = i == 0 ? 1 : 4;
    const auto trainer = setup.trainer(options);
    while (!trainer->finished()) runs[i].push_back(trainer->train_epoch());
    if (i == 0) {
      EXPECT_LT(runs[0].back().loss, 0.8 * runs[0].front().loss);
      EXPECT_GT(trainer->summary().validation.auc, 0.7) << "a random scorer gives 0.5";
    }
  }
  ASSERT_EQ(runs[0].size(), runs[1].size());
  for (size_t e = 0; e < runs[0].size(); ++e) EXPECT_DOUBLE_EQ(runs[0][e].loss, runs[1][e].loss) << "epoch " << e;
  LinkTrainOptions bad = options;
  bad.times = setup.times;
  EdgeSplit random = split_edges(testing::planted_link_graph().adj, {0.1, 0.1, 7, 10});
  EXPECT_TRUE(testing::throws_error_with(
      [&] { LinkTrainer(setup.data.graph, random, setup.sampler->on_cpu(), setup.sampler->cpu(), *setup.comm, bad); },
      {"link prediction by time needs a split by time"}));
}

TEST(LinkCli, TrainsByTime) {
  const std::string dir = testing::scratch_dir("link_cli_temporal");
  Graph g = testing::planted_link_graph();
  const std::vector<int64_t> times = testing::entry_times(g.adj);
  g.edge_feature_dim = 2;  // column 1 holds the times
  g.edge_features.assign(2 * times.size(), 0.5f);
  for (size_t e = 0; e < times.size(); ++e) g.edge_features[2 * e + 1] = static_cast<float>(times[e]);
  write_binary_csr(dir + "/timed.msg", g);
  const std::string base = "train --task link -g " + dir + "/timed.msg --fanouts 5,5 -b 32 --hidden 16 --epochs 2 ";
  const testing::CliResult r = testing::run_cli(base + "--temporal uniform --edge-times 1 --time-split 60,80", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::count_lines(r.out), 3) << r.out;
  EXPECT_NE(r.out.find("\"test\":{\"auc\":"), std::string::npos) << r.out;
  const EdgeSplit split = split_edges_by_time(g.adj, times, 60, 80, {});
  EXPECT_NE(r.err.find(std::to_string(split.train.size()) + " train, " + std::to_string(split.validation.size()) +
                       " validation, " + std::to_string(split.test.size()) + " test edges"),
            std::string::npos)
      << r.err;
  for (const auto& [args, message] : std::vector<std::pair<std::string, std::string>>{
           {"--temporal uniform --time-split 60,80", "--task link --temporal needs --edge-times COLUMN"},
           {"--temporal uniform --edge-times 1", "--task link --temporal needs --time-split T1,T2"},
           {"--time-split 60,80", "--time-split needs --temporal"},
           {"--edge-times 1 --time-split 60,80", "--edge-times and --vertex-times need --temporal uniform|last"},
           {"--temporal uniform --edge-times 1 --time-split 60,80 --split given",
            "--task link --temporal splits the edges by time (--time-split), not by --split given"},
           {"--temporal last --edge-times 0 --time-split 60,80", "times must be integers"},
           {"--temporal uniform --edge-times 1 --time-split 60,80 --sampler ladies --samples 8",
            "the ladies sampler cannot sample by time"}}) {
    const testing::CliResult bad = testing::run_cli(base + args, dir);
    EXPECT_NE(bad.exit_code, 0) << args;
    EXPECT_NE(bad.err.find(message), std::string::npos) << args << ": " << bad.err;
  }
}

}  // namespace
}  // namespace matsamp
