// DGS's online explanation (dgs.txt, Algorithm 1): every T steps the trainer hands
// a snapshot of its model to a learner on its own thread, which explains the
// rank's partition (train/explainer.h) while training goes on. The masks it learns
// are applied before the next bulk is sampled: the remote vertices' mask as the
// sampler's column importance, the feature mask (summed over ranks) as the
// dimensions that remote feature rows are fetched with. When a snapshot is taken
// and when its masks apply follow the step count, not the learner's speed, so
// training stays deterministic.
#pragma once
#include <future>
#include <memory>
#include <vector>

#include "distributed/communicator.h"
#include "ops/column_importance.h"
#include "sampling/capabilities.h"
#include "train/background_worker.h"
#include "train/explainer.h"
#include "train/guidance_options.h"

namespace matsamp {

class OnlineExplanation {
 public:
  // local_features: the partition's rows (or their mean); remote_features: one row
  // per graph.remote, in its order. options.seed seeds the first explanation, the
  // n-th uses seed + n.
  OnlineExplanation(ExplanationGraph graph, torch::Tensor local_features, torch::Tensor remote_features,
                    const ModelShape& shape, const ExplainerOptions& options);

  const ExplanationGraph& graph() const { return graph_; }
  bool running() const { return pending_.valid(); }
  // Copies `model`'s parameters into the snapshot and starts the learner on it.
  // Only while not running().
  void start(const GnnModel& model);
  // Waits for the learner; rethrows its error.
  ExplanationMasks finish();

 private:
  ExplanationGraph graph_;
  torch::Tensor local_features_, remote_features_;
  ExplainerOptions options_;
  int64_t explanations_ = 0;
  std::shared_ptr<GnnModel> snapshot_;  // on the CPU: the learner's alone
  std::future<ExplanationMasks> pending_;
  BackgroundWorker worker_;  // last: joined first, while the rest still exists
};

// The trainer's side of DGS: when a snapshot is explained, and when and how its
// masks apply. Both follow the step count only (a snapshot every T steps, its
// masks before the first bulk sampled T/2 or more steps later), so a run is
// repeatable whatever the learner's speed.
class GuidedSampling {
 public:
  // `sampler` draws with importance 1 until the first masks apply.
  GuidedSampling(std::unique_ptr<OnlineExplanation> explanation, const ImportanceGuidedSampler& sampler,
                 const GuidanceOptions& options);

  // After each optimizer step: every T steps, `model` explained in the background
  // (unless the last explanation is still to apply).
  void after_step(const GnnModel& model);
  // Before a bulk is sampled: the masks that are due become the sampler's column
  // importance and the remote dimensions (collective over `comm` with a remote
  // feature fraction < 1: every rank calls it at the same points). Adds the wait
  // for the learner to *waited.
  void before_bulk(Communicator& comm, double* waited);
  // The dimensions remote rows are fetched with in training; empty: all.
  const std::vector<int64_t>& remote_dims() const { return remote_dims_; }

 private:
  std::unique_ptr<OnlineExplanation> explanation_;
  const ImportanceGuidedSampler& sampler_;
  GuidanceOptions options_;
  std::vector<int64_t> remote_dims_;
  int64_t steps_ = 0, masks_due_ = 0;
};

// The remote vertices' mask as a column importance, stretched onto [floor, 1]: the
// least important remote vertex drawn with `floor`, the most important with 1
// (GNNExplainer's masks move little from where they start in a short run; their
// order is what it learned). The partition's own vertices weigh 1, remote vertices
// beyond its neighbours (not explained) the floor.
ColumnImportance remote_importance(const ExplanationGraph& graph, const std::vector<float>& mask, double floor);

// The ceil(fraction · f) dimensions of the largest mask values (ties: the lower
// index first), ascending; all f when fraction is 1.
std::vector<int64_t> top_dimensions(const std::vector<double>& mask, double fraction);

}  // namespace matsamp
