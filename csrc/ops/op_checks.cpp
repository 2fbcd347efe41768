#include "ops/op_checks.h"

#include <algorithm>

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

void check_pad_row_blocks(int64_t rows, const Offsets& row_offsets, const Offsets& padded_offsets) {
  check_block_offsets(row_offsets, rows, "pad_row_blocks", "row offsets");
  MATSAMP_CHECK(!padded_offsets.empty(), "pad_row_blocks: no padded offsets");
  check_block_offsets(padded_offsets, padded_offsets.back(), "pad_row_blocks", "padded offsets");
  MATSAMP_CHECK(padded_offsets.size() == row_offsets.size(), "pad_row_blocks: ", row_offsets.size() - 1,
                " row blocks, ", padded_offsets.size() - 1, " padded blocks");
  for (size_t g = 0; g + 1 < row_offsets.size(); ++g)
    MATSAMP_CHECK(padded_offsets[g + 1] - padded_offsets[g] >= row_offsets[g + 1] - row_offsets[g],
                  "pad_row_blocks: block ", g, " has ", row_offsets[g + 1] - row_offsets[g], " rows, padded to ",
                  padded_offsets[g + 1] - padded_offsets[g]);
}

void check_block_indicator(int64_t ids, const Offsets& offsets, int64_t cols) {
  check_column_count(cols, "block_indicator");
  check_block_offsets(offsets, ids, "block_indicator", "id offsets");
}

void check_select_rows_by_key(int64_t matrix_rows, int64_t keys, const Offsets& key_offsets, int64_t rows,
                              const Offsets& row_offsets) {
  MATSAMP_CHECK(keys == matrix_rows, "select_rows_by_key: ", keys, " keys for a matrix of ", matrix_rows, " rows");
  check_block_offsets(key_offsets, keys, "select_rows_by_key", "key offsets");
  check_block_offsets(row_offsets, rows, "select_rows_by_key", "row offsets");
  MATSAMP_CHECK(key_offsets.size() == row_offsets.size(), "select_rows_by_key: ", key_offsets.size() - 1,
                " key blocks, ", row_offsets.size() - 1, " row blocks");
}

void check_ids_below(const std::vector<vid_t>& ids, int64_t bound, const char* op, const char* what,
                     const std::string& of) {
  for (vid_t v : ids) MATSAMP_CHECK(v >= 0 && v < bound, op, ": ", what, " ", v, " out of range for ", of);
}

int64_t check_sequence_runs(const std::vector<int64_t>& starts, const Offsets& run_offsets) {
  MATSAMP_CHECK(run_offsets.size() == starts.size() + 1, "sequence_runs: ", run_offsets.size(), " run offsets for ",
                starts.size(), " runs");
  check_block_offsets(run_offsets, run_offsets.back(), "sequence_runs", "run offsets");
  int64_t bound = 0;
  for (size_t i = 0; i < starts.size(); ++i) {
    MATSAMP_CHECK(starts[i] >= 0, "sequence_runs: run ", i, " starts at ", starts[i]);
    if (run_offsets[i] < run_offsets[i + 1]) bound = std::max(bound, starts[i] + run_offsets[i + 1] - run_offsets[i]);
  }
  return bound;
}

void check_row_ids(const CsrMatrix& a, const std::vector<vid_t>& rows, const char* op) {
  check_ids_below(rows, a.rows, op, "row id", a.shape());
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
  check_ids_below(leading, s.cols, "compact_columns", "leading vertex", s.shape());
}

void check_select_cols(const CsrMatrix& a, int64_t rows, const Offsets& row_offsets, const std::vector<vid_t>& cols,
                       const Offsets& col_offsets, const std::vector<float>& weights) {
  check_select_cols_blocks(rows, row_offsets, static_cast<int64_t>(cols.size()), col_offsets,
                           static_cast<int64_t>(weights.size()));
  check_ids_below(cols, a.cols, "select_cols", "column id", a.shape());
}

void check_select_cols_blocks(int64_t rows, const Offsets& row_offsets, int64_t total_cols, const Offsets& col_offsets,
                              int64_t weights) {
  const char* op = "select_cols";
  check_block_offsets(row_offsets, rows, op, "row offsets");
  check_block_offsets(col_offsets, total_cols, op, "column offsets");
  MATSAMP_CHECK(row_offsets.size() == col_offsets.size(), op, ": ", row_offsets.size() - 1, " row blocks but ",
                col_offsets.size() - 1, " column blocks");
  MATSAMP_CHECK(weights == 0 || weights == total_cols, op, ": ", weights, " weights for ", total_cols, " columns");
  check_column_count(total_cols, op);
}

void check_gather(const CsrMatrix& p, const std::vector<vid_t>& ids, const Offsets& offsets) {
  check_ids_below(ids, p.cols, "gather", "id", std::to_string(p.cols) + " columns");
  check_gather_blocks(p.rows, static_cast<int64_t>(ids.size()), offsets);
}

void check_gather_blocks(int64_t p_rows, int64_t ids, const Offsets& offsets) {
  check_block_offsets(offsets, ids, "gather", "offsets");
  const int64_t blocks = static_cast<int64_t>(offsets.size()) - 1;
  MATSAMP_CHECK(p_rows == 1 || p_rows == blocks, "gather: ", blocks, " blocks for ", p_rows, " rows of P");
}

void check_entry_positions(int64_t s_rows, int64_t s_cols, int64_t rows, int64_t columns) {
  MATSAMP_CHECK(rows == s_rows, "entry_positions: ", rows, " row ids for ", s_rows, " rows of the sampled matrix");
  MATSAMP_CHECK(columns == s_cols, "entry_positions: ", columns, " column ids for ", s_cols,
                " columns of the sampled matrix");
}

}  // namespace matsamp
