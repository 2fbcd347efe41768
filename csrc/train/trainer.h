// Data-parallel minibatch training on sampled matrices: prefetched bulk
// sampling, feature rows, sparse propagation, gradients summed over all ranks
// of a Communicator, Adam, evaluation, early stopping and checkpoints.
// The header is torch-free so that only csrc/train/*.cpp pay for torch headers.
#pragma once
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "distributed/communicator.h"
#include "sampling/sampler.h"
#include "train/training_data.h"
#include "util/json.h"

namespace matsamp {

enum class EvaluationMode {
  full,      // every layer multiplies by the full neighbourhood matrix
  sampled,   // evaluation vertices are sampled like training minibatches
};
EvaluationMode parse_evaluation_mode(const std::string& name);   // "full" | "sampled"

struct TrainOptions {
  std::string model = "sage";          // sage | gcn
  int64_t hidden = 64;
  double dropout = 0.5;
  double learning_rate = 0.01;
  double weight_decay = 5e-4;
  int64_t epochs = 200;
  int64_t patience = 0;                // stop after this many epochs without a better validation score; 0: never
  int64_t batch_size = 64;
  int64_t bulk_steps = 0;              // steps sampled at once (a rank samples its minibatches of
                                       // that many steps in one call); 0: from memory_budget.
                                       // Steps hold the same minibatches for any p when given.
  int64_t memory_budget = int64_t{1} << 30;
  int64_t minibatches_per_step = 0;    // the global batch in minibatches (a multiple of p); 0: p
  uint64_t seed = 1;                   // initialization, shuffles, dropout
  std::string device = "cpu";          // cpu | cuda[:N]
  EvaluationMode evaluation = EvaluationMode::full;
  bool prefetch = true;                // sample the next bulk while training on this one
  int threads = 0;                     // torch intra-op threads; 0: torch's default
};

// Seconds this rank spent per part of an epoch.
struct EpochTimes {
  double sampling = 0;            // in the sampler (overlaps training when prefetching)
  double sampling_wait = 0;       // training waiting for a sampled bulk
  double block_conversion = 0;    // minibatch matrices to sparse tensors
  double feature_fetch = 0;       // feature rows of the input vertices
  double propagation = 0;         // forward and backward
  double gradient_reduction = 0;  // flatten, all-reduce over ranks, unflatten
  double optimizer = 0;           // Adam step
  double evaluation = 0;
  double total = 0;
};

struct EpochMetrics {
  int64_t epoch = 0;
  int64_t steps = 0;
  double loss = 0;                // mean over the epoch's training seeds, all ranks
  double train_accuracy = 0;      // evaluated like validation and test
  double validation_accuracy = 0;
  double validation_loss = 0;
  double test_accuracy = 0;
  bool improved = false;          // a new best validation score
  EpochTimes times;
};

struct TrainSummary {
  int64_t epochs_run = 0;
  int64_t best_epoch = -1;
  double best_validation_accuracy = 0;
  double test_accuracy = 0;       // at the best validation epoch
  bool stopped_early = false;
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
  bool finished() const;   // all epochs run, or stopped early
  EpochMetrics train_epoch();   // collective: every rank calls it
  TrainSummary summary() const;

  // Model, optimizer state, best model, epoch and early-stopping state. Sampling
  // and dropout are keyed by (seed, epoch, minibatch), so this resumes exactly.
  void save_checkpoint(const std::string& path) const;
  void load_checkpoint(const std::string& path);

  // Trains until finished. Rank 0 writes one JSON line per epoch (with every
  // rank's times) and a summary line to `metrics`, and a progress line per
  // epoch to `progress`; either may be null. Checkpoints after every epoch
  // when checkpoint_path is not empty.
  TrainSummary run(std::FILE* metrics, std::FILE* progress, const std::string& checkpoint_path = "");

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The epoch line: metrics, and each time as a list over ranks (collective).
JsonObject describe_epoch(const EpochMetrics& metrics, Communicator& comm);
JsonObject describe_summary(const TrainSummary& summary);

}  // namespace matsamp
