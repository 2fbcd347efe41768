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
  MATSAMP_CHECK(!offsets.empty() && offsets.front() == 0 && offsets.back() == total, op, ": ", what,
                " must run from 0 to ", total);
  for (size_t g = 1; g < offsets.size(); ++g)
    MATSAMP_CHECK(offsets[g - 1] <= offsets[g], op, ": ", what, " decrease at block ", g);
}

void check_row_ids(const CsrMatrix& a, const std::vector<vid_t>& rows, const char* op) {
  check_row_ids(a.rows, a.shape(), rows, op);
}

void check_row_ids(int64_t a_rows, const std::string& a_shape, const std::vector<vid_t>& rows, const char* op) {
  for (vid_t v : rows) MATSAMP_CHECK(v >= 0 && v < a_rows, op, ": row id ", v, " out of range for ", a_shape);
}

void check_sample_rows(int64_t rows, int64_t s, const SampleKeys& keys, const char* op) {
  check_sample_keys(keys, s, op);
  const int64_t keyed = keys.row_offsets.back();
  MATSAMP_CHECK(rows == keyed, op, ": ", rows, " rows selected but the keys name ", keyed);
}

void check_its_sample(const CsrMatrix& p, int64_t s, const SampleKeys& keys) {
  check_sample_keys(keys, s, "its_sample");
  MATSAMP_CHECK(p.values.size() == p.colidx.size(), "its_sample: P (", p.shape(),
                ") has no values; normalize it first");
  check_its_sample_rows(p.rows, p.cols, p.nnz(), keys);
}

void check_its_sample_rows(int64_t rows, int64_t cols, int64_t nnz, const SampleKeys& keys) {
  const int64_t keyed = keys.row_offsets.back();
  MATSAMP_CHECK((rows == 1 && keyed != 1) || rows == keyed, "its_sample: P is ", rows, " x ", cols, " (", nnz,
                " nonzeros) but the keys name ", keyed, " rows");
}

void check_compact_blocks(int64_t rows, const Offsets& row_offsets, int64_t leading_count,
                          const Offsets& leading_offsets) {
  MATSAMP_CHECK(!row_offsets.empty() && row_offsets.front() == 0 && row_offsets.back() == rows,
                "compact_columns: row offsets must run from 0 to ", rows);
  MATSAMP_CHECK(leading_offsets.size() == row_offsets.size() && leading_offsets.back() == leading_count,
                "compact_columns: ", leading_offsets.size() - 1, " leading blocks for ", row_offsets.size() - 1,
                " row blocks");
}

void check_compact_columns(const CsrMatrix& s, const Offsets& row_offsets, const std::vector<vid_t>& leading,
                           const Offsets& leading_offsets) {
  check_compact_blocks(s.rows, row_offsets, static_cast<int64_t>(leading.size()), leading_offsets);
  for (vid_t v : leading)
    MATSAMP_CHECK(v >= 0 && v < s.cols, "compact_columns: leading vertex ", v, " out of range for ", s.shape());
}

void check_select_cols(const CsrMatrix& a, int64_t rows, const Offsets& row_offsets, const std::vector<vid_t>& cols,
                       const Offsets& col_offsets, const std::vector<float>& weights) {
  check_select_cols(a.cols, a.shape(), rows, row_offsets, cols, col_offsets, weights);
}

void check_select_cols(int64_t a_cols, const std::string& a_shape, int64_t rows, const Offsets& row_offsets,
                       const std::vector<vid_t>& cols, const Offsets& col_offsets, const std::vector<float>& weights) {
  const char* op = "select_cols";
  const int64_t total_cols = static_cast<int64_t>(cols.size());
  check_block_offsets(row_offsets, rows, op, "row offsets");
  check_block_offsets(col_offsets, total_cols, op, "column offsets");
  MATSAMP_CHECK(row_offsets.size() == col_offsets.size(), op, ": ", row_offsets.size() - 1, " row blocks but ",
                col_offsets.size() - 1, " column blocks");
  MATSAMP_CHECK(weights.empty() || weights.size() == cols.size(), op, ": ", weights.size(), " weights for ",
                cols.size(), " columns");
  check_column_count(total_cols, op);
  for (vid_t c : cols) MATSAMP_CHECK(c >= 0 && c < a_cols, op, ": column id ", c, " out of range for ", a_shape);
}

void check_frontier_blocks(int64_t p_rows, int64_t p_cols, const std::vector<vid_t>& frontier, const Offsets& offsets) {
  for (vid_t v : frontier)
    MATSAMP_CHECK(v >= 0 && v < p_cols, "gather: id ", v, " out of range for ", p_cols, " columns");
  check_block_offsets(offsets, static_cast<int64_t>(frontier.size()), "gather", "offsets");
  const int64_t blocks = static_cast<int64_t>(offsets.size()) - 1;
  MATSAMP_CHECK(p_rows == 1 || p_rows == blocks, "gather: ", blocks, " blocks for ", p_rows, " rows of P");
}

}  // namespace matsamp
