// Argument checks shared by the CPU ops and the CUDA backend, so that both
// reject bad input with the same message.
#pragma once
#include <cstdint>
#include <string>

#include "ops/ops.h"

namespace matsamp {

// Sample count positive; row offsets start at 0 and never decrease.
void check_sample_keys(const SampleKeys& keys, int64_t s, const char* op);

// Offsets run from 0 to total and never decrease; `what` names them in errors.
void check_block_offsets(const Offsets& offsets, int64_t total, const char* op, const char* what);
// pad_row_blocks' blocks: the matrix's rows in row_offsets, as many padded
// blocks, each at least as long as its block of rows.
void check_pad_row_blocks(int64_t rows, const Offsets& row_offsets, const Offsets& padded_offsets);

// Every id in [0, bound), else "op: what ID out of range for of".
void check_ids_below(const std::vector<vid_t>& ids, int64_t bound, const char* op, const char* what,
                     const std::string& of);

// sequence_runs' runs: one start ≥ 0 per run, offsets from 0 that never
// decrease. Returns a bound of the ids (one past the largest).
int64_t check_sequence_runs(const std::vector<int64_t>& starts, const Offsets& run_offsets);

// entry_positions' shapes: one row id per row and one column id per column of s.
void check_entry_positions(int64_t s_rows, int64_t s_cols, int64_t rows, int64_t columns);

// Every id names a row of a; `op` names the op in errors.
void check_row_ids(const CsrMatrix& a, const std::vector<vid_t>& rows, const char* op);

// sample_rows' count and keys: s and the keys valid, one keyed row per selected row.
void check_sample_rows(int64_t rows, int64_t s, const SampleKeys& keys, const char* op = "sample_rows");

// its_sample's: s and the keys valid, P with values, and one row per keyed row
// or one row shared by all.
void check_its_sample(const CsrMatrix& p, int64_t s, const SampleKeys& keys);
// The last of those for a P known by its shape (one formed on the device).
void check_its_sample_rows(int64_t rows, int64_t cols, int64_t nnz, const SampleKeys& keys);

// block_indicator's counts: offsets from 0 to the number of ids, cols a column count.
void check_block_indicator(int64_t ids, const Offsets& offsets, int64_t cols);

// select_rows_by_key's counts: one key block per row block, the key offsets
// from 0 to M's rows, the row offsets from 0 to the number of rows.
void check_select_rows_by_key(int64_t matrix_rows, int64_t keys, const Offsets& key_offsets, int64_t rows,
                              const Offsets& row_offsets);

// compact_columns' blocks: row offsets from 0 to rows, one leading block per row block.
void check_compact_blocks(int64_t rows, const Offsets& row_offsets, int64_t leading_count,
                          const Offsets& leading_offsets);
// compact_columns' arguments: the blocks, and every leading vertex a column of S.
void check_compact_columns(const CsrMatrix& s, const Offsets& row_offsets, const std::vector<vid_t>& leading,
                           const Offsets& leading_offsets);

// select_cols_blocked's checks, selecting from a matrix of `rows` rows and a's
// columns (a itself, or rows of a); column ids are named against a's shape.
void check_select_cols(const CsrMatrix& a, int64_t rows, const Offsets& row_offsets, const std::vector<vid_t>& cols,
                       const Offsets& col_offsets, const std::vector<float>& weights);
// Those of them that need only the counts (weights: 0 when there are none).
void check_select_cols_blocks(int64_t rows, const Offsets& row_offsets, int64_t total_cols, const Offsets& col_offsets,
                              int64_t weights);

// gather's: ids in [0, p.cols), offsets from 0 to their count, one block per row
// of P, or any number when P is one shared row.
void check_gather(const CsrMatrix& p, const std::vector<vid_t>& ids, const Offsets& offsets);
// Those of them that need only the counts.
void check_gather_blocks(int64_t p_rows, int64_t ids, const Offsets& offsets);

}  // namespace matsamp
