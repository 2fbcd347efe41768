#include "train/metrics.h"

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

#include "util/memory.h"

namespace matsamp {

void TrainingProgress::record(EpochMetrics& m, int64_t patience) {
  m.improved = m.validation_accuracy > best_validation_accuracy ||
               (m.validation_accuracy == best_validation_accuracy && m.validation_loss < best_validation_loss);
  if (m.improved) {
    best_epoch = m.epoch;
    best_validation_accuracy = m.validation_accuracy;
    best_validation_loss = m.validation_loss;
    test_accuracy_at_best = m.test_accuracy;
    epochs_since_best = 0;
  } else {
    ++epochs_since_best;
  }
  next_epoch = m.epoch + 1;
  stopped_early = patience > 0 && epochs_since_best >= patience;
}

TrainSummary summarize(const TrainingProgress& p) {
  TrainSummary s;
  s.epochs_run = p.next_epoch;
  s.best_epoch = p.best_epoch;
  s.best_validation_accuracy = std::max(0.0, p.best_validation_accuracy);
  s.test_accuracy = p.test_accuracy_at_best;
  s.stopped_early = p.stopped_early;
  return s;
}

JsonObject describe_epoch(const EpochMetrics& m, Communicator& comm) {
  const std::vector<std::pair<const char*, double>> parts{{"sampling", m.times.sampling},
                                                          {"sampling_wait", m.times.sampling_wait},
                                                          {"block_conversion", m.times.block_conversion},
                                                          {"feature_fetch", m.times.feature_fetch},
                                                          {"preparation_wait", m.times.preparation_wait},
                                                          {"propagation", m.times.propagation},
                                                          {"gradient_reduction", m.times.gradient_reduction},
                                                          {"optimizer", m.times.optimizer},
                                                          {"evaluation", m.times.evaluation},
                                                          {"explanation_wait", m.times.explanation_wait},
                                                          {"epoch", m.times.total}};
  std::vector<double> mine;
  for (const auto& part : parts) mine.push_back(part.second);
  const std::vector<double> all = comm.all_gatherv(mine);  // rank-major
  JsonObject times;
  for (size_t i = 0; i < parts.size(); ++i) {
    std::vector<double> per_rank;
    for (size_t r = 0; r < all.size() / parts.size(); ++r) per_rank.push_back(all[r * parts.size() + i]);
    times.add(parts[i].first, per_rank);
  }
  const std::vector<int64_t> fetch_bytes = comm.all_gatherv(std::vector<int64_t>{m.feature_fetch_bytes});
  const std::vector<int64_t> peak_memory = comm.all_gatherv(std::vector<int64_t>{peak_resident_bytes()});
  return JsonObject()
      .add("epoch", m.epoch)
      .add("steps", m.steps)
      .add("loss", m.loss)
      .add("train_accuracy", m.train_accuracy)
      .add("validation_accuracy", m.validation_accuracy)
      .add("validation_loss", m.validation_loss)
      .add("test_accuracy", m.test_accuracy)
      .add("improved", m.improved)
      .add("feature_fetch_bytes", fetch_bytes)
      .add("peak_memory_bytes", peak_memory)  // of each rank's process so far
      .add("time_s", times);
}

JsonObject describe_summary(const TrainSummary& s) {
  return JsonObject()
      .add("summary", true)
      .add("epochs_run", s.epochs_run)
      .add("best_epoch", s.best_epoch)
      .add("best_validation_accuracy", s.best_validation_accuracy)
      .add("test_accuracy", s.test_accuracy)
      .add("stopped_early", s.stopped_early);
}

std::string progress_line(const EpochMetrics& m, int64_t epochs) {
  char line[256];
  std::snprintf(line, sizeof line,
                "epoch %lld/%lld: loss %.4f, accuracy train %.3f validation %.3f test %.3f%s (%.2f s, sampling "
                "%.2f s)",
                static_cast<long long>(m.epoch + 1), static_cast<long long>(epochs), m.loss, m.train_accuracy,
                m.validation_accuracy, m.test_accuracy, m.improved ? " *" : "", m.times.total, m.times.sampling);
  return line;
}

}  // namespace matsamp
