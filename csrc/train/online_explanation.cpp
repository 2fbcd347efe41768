#include "train/online_explanation.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.h"
#include "util/timer.h"

namespace matsamp {

OnlineExplanation::OnlineExplanation(ExplanationGraph graph, torch::Tensor local_features,
                                     torch::Tensor remote_features, const ModelShape& shape,
                                     const ExplainerOptions& options)
    : graph_(std::move(graph)),
      local_features_(local_features.to(torch::kCPU, torch::kFloat).mean(0, true)),
      remote_features_(remote_features.to(torch::kCPU, torch::kFloat)),
      options_(options),
      snapshot_(make_model(shape)) {
  MATSAMP_CHECK(remote_features_.dim() == 2 && remote_features_.size(0) == static_cast<int64_t>(graph_.remote.size()),
                "online explanation: ", remote_features_.size(0), " remote feature rows for ", graph_.remote.size(),
                " remote vertices");
}

void OnlineExplanation::start(const GnnModel& model) {
  MATSAMP_CHECK(!running(), "online explanation: the previous explanation has not finished");
  {
    torch::NoGradGuard no_grad;
    const std::vector<torch::Tensor> from = model.parameters(), to = snapshot_->parameters();
    MATSAMP_CHECK(from.size() == to.size(), "online explanation: the model's shape differs from the snapshot's");
    for (size_t i = 0; i < from.size(); ++i) to[i].copy_(from[i].detach().to(torch::kCPU));
  }
  ExplainerOptions options = options_;
  options.seed += static_cast<uint64_t>(explanations_++);
  pending_ = worker_.submit(
      [this, options] { return explain_partition(*snapshot_, graph_, local_features_, remote_features_, options); });
}

ExplanationMasks OnlineExplanation::finish() {
  MATSAMP_CHECK(running(), "online explanation: no explanation is running");
  return pending_.get();
}

void check_guidance_options(const GuidanceOptions& g) {
  MATSAMP_CHECK(g.every >= 0, "explanations every ", g.every, " steps: must be 0 (none) or positive");
  MATSAMP_CHECK(g.every > 0 || g.remote_feature_fraction == 1.0,
                "a remote feature fraction follows the explanations' feature mask: set how often to explain "
                "(--explain-every T)");
  if (g.every == 0) return;
  MATSAMP_CHECK(g.remote_feature_fraction > 0 && g.remote_feature_fraction <= 1,
                "remote feature fraction must be in (0, 1], got ", g.remote_feature_fraction);
  MATSAMP_CHECK(g.importance_floor > 0 && g.importance_floor <= 1, "importance floor must be in (0, 1], got ",
                g.importance_floor);
  MATSAMP_CHECK(g.explainer_steps > 0, "explainer steps must be positive, got ", g.explainer_steps);
}

GuidedSampling::GuidedSampling(std::unique_ptr<OnlineExplanation> explanation, const ImportanceGuidedSampler& sampler,
                               const GuidanceOptions& options)
    : explanation_(std::move(explanation)), sampler_(sampler), options_(options) {
  check_guidance_options(options_);
  MATSAMP_CHECK(explanation_ && options_.every > 0, "guided sampling: no explanation to follow");
  sampler_.set_column_importance(std::make_shared<const ColumnImportance>());  // 1 until the first masks
}

void GuidedSampling::after_step(const GnnModel& model) {
  if (++steps_ % options_.every != 0 || explanation_->running()) return;
  explanation_->start(model);
  masks_due_ = steps_ + (options_.every + 1) / 2;  // the learner runs beside half a period of steps
}

void GuidedSampling::before_bulk(Communicator& comm, double* waited) {
  if (!explanation_->running() || steps_ < masks_due_) return;
  ExplanationMasks masks;
  {
    ScopedTimer t(waited);
    masks = explanation_->finish();
  }
  sampler_.set_column_importance(std::make_shared<const ColumnImportance>(
      remote_importance(explanation_->graph(), masks.remote, options_.importance_floor)));
  if (options_.remote_feature_fraction == 1.0) return;
  // Every rank fetches with the same dimensions: those of the summed masks, as rank 0 sums them.
  std::vector<double> summed(masks.features.begin(), masks.features.end());
  comm.all_reduce_sum(summed);
  comm.broadcast(summed.data(), static_cast<int64_t>(summed.size()), DataType::float64, 0);
  remote_dims_ = top_dimensions(summed, options_.remote_feature_fraction);
}

ColumnImportance remote_importance(const ExplanationGraph& graph, const std::vector<float>& mask, double floor) {
  MATSAMP_CHECK(mask.size() == graph.remote.size(), "remote importance: ", mask.size(), " mask values for ",
                graph.remote.size(), " remote vertices");
  MATSAMP_CHECK(floor > 0 && floor <= 1, "importance floor must be in (0, 1], got ", floor);
  std::vector<float> weights(mask.size(), 1.0f);  // a mask without contrast: every neighbour as important
  if (!mask.empty()) {
    const auto [low, high] = std::minmax_element(mask.begin(), mask.end());
    const double range = static_cast<double>(*high) - *low;
    if (range > 0)
      for (size_t i = 0; i < mask.size(); ++i)
        weights[i] = static_cast<float>(floor + (1 - floor) * (mask[i] - *low) / range);
  }
  return ColumnImportance(graph.remote, std::move(weights), graph.first, graph.end, static_cast<float>(floor));
}

std::vector<int64_t> top_dimensions(const std::vector<double>& mask, double fraction) {
  MATSAMP_CHECK(fraction > 0 && fraction <= 1, "remote feature fraction must be in (0, 1], got ", fraction);
  const size_t f = mask.size();
  const size_t keep = std::min(f, static_cast<size_t>(std::ceil(fraction * static_cast<double>(f) - 1e-9)));
  std::vector<int64_t> dims(f);
  std::iota(dims.begin(), dims.end(), 0);
  std::stable_sort(dims.begin(), dims.end(), [&mask](int64_t a, int64_t b) { return mask[a] > mask[b]; });
  dims.resize(keep);
  std::sort(dims.begin(), dims.end());
  return dims;
}

}  // namespace matsamp
