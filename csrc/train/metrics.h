// What an epoch of training reports, and early stopping on validation. Torch-free.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

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
  int64_t epochs_since_best = 0;
  bool stopped_early = false;
  double best_score = 0;     // higher is better (validation accuracy, AUC)
  double best_tiebreak = 0;  // among equal scores the lower is better (validation loss)
  std::vector<double> kept;  // what is reported of the best epoch (its test score), never used to choose

  // Records a finished epoch and returns whether it is the new best: the first
  // one, then a higher score, ties going to the lower tiebreak. Training stops
  // after `patience` epochs without a new best (0: never).
  bool record(int64_t epoch, double score, double tiebreak, int64_t patience);
};

struct TrainSummary {
  int64_t epochs_run = 0;
  int64_t best_epoch = -1;
  double best_validation_accuracy = 0;
  double test_accuracy = 0;  // at the best validation epoch
  bool stopped_early = false;
};

}  // namespace matsamp
