// Link prediction: a GraphSAGE encoder over layers sampled from edge-seeded
// minibatches (sampling/edge_seeds.h: positives, k negatives each, the
// positives masked out of their own layers), a dot-product or MLP decoder,
// binary cross-entropy; validation and test scored as OGB's evaluator does
// (ROC-AUC, MRR and Hits@K against fixed negatives), embeddings from the full
// neighbourhood of the training graph. Data-parallel over the ranks of a
// Communicator exactly as the node trainer (sampling/epoch_plan.h): p ranks follow
// the loss curve of one process with the same global batch.
#pragma once
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "sampling/edge_seeds.h"
#include "sampling/epoch.h"
#include "train/edge_split.h"
#include "train/trainer.h"

namespace matsamp {

struct LinkTrainOptions {
  TrainOptions train;  // hidden (also the embedding width), dropout, lr, epochs, patience, seed, device,
                       // threads, minibatches_per_step; batch_size counts positive edges; bulk_steps
                       // steps sampled at once (0: from memory_budget)
  NegativeOptions negatives;
  bool exclude_reverse = true;  // on undirected graphs, mask (v, u) with (u, v)
  std::string decoder = "dot";  // dot | mlp
  std::vector<int64_t> hits_k{10, 50, 100};
  // Sampling by time (a split by time, EdgeSplit::train_times): the training graph's
  // TimeOrder and strategy; each positive's trees sampled strictly before its time
  // (sample_edge_trees), its negatives no later than it when vertex_times is given.
  std::shared_ptr<const TemporalEpoch> times;
};

struct LinkScores {
  double auc = 0;
  std::optional<double> mrr;       // with negatives per source only (EdgeSplit::evaluation_negatives > 0)
  std::map<int64_t, double> hits;  // Hits@K against all negatives (ogbl-collab's definition)
};

// "AUC 0.9012  MRR 0.4011" (MRR where defined), for progress lines.
std::string score_line(const LinkScores& scores);

struct LinkEpoch {
  int64_t epoch = 0, steps = 0;
  double loss = 0;  // mean binary cross-entropy over the epoch's scored pairs, all ranks
  LinkScores validation;
  bool improved = false;  // a new best validation AUC
  EpochTimes times;
};

struct LinkSummary {
  int64_t epochs = 0, best_epoch = -1;
  bool stopped_early = false;
  LinkScores validation, test;  // at the best validation AUC
};

class LinkTrainer {
 public:
  // Trains on split.train's positives; `graph` holds the features and is the
  // training graph (graph.adj == split.train_graph); `sampler` is built over it
  // on `backend`. All must outlive the trainer; every rank passes the same.
  LinkTrainer(const Graph& graph, const EdgeSplit& split, const Sampler& sampler, Backend& backend, Communicator& comm,
              const LinkTrainOptions& options);
  ~LinkTrainer();
  LinkTrainer(const LinkTrainer&) = delete;
  LinkTrainer& operator=(const LinkTrainer&) = delete;

  int64_t next_epoch() const;
  bool finished() const;    // all epochs run, or stopped early
  LinkEpoch train_epoch();  // collective: every rank calls it
  LinkSummary summary() const;

  // Model, optimizer, best model, epoch and early-stopping state; sampling,
  // negatives and dropout are keyed by (seed, epoch, minibatch): resumes exactly.
  void save_checkpoint(const std::string& path) const;
  void load_checkpoint(const std::string& path);

  // Trains until finished. Rank 0 writes one JSON line per epoch and a summary
  // line to `metrics`, a progress line per epoch to `progress` (either may be
  // null), and a checkpoint after every epoch when checkpoint_path is not empty.
  LinkSummary run(std::FILE* metrics, std::FILE* progress, const std::string& checkpoint_path = "");

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace matsamp
