// Argument checks shared by the CPU ops and the CUDA backend, so that both
// reject bad input with the same message.
#pragma once
#include <cstdint>

#include "ops/ops.h"

namespace matsamp {

// Sample count positive; row offsets start at 0 and never decrease.
void check_sample_keys(const SampleKeys& keys, int64_t s, const char* op);

// Offsets run from 0 to total and never decrease; `what` names them in errors.
void check_block_offsets(const Offsets& offsets, int64_t total, const char* op, const char* what);

// select_cols_blocked's checks, selecting from a matrix of `rows` rows and a's
// columns (a itself, or rows of a); column ids are named against a's shape.
void check_select_cols(const CsrMatrix& a, int64_t rows, const Offsets& row_offsets, const std::vector<vid_t>& cols,
                       const Offsets& col_offsets, const std::vector<float>& weights);

// Backend::draw_columns' frontier: ids in [0, p_cols), offsets from 0 to its
// size, one block per row of P (p_rows), or any number when P is one shared row.
void check_frontier_blocks(int64_t p_rows, int64_t p_cols, const std::vector<vid_t>& frontier, const Offsets& offsets);

}  // namespace matsamp
