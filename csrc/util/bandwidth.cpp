#include "util/bandwidth.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "util/timer.h"

namespace matsamp {

double measure_copy_bandwidth() {
  const size_t words = size_t{32} << 20;  // 256 MiB per buffer
  std::vector<uint64_t> src(words, 1), dst(words, 0);
  double best = 0;
  for (int run = 0; run < 3; ++run) {
    ScopedTimer timer(nullptr);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < static_cast<int64_t>(words); ++i) dst[i] = src[i] + run;
    best = std::max(best, 2.0 * words * sizeof(uint64_t) / timer.seconds());
  }
  return best;
}

namespace {
volatile int64_t sink;  // keeps the gathered values live
}

double measure_gather_rate() {
  const int64_t size = int64_t{64} << 20;  // 256 MiB of int32
  const int64_t gathers = int64_t{32} << 20;
  std::vector<int32_t> table(size);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < size; ++i) table[i] = static_cast<int32_t>(i * 2654435761u);
  double best = 0;
  for (int run = 0; run < 3; ++run) {
    int64_t checksum = 0;
    ScopedTimer timer(nullptr);
#pragma omp parallel for schedule(static) reduction(+ : checksum)
    for (int64_t i = 0; i < gathers; ++i) {
      // Independent addresses (a multiplicative hash), so loads overlap as a
      // sampler's do; the checksum keeps the loads from being optimized away.
      const uint64_t at = (static_cast<uint64_t>(i + run) * 0x9E3779B97F4A7C15ull) >> 38;
      checksum += table[at];
    }
    const double seconds = timer.seconds();
    sink = checksum;
    best = std::max(best, gathers / seconds);
  }
  return best;
}

}  // namespace matsamp
