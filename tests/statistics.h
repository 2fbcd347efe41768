// Thresholds derived from the sampling distributions, not tuned to pass.
#pragma once
#include <cmath>
#include <vector>

namespace matsamp::testing {

// Upper quantile of chi-square with `df` degrees of freedom at standard normal
// quantile z (Wilson–Hilferty); z = 3.719 is the 1e-4 tail.
inline double chi_square_critical(double df, double z = 3.719) {
  const double t = 2.0 / (9.0 * df);
  return df * std::pow(1.0 - t + z * std::sqrt(t), 3.0);
}

inline double chi_square(const std::vector<double>& observed, const std::vector<double>& expected) {
  double sum = 0;
  for (size_t i = 0; i < observed.size(); ++i) {
    const double d = observed[i] - expected[i];
    sum += d * d / expected[i];
  }
  return sum;
}

// |observed - n p| within z standard deviations of a binomial(n, p).
inline bool within_binomial(double observed, double n, double p, double z = 4.5) {
  return std::abs(observed - n * p) <= z * std::sqrt(n * p * (1 - p));
}

}  // namespace matsamp::testing
