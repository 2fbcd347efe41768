#include "util/bandwidth.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "util/timer.h"

namespace matsamp {

double measure_copy_bandwidth() {
  const size_t words = size_t{32} << 20;   // 256 MiB per buffer
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

}  // namespace matsamp
