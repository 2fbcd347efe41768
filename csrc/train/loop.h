// One training loop for every task. The loop owns what every task trains with:
// the step plan (minibatches as optimizer steps over p ranks), the pipeline (bulk
// b + 1 sampled while bulk b trains, the next steps' minibatches prepared on a
// second worker), the training stream, the gradient sum over ranks, Adam, the
// evaluation after every epoch, early stopping, checkpoints and the JSON lines.
// A task (node classification, link prediction, heterogeneous node
// classification) says only how a sampled bulk becomes a loss and how the model
// is evaluated; feature sources and step hooks (DGS) are the task's.
#pragma once
#include <torch/torch.h>

#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "distributed/communicator.h"
#include "sampling/context.h"
#include "sampling/epoch.h"
#include "sampling/epoch_plan.h"
#include "train/metrics.h"
#include "train/trainer.h"
#include "util/json.h"

namespace matsamp {

// A bulk of minibatches as its task sampled it (layers on the host, and what
// else the task drew with them), shared by the steps that train on it.
struct SampledBulk {
  virtual ~SampledBulk() = default;
};

// One minibatch made ready for the model on the preparing thread.
struct PreparedMinibatch {
  virtual ~PreparedMinibatch() = default;
};

// Busy time of a step's preparation (it runs beside training).
struct PreparationTimes {
  double block_conversion = 0, feature_fetch = 0;
};

// An evaluation, as the loop needs it: the score early stopping follows and what
// the epoch line, the progress line and the summary show.
struct Evaluation {
  double score = 0;     // higher is better (validation accuracy, AUC)
  double tiebreak = 0;  // among equal scores the lower is better (validation loss); equal: no improvement
  JsonObject fields;    // the epoch line's scores
  std::string progress;
  std::vector<double> kept;  // what the summary reports of the best epoch (kept in checkpoints)
};

struct LoopSummary {
  int64_t epochs_run = 0, best_epoch = -1;
  bool stopped_early = false;
  double best_score = 0;
  std::vector<double> kept;  // the best epoch's Evaluation::kept
};

class TrainingTask {
 public:
  virtual ~TrainingTask() = default;

  // ---- The model and the run
  virtual torch::nn::Module& model() = 0;
  // Names the run (seed, model shape): a checkpoint of another is refused.
  virtual std::vector<int64_t> identity() const = 0;
  // What the epoch shuffles and cuts into minibatches (training vertex or edge ids).
  virtual const std::vector<vid_t>& training_items() const = 0;
  // Loss terms per item (a link's positive and its negatives): what a step's
  // and the epoch's mean loss divide by, with the items.
  virtual int64_t terms_per_item() const { return 1; }
  // Steps sampled at once when the options leave it open (independent of p).
  virtual int64_t steps_per_bulk(int64_t lanes, int64_t minibatches) const = 0;
  virtual BatchLocality locality() const { return {}; }
  // Ranks that sample their lanes together (a partitioned graph's process row).
  virtual int sampling_group() const { return 1; }

  // ---- A step
  // Minibatches [ids.first, ids.second) of the epoch cut as `order` (on the sampling worker).
  virtual std::shared_ptr<const SampledBulk> sample(Context& ctx, const EpochOrder& order,
                                                    std::pair<int64_t, int64_t> ids, uint32_t epoch) const = 0;
  // Minibatch `id` of `bulk`, ready for the model (on the preparing worker).
  virtual std::unique_ptr<PreparedMinibatch> prepare(const SampledBulk& bulk, int64_t id,
                                                     PreparationTimes& times) const = 0;
  // For each of this rank's lanes of a step in order, null where a lane ran out:
  // what must be collective (partitioned feature rows). On the training thread, or
  // on the preparing worker where the task says so (then its collectives go
  // through a communicator of their own, used by no other thread at the time).
  virtual void complete(PreparedMinibatch* /*minibatch*/, PreparationTimes& /*times*/) {}
  virtual bool completes_while_preparing() const { return false; }
  // The minibatch's loss summed over its terms.
  virtual torch::Tensor loss(PreparedMinibatch& minibatch) = 0;
  // Step hooks: before a bulk is sampled (the wait added to *waited), after each optimizer step.
  virtual void before_bulk(double* /*waited*/) {}
  virtual void after_step() {}

  // ---- Evaluation (collective; in eval mode, without gradients). Sampled
  // evaluation samples `bulk_minibatches` at once (what a rank samples per bulk in training).
  virtual Evaluation evaluate(uint32_t epoch, int64_t bulk_minibatches) = 0;
  // How many numbers an Evaluation keeps (Evaluation::kept).
  virtual size_t kept_scores() const = 0;
  // At a new best: scores only taken then (test), added to `evaluation`.
  virtual void score_best(Evaluation& /*evaluation*/, uint32_t /*epoch*/) {}
  // The summary line's scores of the best epoch (collective).
  virtual JsonObject summary_fields(const LoopSummary& summary) = 0;
  // Bytes this rank's feature fetches sent so far.
  virtual int64_t feature_bytes_sent() const { return 0; }
};

struct LoopEpoch {
  int64_t epoch = 0, steps = 0;
  double loss = 0;  // mean over the epoch's loss terms, all ranks
  bool improved = false;
  int64_t feature_fetch_bytes = 0;
  EpochTimes times;
  Evaluation evaluation;
};

class TrainingLoop {
 public:
  // options: the loop's part (optimizer, epochs, patience, batch, bulk, prefetch,
  // pipeline, threads, device, seed, lanes); task, backend and comm must outlive it.
  TrainingLoop(TrainingTask& task, Backend& backend, Communicator& comm, const TrainOptions& options);
  ~TrainingLoop();
  TrainingLoop(const TrainingLoop&) = delete;
  TrainingLoop& operator=(const TrainingLoop&) = delete;

  const EpochPlan& plan() const;
  int64_t next_epoch() const;
  bool finished() const;    // all epochs run, or stopped early
  LoopEpoch train_epoch();  // collective: every rank calls it
  LoopSummary summary() const;

  // Model, Adam state, best model, epoch and early-stopping state. Sampling and
  // dropout are keyed by (seed, epoch, minibatch), so this resumes exactly.
  void save_checkpoint(const std::string& path) const;
  void load_checkpoint(const std::string& path);

  // Trains until finished. Rank 0 writes one JSON line per epoch (with every
  // rank's times) and a summary line to `metrics`, a progress line per epoch to
  // `progress` (either may be null), and a checkpoint after every epoch when
  // checkpoint_path is not empty.
  LoopSummary run(std::FILE* metrics, std::FILE* progress, const std::string& checkpoint_path);

 private:
  struct State;
  class Pipeline;
  std::unique_ptr<State> state_;
};

// The step plan of `items` training items: lanes per step (a multiple of the
// ranks), steps per bulk from the options or the task, balanced with locality blocks.
EpochPlan make_epoch_plan(const TrainingTask& task, const TrainOptions& options, int ranks);

}  // namespace matsamp
