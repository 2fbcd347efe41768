// A small planted-partition graph split for link prediction, as the link
// trainer's tests use it: features, an undirected random edge split, and the
// graph of the training edges that layers are sampled from.
#pragma once
#include <algorithm>
#include <memory>

#include "generate/generators.h"
#include "graph/transform.h"
#include "ops/ops.h"
#include "train/edge_split.h"
#include "train/link_trainer.h"

namespace matsamp::testing {

struct LinkTrainingData {
  Graph graph;  // adj: the training edges only
  EdgeSplit split;
};

// 200 vertices in 4 planted classes, 16 features, symmetric, the largest component.
inline Graph planted_link_graph() {
  PlantedPartitionOptions options;
  options.vertices = 200;
  options.classes = 4;
  options.average_degree = 8;
  options.feature_dim = 16;
  options.seed = 4;
  return cleanup(generate_planted_partition(options), {true, true, true});
}

inline LinkTrainingData planted_link_data() {
  LinkTrainingData data{planted_link_graph(), {}};
  data.split = split_edges(data.graph.adj, {0.1, 0.1, 7, 10});
  data.graph.adj = data.split.train_graph;
  return data;
}

// An undirected edge's time, the same both ways, spread over [0, 100).
inline int64_t edge_time(vid_t u, vid_t v) { return (std::min(u, v) * 37 + std::max(u, v) * 61) % 100; }

inline std::vector<int64_t> entry_times(const CsrMatrix& adj) {
  std::vector<int64_t> times(adj.nnz());
  for (int64_t r = 0; r < adj.rows; ++r)
    for (int64_t e = adj.rowptr[r]; e < adj.rowptr[r + 1]; ++e) times[e] = edge_time(r, adj.colidx[e]);
  return times;
}

// The same graph split by time (edge_time): edges before 60 train, to 80 validate,
// the rest test.
inline LinkTrainingData planted_link_data_by_time() {
  LinkTrainingData data{planted_link_graph(), {}};
  data.split = split_edges_by_time(data.graph.adj, entry_times(data.graph.adj), 60, 80, {0, 0, 7, 10});
  data.graph.adj = data.split.train_graph;
  return data;
}

// Sampling by time over a split by time's training graph, in `backend`.
inline std::shared_ptr<const TemporalEpoch> link_times(const EdgeSplit& split, Backend& backend) {
  TimeOrder order = time_order(split.train_graph, split.train_graph_times);
  auto times = std::make_shared<TemporalEpoch>();
  times->order = backend.upload_ids(std::move(order.order));
  times->sorted_times = backend.upload_ids(std::move(order.sorted_times));
  return times;
}

inline LinkTrainOptions small_link_options() {
  LinkTrainOptions options;
  options.train.hidden = 16;
  options.train.dropout = 0.3;  // masks keyed by minibatch: the same for any bulk size and p
  options.train.learning_rate = 0.01;
  options.train.weight_decay = 0;
  options.train.epochs = 4;
  options.train.epoch.batch_size = 32;
  options.train.epoch.bulk_steps = 2;
  options.train.epoch.seed = 5;
  options.train.threads = 1;
  options.negatives.per_positive = 2;
  options.hits_k = {5, 20};
  return options;
}

}  // namespace matsamp::testing
