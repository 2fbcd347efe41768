#include "kernels/gpu_memory_plan.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace matsamp {

std::vector<int64_t> split_rows_by_work(const std::vector<int64_t>& work_prefix, int64_t budget) {
  MATSAMP_CHECK(!work_prefix.empty() && work_prefix.front() == 0, "split_rows_by_work: the prefix must start at 0");
  MATSAMP_CHECK(budget > 0, "split_rows_by_work: budget must be positive, got ", budget);
  const int64_t rows = static_cast<int64_t>(work_prefix.size()) - 1;
  std::vector<int64_t> bounds{0};
  while (bounds.back() < rows) {
    const int64_t first = bounds.back();
    // The last row r with work_prefix[r] - work_prefix[first] <= budget ends the chunk.
    const auto limit = work_prefix[first] + budget;
    int64_t end = std::upper_bound(work_prefix.begin() + first + 1, work_prefix.end(), limit) - work_prefix.begin() - 1;
    bounds.push_back(std::max(end, first + 1));
  }
  return bounds;
}

}  // namespace matsamp
