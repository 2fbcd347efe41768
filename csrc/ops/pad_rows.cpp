// pad_row_blocks: a matrix's row blocks placed at the ends of larger blocks,
// the rows before them empty (ops.h).
#include <algorithm>

#include "ops/op_checks.h"
#include "ops/ops.h"

namespace matsamp {

CsrMatrix pad_row_blocks(CsrMatrix m, const Offsets& row_offsets, const Offsets& padded_offsets) {
  check_pad_row_blocks(m.rows, row_offsets, padded_offsets);
  CsrMatrix out(padded_offsets.back(), m.cols);
  for (size_t g = 0; g + 1 < row_offsets.size(); ++g) {
    const int64_t pad = padded_offsets[g + 1] - padded_offsets[g] - (row_offsets[g + 1] - row_offsets[g]);
    int64_t* rowptr = out.rowptr.data() + padded_offsets[g] + 1;
    std::fill_n(rowptr, pad, m.rowptr[row_offsets[g]]);
    std::copy(m.rowptr.begin() + row_offsets[g] + 1, m.rowptr.begin() + row_offsets[g + 1] + 1, rowptr + pad);
  }
  out.colidx = std::move(m.colidx);
  out.values = std::move(m.values);
  return out;
}

}  // namespace matsamp
