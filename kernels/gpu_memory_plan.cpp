#include "kernels/gpu_memory_plan.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace matsamp {

int64_t device_csr_bytes(int64_t rows, int64_t nnz, bool values) { return 8 * (rows + 1) + nnz * (values ? 8 : 4); }

int64_t gpu_memory_budget(int64_t free_bytes, int64_t graph_bytes, double fraction) {
  MATSAMP_CHECK(fraction > 0 && fraction <= 1, "GPU memory fraction must be in (0, 1], got ", fraction);
  const double left = static_cast<double>(std::max<int64_t>(0, free_bytes - graph_bytes));
  return std::max<int64_t>(1, static_cast<int64_t>(left * fraction) / kGpuBytesPerEstimatedByte);
}

int64_t bulk_size_that_fits(int64_t k, int64_t needed_bytes, int64_t available_bytes) {
  if (k <= 1 || needed_bytes <= 0) return 0;
  const double scaled = static_cast<double>(k) * static_cast<double>(std::max<int64_t>(0, available_bytes)) /
                        static_cast<double>(needed_bytes);
  // needed_bytes is a lower bound of what k needed, so the estimate is an
  // upper bound: never suggest k itself again.
  return std::clamp<int64_t>(static_cast<int64_t>(std::floor(scaled)), 0, k - 1);
}

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
