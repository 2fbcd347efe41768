// Link prediction: a GraphSAGE encoder over layers sampled from edge-seeded
// minibatches (sampling/edge_seeds.h: positives, k negatives each, the
// positives masked out of their own layers), a dot-product or MLP decoder,
// binary cross-entropy; validation and test scored as OGB's evaluator does
// (ROC-AUC, MRR and Hits@K against fixed negatives), embeddings from the full
// neighbourhood of the training graph.
#pragma once
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "sampling/edge_seeds.h"
#include "train/edge_split.h"
#include "train/trainer.h"

namespace matsamp {

struct LinkTrainOptions {
  TrainOptions train;  // hidden (also the embedding width), dropout, lr, epochs, patience, seed, device,
                       // threads; batch_size counts positive edges; bulk_steps minibatches sampled at once
  NegativeOptions negatives;
  bool exclude_reverse = true;  // on undirected graphs, mask (v, u) with (u, v)
  std::string decoder = "dot";  // dot | mlp
  std::vector<int64_t> hits_k{10, 50, 100};
};

struct LinkScores {
  double auc = 0, mrr = 0;
  std::map<int64_t, double> hits;  // Hits@K against all negatives (ogbl-collab's definition)
};

struct LinkEpoch {
  int64_t epoch = 0, steps = 0;
  double loss = 0;  // mean binary cross-entropy over the epoch's scored pairs
  LinkScores validation;
  double sampling_s = 0, training_s = 0, evaluation_s = 0;
};

struct LinkSummary {
  int64_t epochs = 0, best_epoch = -1;
  LinkScores validation, test;  // at the best validation AUC
};

// Trains on split.train's positives; `graph` holds the features (and is the
// training graph: graph.adj == split.train_graph) and `sampler` is built over
// it on `backend`. One process. Rank-0-style output: one JSON line per epoch
// and a summary line to `metrics`, a progress line per epoch to `progress`.
LinkSummary train_link_prediction(const Graph& graph, const EdgeSplit& split, const Sampler& sampler, Backend& backend,
                                  const LinkTrainOptions& options, std::FILE* metrics, std::FILE* progress);

}  // namespace matsamp
