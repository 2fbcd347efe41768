// A small planted-partition graph split for link prediction, as the link
// trainer's tests use it: features, an undirected random edge split, and the
// graph of the training edges that layers are sampled from.
#pragma once
#include "generate/generators.h"
#include "graph/transform.h"
#include "train/edge_split.h"
#include "train/link_trainer.h"

namespace matsamp::testing {

struct LinkTrainingData {
  Graph graph;  // adj: the training edges only
  EdgeSplit split;
};

inline LinkTrainingData planted_link_data() {
  PlantedPartitionOptions options;
  options.vertices = 200;
  options.classes = 4;
  options.average_degree = 8;
  options.feature_dim = 16;
  options.seed = 4;
  LinkTrainingData data{cleanup(generate_planted_partition(options), {true, true, true}), {}};
  data.split = split_edges(data.graph.adj, {0.1, 0.1, 7, 10});
  data.graph.adj = data.split.train_graph;
  return data;
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
