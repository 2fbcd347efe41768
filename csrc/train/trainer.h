// Data-parallel minibatch training on sampled matrices, as a pipeline: bulk
// b + 1 is sampled, and the next steps' blocks and feature rows prepared, on
// their own threads while the model trains on the current step (sparse
// propagation, gradients summed over all ranks of a Communicator, Adam); then
// evaluation, early stopping and checkpoints.
// The header is torch-free so that only csrc/train/*.cpp pay for torch headers.
#pragma once
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "distributed/communicator.h"
#include "sampling/epoch.h"
#include "sampling/sampler.h"
#include "train/guidance_options.h"
#include "train/metrics.h"
#include "train/training_data.h"

namespace torch::nn {
class Module;  // trainer.h stays free of torch's headers (they cost ~20 s per file)
}

namespace matsamp {

enum class EvaluationMode {
  full,     // every layer multiplies by the full neighbourhood matrix
  sampled,  // evaluation vertices are sampled like training minibatches
};

struct TrainOptions {
  std::string model = "sage";  // sage | gcn
  int64_t hidden = 64;
  double dropout = 0.5;
  double learning_rate = 0.01;
  double weight_decay = 5e-4;
  int64_t epochs = 200;
  int64_t patience = 0;  // stop after this many epochs without a better validation score; 0: never
  // The epoch as `matsamp sample` takes it. seed: also initialization and dropout;
  // minibatches_per_step: the global batch (a multiple of p; 0: p, or with locality
  // blocks B the smallest multiple of B and p); bulk_steps: steps sampled at once,
  // a rank sampling its minibatches of them in one call (0: from memory_budget; either
  // way independent of p, so the steps are too); locality.blocks B > 0: lane j's
  // minibatches from id block j·B/lanes (EpochPlan), with B = p/c a rank's from the
  // feature rows it holds. bulk_size, epoch, locality.vertices and the share are the loop's.
  EpochOptions epoch{64, 0, int64_t{1} << 30, 1, 0};
  std::string device = "cpu";  // cpu | cuda[:N]
  EvaluationMode evaluation = EvaluationMode::full;
  bool prefetch = true;             // sample the next bulk while training on this one
  bool pipeline = true;             // prepare the next steps' blocks and input rows while training
  int threads = 0;                  // torch intra-op threads; 0: torch's default
  int feature_replication = 0;      // 0: every rank reads its own copy of the features;
                                    // c >= 1: the 1.5D layout with replication c, rows
                                    // fetched per minibatch (distributed/, MPI builds)
  bool split_row_sampling = false;  // partitioned: each rank samples its own minibatches
                                    // (GraphProduct::RowWork::split), not its process row's
  GuidanceOptions guidance;         // DGS; its locality blocks default to p/c
};

class Trainer {
 public:
  // The sampler's layers set the model depth; data, sampler, backend and comm
  // must outlive the trainer. Every rank must pass the same data and options.
  Trainer(const TrainingData& data, const Sampler& sampler, Backend& backend, Communicator& comm,
          const TrainOptions& options);
  ~Trainer();
  Trainer(const Trainer&) = delete;
  Trainer& operator=(const Trainer&) = delete;

  int64_t next_epoch() const;
  bool finished() const;       // all epochs run, or stopped early
  EpochMetrics train_epoch();  // collective: every rank calls it
  TrainSummary summary() const;

  // Model, optimizer state, best model, epoch and early-stopping state. Sampling
  // and dropout are keyed by (seed, epoch, minibatch), so this resumes exactly.
  void save_checkpoint(const std::string& path) const;
  void load_checkpoint(const std::string& path);
  // The model being trained (its parameters, for inspection).
  const torch::nn::Module& model() const;
  // The labelled vertices whose labels this process holds: the training set and,
  // evaluated sampled, its share of the rest (every one, evaluated full).
  int64_t labelled_vertices_held() const;

  // Trains until finished. Rank 0 writes one JSON line per epoch (with every
  // rank's times) and a summary line to `metrics`, and a progress line per
  // epoch to `progress`; either may be null. Checkpoints after every epoch
  // when checkpoint_path is not empty.
  TrainSummary run(std::FILE* metrics, std::FILE* progress, const std::string& checkpoint_path = "");

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace matsamp
