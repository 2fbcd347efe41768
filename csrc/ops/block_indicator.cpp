// block_indicator: one row per minibatch marking its vertices (LADIES' Q).
#include <string>

#include "ops/op_checks.h"
#include "ops/ops.h"

namespace matsamp {

CsrMatrix block_indicator(const std::vector<vid_t>& ids, const Offsets& offsets, int64_t cols) {
  check_block_indicator(static_cast<int64_t>(ids.size()), offsets, cols);
  check_ids_below(ids, cols, "block_indicator", "id", std::to_string(cols) + " columns");
  return indicator_rows(static_cast<int64_t>(offsets.size()) - 1, cols, [&](int64_t g, std::vector<vid_t>& row) {
    row.assign(ids.begin() + offsets[g], ids.begin() + offsets[g + 1]);
  });
}

}  // namespace matsamp
