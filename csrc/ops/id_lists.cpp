// sequence_runs, gather_ids and range_positions: id lists built from positions.
#include <algorithm>
#include <numeric>

#include "ops/op_checks.h"
#include "ops/ops.h"
#include "util/parallel.h"

namespace matsamp {

std::vector<vid_t> sequence_runs(const std::vector<int64_t>& starts, const Offsets& run_offsets) {
  check_sequence_runs(starts, run_offsets);
  std::vector<vid_t> ids(run_offsets.back());
  const int64_t runs = static_cast<int64_t>(starts.size());
#pragma omp parallel for schedule(static) num_threads(threads_for(run_offsets.back()))
  for (int64_t i = 0; i < runs; ++i)
    std::iota(ids.begin() + run_offsets[i], ids.begin() + run_offsets[i + 1], static_cast<vid_t>(starts[i]));
  return ids;
}

std::vector<vid_t> gather_ids(const std::vector<vid_t>& ids, const std::vector<vid_t>& at) {
  check_ids_below(at, static_cast<int64_t>(ids.size()), "gather_ids", "position", std::to_string(ids.size()) + " ids");
  const int64_t n = static_cast<int64_t>(at.size());
  std::vector<vid_t> out(n);
#pragma omp parallel for schedule(static) num_threads(threads_for(n))
  for (int64_t i = 0; i < n; ++i) out[i] = ids[at[i]];
  return out;
}

std::vector<vid_t> range_positions(const std::vector<vid_t>& ids, const std::vector<vid_t>& bounds) {
  MATSAMP_CHECK(!bounds.empty() && std::is_sorted(bounds.begin(), bounds.end()),
                "range_positions: the bounds must ascend");
  const int64_t n = static_cast<int64_t>(ids.size()), ranges = static_cast<int64_t>(bounds.size()) - 1;
  std::vector<int64_t> next(ranges + 1, 0);  // each range's first position, then its cursor
  std::vector<int64_t> range_of(n);
  for (int64_t i = 0; i < n; ++i) {
    MATSAMP_CHECK(ids[i] >= bounds.front() && ids[i] < bounds.back(), "range_positions: id ", ids[i], " at ", i,
                  " is outside [", bounds.front(), ", ", bounds.back(), ")");
    range_of[i] = std::upper_bound(bounds.begin() + 1, bounds.end() - 1, ids[i]) - (bounds.begin() + 1);
    ++next[range_of[i] + 1];
  }
  std::partial_sum(next.begin(), next.end(), next.begin());
  std::vector<vid_t> out(n);
  for (int64_t i = 0; i < n; ++i) out[i] = static_cast<vid_t>(next[range_of[i]]++);
  return out;
}

}  // namespace matsamp
