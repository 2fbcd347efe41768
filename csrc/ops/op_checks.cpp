#include "ops/op_checks.h"

namespace matsamp {

void check_sample_keys(const SampleKeys& keys, int64_t s, const char* op) {
  MATSAMP_CHECK(s > 0, op, ": sample count must be positive, got ", s);
  const Offsets& offsets = keys.row_offsets;
  MATSAMP_CHECK(offsets.size() >= 2 && offsets.front() == 0, op, ": row offsets must start at 0");
  for (size_t g = 1; g < offsets.size(); ++g)
    MATSAMP_CHECK(offsets[g - 1] <= offsets[g], op, ": row offsets decrease at block ", g);
}

void check_block_offsets(const Offsets& offsets, int64_t total, const char* op, const char* what) {
  MATSAMP_CHECK(!offsets.empty() && offsets.front() == 0 && offsets.back() == total, op, ": ",
                what, " must run from 0 to ", total);
  for (size_t g = 1; g < offsets.size(); ++g)
    MATSAMP_CHECK(offsets[g - 1] <= offsets[g], op, ": ", what, " decrease at block ", g);
}

void check_select_cols(const CsrMatrix& a, int64_t rows, const Offsets& row_offsets, const std::vector<vid_t>& cols,
                       const Offsets& col_offsets, const std::vector<float>& weights) {
  const char* op = "select_cols";
  const int64_t total_cols = static_cast<int64_t>(cols.size());
  check_block_offsets(row_offsets, rows, op, "row offsets");
  check_block_offsets(col_offsets, total_cols, op, "column offsets");
  MATSAMP_CHECK(row_offsets.size() == col_offsets.size(), op, ": ", row_offsets.size() - 1, " row blocks but ",
                col_offsets.size() - 1, " column blocks");
  MATSAMP_CHECK(weights.empty() || weights.size() == cols.size(), op, ": ", weights.size(), " weights for ",
                cols.size(), " columns");
  check_column_count(total_cols, op);
  for (vid_t c : cols)
    MATSAMP_CHECK(c >= 0 && c < a.cols, op, ": column id ", c, " out of range for ", a.shape());
}

void check_frontier_blocks(int64_t p_rows, int64_t p_cols, const std::vector<vid_t>& frontier, const Offsets& offsets) {
  for (vid_t v : frontier)
    MATSAMP_CHECK(v >= 0 && v < p_cols, "draw_columns: frontier vertex ", v, " out of range for ", p_cols, " columns");
  check_block_offsets(offsets, static_cast<int64_t>(frontier.size()), "draw_columns", "frontier offsets");
  const int64_t blocks = static_cast<int64_t>(offsets.size()) - 1;
  MATSAMP_CHECK(p_rows == 1 || p_rows == blocks, "draw_columns: ", blocks, " frontier blocks for ", p_rows,
                " rows of P");
}

}  // namespace matsamp
