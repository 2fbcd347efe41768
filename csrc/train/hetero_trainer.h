// R-GCN training on heterogeneous minibatches (the model: train/rgcn.h).
// Cross-entropy on the seed type's labels, Adam, sampled evaluation of the
// validation vertices every epoch and of the test vertices at each new best,
// early stopping, checkpoints; data-parallel over the ranks of a Communicator
// (train/loop.h), every rank holding the whole graph; by time when given.
#pragma once
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "graph/hetero_graph.h"
#include "sampling/hetero_sample.h"
#include "sampling/hetero_temporal.h"
#include "train/trainer.h"

namespace matsamp {

struct HeteroTrainOptions {
  TrainOptions train;  // hidden, dropout, lr, weight decay, epochs, patience, batch size, seed, threads, device;
                       // bulk_steps minibatches sampled at once (0: 16)
  bool shared_relation_weight = false;  // the ablation that ignores types (train/rgcn.h)
  int64_t num_bases = 0;                // > 0: each layer's relation weights combine this many bases
  // Sampling by time (training and evaluation): every seed a tree at its
  // vertex's time, no relation's draw later (sampling/hetero_temporal.h).
  std::shared_ptr<const HeteroTemporalEpoch> times;
};

struct HeteroEpoch {
  int64_t epoch = 0, steps = 0;
  double loss = 0, validation_accuracy = 0;
  std::optional<double> test_accuracy;  // scored at a new best validation accuracy only
  bool improved = false;
  EpochTimes times;
};

struct HeteroSummary {
  int64_t epochs = 0, best_epoch = -1;
  bool stopped_early = false;
  double best_validation_accuracy = 0, test_accuracy = 0;  // test at the best validation epoch
};

class RgcnTrainer {
 public:
  // Trains on `seed_type`'s training split; `sampler` is built over `graph` on
  // `backend`. All must outlive the trainer; every rank passes the same.
  RgcnTrainer(const HeteroGraph& graph, int seed_type, const HeteroSampler& sampler, Backend& backend,
              Communicator& comm, const HeteroTrainOptions& options);
  ~RgcnTrainer();
  RgcnTrainer(const RgcnTrainer&) = delete;
  RgcnTrainer& operator=(const RgcnTrainer&) = delete;

  int64_t next_epoch() const;
  bool finished() const;  // all epochs run, or stopped early
  HeteroEpoch train_epoch();
  HeteroSummary summary() const;
  const torch::nn::Module& model() const;  // a train/rgcn.h Rgcn

  // Model, optimizer, epoch and early-stopping state; sampling and dropout are
  // keyed by (seed, epoch, minibatch): resumes exactly. A checkpoint of another
  // graph schema, seed type, seed or model shape is refused.
  void save_checkpoint(const std::string& path) const;
  void load_checkpoint(const std::string& path);

  // Trains until finished: one JSON line per epoch and a summary line to
  // `metrics`, a progress line per epoch to `progress` (either may be null), a
  // checkpoint after every epoch when checkpoint_path is not empty.
  HeteroSummary run(std::FILE* metrics, std::FILE* progress, const std::string& checkpoint_path = "");

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// RgcnTrainer(...).run(metrics, progress) on one process.
HeteroSummary train_rgcn(const HeteroGraph& graph, int seed_type, const HeteroSampler& sampler, Backend& backend,
                         const HeteroTrainOptions& options, std::FILE* metrics, std::FILE* progress);

}  // namespace matsamp
