// sequence_runs and gather_ids: id lists built from positions.
#include <numeric>

#include "ops/op_checks.h"
#include "ops/ops.h"

namespace matsamp {

std::vector<vid_t> sequence_runs(const std::vector<int64_t>& starts, const Offsets& run_offsets) {
  check_sequence_runs(starts, run_offsets);
  std::vector<vid_t> ids(run_offsets.back());
  for (size_t i = 0; i < starts.size(); ++i)
    std::iota(ids.begin() + run_offsets[i], ids.begin() + run_offsets[i + 1], static_cast<vid_t>(starts[i]));
  return ids;
}

std::vector<vid_t> gather_ids(const std::vector<vid_t>& ids, const std::vector<vid_t>& at) {
  check_ids_below(at, static_cast<int64_t>(ids.size()), "gather_ids", "position", std::to_string(ids.size()) + " ids");
  std::vector<vid_t> out(at.size());
  for (size_t i = 0; i < at.size(); ++i) out[i] = ids[at[i]];
  return out;
}

}  // namespace matsamp
