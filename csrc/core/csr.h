// Compressed sparse row matrices: int64 row pointers, int32 column ids, float values.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "core/error.h"

namespace matsamp {

using vid_t = int64_t;  // vertex ids in public APIs
using col_t = int32_t;  // column ids inside a CSR (n < 2^31, checked)

// Rows of a stacked matrix (or ids of a stacked list) that belong to minibatch g:
// [offsets[g], offsets[g+1]). Kept on the host: k + 1 numbers.
using Offsets = std::vector<int64_t>;

struct CsrMatrix {
  int64_t rows = 0;
  int64_t cols = 0;
  std::vector<int64_t> rowptr{0};
  std::vector<col_t> colidx;
  std::vector<float> values;

  CsrMatrix() = default;
  CsrMatrix(int64_t rows_, int64_t cols_) : rows(rows_), cols(cols_), rowptr(rows_ + 1, 0) {}

  int64_t nnz() const { return static_cast<int64_t>(colidx.size()); }
  int64_t row_begin(int64_t r) const { return rowptr[r]; }
  int64_t row_end(int64_t r) const { return rowptr[r + 1]; }
  int64_t row_nnz(int64_t r) const { return rowptr[r + 1] - rowptr[r]; }
  // The row of stored entry e (a search in rowptr; empty rows skipped).
  int64_t row_of_entry(int64_t e) const {
    return std::upper_bound(rowptr.begin(), rowptr.end(), e) - rowptr.begin() - 1;
  }
  std::string shape() const;  // "rows x cols (nnz nonzeros)", for error messages

  bool operator==(const CsrMatrix& o) const {
    return rows == o.rows && cols == o.cols && rowptr == o.rowptr && colidx == o.colidx && values == o.values;
  }
  bool operator!=(const CsrMatrix& o) const { return !(*this == o); }
};

// Throws unless n fits a column id.
void check_column_count(int64_t cols, const char* what);

// k x cols with a 1 at every distinct column that row_ids(g, row) appends to
// `row` for row g (any order, repeats allowed): a selection of vertices per row.
CsrMatrix indicator_rows(int64_t k, int64_t cols,
                         const std::function<void(int64_t g, std::vector<vid_t>& row)>& row_ids);

// Structural checks (monotone row pointers, column ids in range, sorted unique
// columns per row, finite non-negative values). Throws with `what` as context.
void validate(const CsrMatrix& m, const std::string& what);

// Builds a CSR from (row, col, value) triples; sorts, and sums duplicates (in
// double, in input order).
// With `origin`, (*origin)[e] is the triple entry e came from: the first in
// input order of the triples summed into it (what carries per-edge data along).
CsrMatrix csr_from_triples(int64_t rows, int64_t cols, std::vector<int64_t> row_ids, std::vector<int64_t> col_ids,
                           std::vector<float> vals, std::vector<int64_t>* origin = nullptr);

// csr_from_triples over borrowed id arrays (int32_t or int64_t, m entries each;
// weights null: every triple weighs 1), as PyG's edge_index gives them: values
// only with_values. Needs no scratch beyond m positions and O(rows).
template <class Id>
CsrMatrix csr_from_edges(int64_t rows, int64_t cols, const Id* row_ids, const Id* col_ids, int64_t m,
                         const float* weights, bool with_values, std::vector<int64_t>* origin);

// With `origin`, (*origin)[e] is the entry of m that entry e of the transpose is.
CsrMatrix transpose(const CsrMatrix& m, std::vector<int64_t>* origin = nullptr);
// Whether m is square with an entry (v, u) for every (u, v), values aside.
bool is_pattern_symmetric(const CsrMatrix& m);

}  // namespace matsamp
