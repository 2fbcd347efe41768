#include "train/metrics.h"

namespace matsamp {

bool TrainingProgress::record(int64_t epoch, double score, double tiebreak, int64_t patience) {
  const bool improved = best_epoch < 0 || score > best_score || (score == best_score && tiebreak < best_tiebreak);
  if (improved) {
    best_epoch = epoch;
    best_score = score;
    best_tiebreak = tiebreak;
    epochs_since_best = 0;
  } else {
    ++epochs_since_best;
  }
  next_epoch = epoch + 1;
  stopped_early = patience > 0 && epochs_since_best >= patience;
  return improved;
}

}  // namespace matsamp
