// What an epoch of training reports, early stopping on validation, and the
// JSON and progress lines. Torch-free.
#pragma once
#include <cstdint>
#include <limits>
#include <string>

#include "distributed/communicator.h"
#include "util/json.h"

namespace matsamp {

// Seconds this rank spent per part of an epoch.
struct EpochTimes {
  double sampling = 0;            // in the sampler (overlaps training when prefetching)
  double sampling_wait = 0;       // training waiting for a sampled bulk
  double block_conversion = 0;    // minibatch matrices to sparse tensors (overlaps training in the pipeline)
  double feature_fetch = 0;       // feature rows of the input vertices (the same, unless partitioned)
  double preparation_wait = 0;    // training waiting for a step's blocks and features
  double propagation = 0;         // forward and backward
  double gradient_reduction = 0;  // flatten, all-reduce over ranks, unflatten
  double optimizer = 0;           // Adam step
  double evaluation = 0;
  double explanation_wait = 0;  // sampling waiting for DGS's explanation (it runs beside training)
  double total = 0;
};

struct EpochMetrics {
  int64_t epoch = 0;
  int64_t steps = 0;
  double loss = 0;            // mean over the epoch's training seeds, all ranks
  double train_accuracy = 0;  // evaluated like validation and test
  double validation_accuracy = 0;
  double validation_loss = 0;
  double test_accuracy = 0;
  bool improved = false;            // a new best validation score
  int64_t feature_fetch_bytes = 0;  // sent by this rank's feature fetches while training (1.5D features)
  EpochTimes times;
};

// Where training stands; all of it goes into checkpoints.
struct TrainingProgress {
  int64_t next_epoch = 0;
  int64_t best_epoch = -1;
  double best_validation_accuracy = -1;
  double best_validation_loss = std::numeric_limits<double>::infinity();
  double test_accuracy_at_best = 0;  // reported, never used to choose
  int64_t epochs_since_best = 0;
  bool stopped_early = false;

  // Records a finished epoch. The best epoch has the highest validation
  // accuracy, ties going to the lower validation loss; training stops after
  // `patience` epochs without a new best (0: never). Sets m.improved.
  void record(EpochMetrics& m, int64_t patience);
};

struct TrainSummary {
  int64_t epochs_run = 0;
  int64_t best_epoch = -1;
  double best_validation_accuracy = 0;
  double test_accuracy = 0;  // at the best validation epoch
  bool stopped_early = false;
};
TrainSummary summarize(const TrainingProgress& progress);

// The epoch line: metrics, and each time as a list over ranks (collective).
JsonObject describe_epoch(const EpochMetrics& metrics, Communicator& comm);
JsonObject describe_summary(const TrainSummary& summary);
// "epoch 3/200: loss …, accuracy train … validation … test … (… s)".
std::string progress_line(const EpochMetrics& metrics, int64_t epochs);

}  // namespace matsamp
