#include "train/link_metrics.h"

#include <algorithm>
#include <functional>

#include "core/error.h"

namespace matsamp {

double roc_auc(const std::vector<float>& positive, const std::vector<float>& negative) {
  MATSAMP_CHECK(!positive.empty() && !negative.empty(), "ROC-AUC needs positive and negative scores");
  // Mann-Whitney: for each positive, the negatives below it plus half the tied ones.
  std::vector<float> sorted(negative);
  std::sort(sorted.begin(), sorted.end());
  double wins = 0;
  for (float p : positive) {
    const auto below = std::lower_bound(sorted.begin(), sorted.end(), p) - sorted.begin();
    const auto tied = std::upper_bound(sorted.begin(), sorted.end(), p) - sorted.begin() - below;
    wins += static_cast<double>(below) + 0.5 * static_cast<double>(tied);
  }
  return wins / (static_cast<double>(positive.size()) * static_cast<double>(negative.size()));
}

double hits_at_k(const std::vector<float>& positive, const std::vector<float>& negative, int64_t k) {
  MATSAMP_CHECK(!positive.empty() && k >= 1, "Hits@K needs positive scores and K >= 1");
  if (k > static_cast<int64_t>(negative.size())) return 1.0;
  std::vector<float> sorted(negative);
  std::nth_element(sorted.begin(), sorted.begin() + (k - 1), sorted.end(), std::greater<float>());
  const float kth = sorted[k - 1];
  const auto above = std::count_if(positive.begin(), positive.end(), [&](float p) { return p > kth; });
  return static_cast<double>(above) / static_cast<double>(positive.size());
}

std::vector<double> ranks_among_own_negatives(const std::vector<float>& positive, const std::vector<float>& negative) {
  MATSAMP_CHECK(!positive.empty() && negative.size() % positive.size() == 0 && !negative.empty(),
                "MRR needs the same number of negatives for every positive (", negative.size(), " for ",
                positive.size(), ")");
  const size_t m = negative.size() / positive.size();
  std::vector<double> ranks(positive.size());
  for (size_t i = 0; i < positive.size(); ++i) {
    double higher = 0, tied = 0;
    for (size_t j = i * m; j < (i + 1) * m; ++j) {
      higher += negative[j] > positive[i];
      tied += negative[j] == positive[i];
    }
    ranks[i] = 1 + higher + tied / 2;
  }
  return ranks;
}

double mean_reciprocal_rank(const std::vector<double>& ranks) {
  MATSAMP_CHECK(!ranks.empty(), "MRR of no ranks");
  double sum = 0;
  for (double r : ranks) sum += 1 / r;
  return sum / static_cast<double>(ranks.size());
}

double hits_at_k_per_source(const std::vector<double>& ranks, int64_t k) {
  MATSAMP_CHECK(!ranks.empty(), "Hits@K of no ranks");
  const auto hits = std::count_if(ranks.begin(), ranks.end(), [&](double r) { return r <= static_cast<double>(k); });
  return static_cast<double>(hits) / static_cast<double>(ranks.size());
}

}  // namespace matsamp
