// R-GCN on heterogeneous minibatches (sampling/hetero_sample.h): per layer,
//   h'_d = W_root,d · h_d[:|F_d|] + Σ_{r: dst(r) = d} W_r · (A_r · h_src(r))
// with A_r the sampled relation's mean-aggregation matrix, ReLU and dropout
// between layers; vertex types without features get learned embeddings (as
// PyG's ogbn-mag example), featured types a linear map to the hidden width.
// Cross-entropy on the seed type's labels, Adam, sampled evaluation of the
// validation and test vertices, early stopping. One process.
#pragma once
#include <cstdio>
#include <string>

#include "graph/hetero_graph.h"
#include "sampling/hetero_sample.h"
#include "train/trainer.h"

namespace matsamp {

struct HeteroTrainOptions {
  TrainOptions train;  // hidden, dropout, lr, weight decay, epochs, patience, batch size, seed, threads, device;
                       // bulk_steps minibatches sampled at once (0: 16)
  bool shared_relation_weight = false;  // the ablation that ignores types: one weight for the mean over
                                        // all sampled neighbours (whatever their relation), one root, one
                                        // input map for all featured types
};

struct HeteroEpoch {
  int64_t epoch = 0, steps = 0;
  double loss = 0, validation_accuracy = 0, test_accuracy = 0;
  bool improved = false;
  double sampling_s = 0, training_s = 0, evaluation_s = 0;
};

struct HeteroSummary {
  int64_t epochs = 0, best_epoch = -1;
  double best_validation_accuracy = 0, test_accuracy = 0;  // test at the best validation epoch
};

// Trains on `seed_type`'s training split; `sampler` is built over `graph` on `backend`.
HeteroSummary train_rgcn(const HeteroGraph& graph, int seed_type, const HeteroSampler& sampler, Backend& backend,
                         const HeteroTrainOptions& options, std::FILE* metrics, std::FILE* progress);

}  // namespace matsamp
