// Rows whose column ids come out of order (after relabelling or selection)
// are gathered as (column, value) pairs and written back sorted.
#pragma once
#include <algorithm>
#include <utility>
#include <vector>

#include "core/csr.h"

namespace matsamp {

using RowEntries = std::vector<std::pair<col_t, float>>;

// Sorts `row` by column and writes it at row r of `out` (whose row pointers are set).
inline void write_sorted_row(RowEntries& row, CsrMatrix& out, int64_t r) {
  std::sort(row.begin(), row.end());
  for (size_t i = 0; i < row.size(); ++i) {
    out.colidx[out.rowptr[r] + i] = row[i].first;
    out.values[out.rowptr[r] + i] = row[i].second;
  }
}

}  // namespace matsamp
