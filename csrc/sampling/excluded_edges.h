// The edges each minibatch of a bulk must not sample (link prediction: its own
// positive seed edges, so that the model cannot read the answer), and the mask
// matrices that take them out of the rows a layer samples from.
#pragma once
#include <utility>
#include <vector>

#include "core/csr.h"

namespace matsamp {

// The excluded edges as a keyed matrix (ops.h: select_rows_by_key): block g of
// key_offsets lists minibatch g's sources ascending, once each, and row j of
// targets holds the targets of keys[j] in that minibatch, ascending, once each.
struct ExcludedBySource {
  CsrMatrix targets;
  std::vector<vid_t> keys;
  Offsets key_offsets;
};

struct ExcludedEdges {
  Offsets offsets{0};                          // k + 1: block g holds minibatch g's edges
  std::vector<std::pair<vid_t, vid_t>> edges;  // (source row, target column), sorted per block

  int64_t count() const { return static_cast<int64_t>(offsets.size()) - 1; }
  // Appends the next minibatch's edges (any order; duplicates allowed).
  void add_minibatch(std::vector<std::pair<vid_t, vid_t>> minibatch_edges);
  // The edges keyed by source, over `cols` columns (the graph's vertices).
  ExcludedBySource by_source(int64_t cols) const;

  // M with one row per entry of `rows` (block g of row_offsets belongs to
  // minibatch g): row i holds the excluded targets of rows[i] in its
  // minibatch, as global column ids (cols columns) or, with `columns`, as
  // positions in its block of columns.ids (the layer-wise samplers' local
  // columns; targets not among them are left out). On the host, what the
  // samplers build in their backend: select_rows_by_key of by_source(), then
  // select_cols_blocked by the columns.
  CsrMatrix mask(const std::vector<vid_t>& rows, const Offsets& row_offsets, int64_t cols) const;
  CsrMatrix local_mask(const std::vector<vid_t>& rows, const Offsets& row_offsets, int64_t cols,
                       const std::vector<vid_t>& columns, const Offsets& column_offsets) const;
};

}  // namespace matsamp
