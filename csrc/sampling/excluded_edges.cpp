#include "sampling/excluded_edges.h"

#include <algorithm>

#include "core/error.h"
#include "ops/ops.h"

namespace matsamp {

void ExcludedEdges::add_minibatch(std::vector<std::pair<vid_t, vid_t>> minibatch_edges) {
  std::sort(minibatch_edges.begin(), minibatch_edges.end());
  edges.insert(edges.end(), minibatch_edges.begin(), minibatch_edges.end());
  offsets.push_back(static_cast<int64_t>(edges.size()));
}

ExcludedBySource ExcludedEdges::by_source(int64_t cols) const {
  ExcludedBySource out{CsrMatrix(0, cols), {}, {0}};
  CsrMatrix& m = out.targets;
  for (int64_t g = 0; g < count(); ++g) {
    // Edges are sorted per block: a source's targets are one ascending run.
    for (int64_t e = offsets[g]; e < offsets[g + 1]; ++e) {
      const auto [source, target] = edges[e];
      MATSAMP_CHECK(target >= 0 && target < cols, "excluded edge (", source, ", ", target, ") of minibatch ", g,
                    " is out of range for ", cols, " vertices");
      const bool new_source = e == offsets[g] || edges[e - 1].first != source;
      if (new_source) {
        out.keys.push_back(source);
        m.rowptr.push_back(m.rowptr.back());
        ++m.rows;
      } else if (edges[e - 1].second == target) {
        continue;  // a repeated edge
      }
      m.colidx.push_back(static_cast<col_t>(target));
      ++m.rowptr.back();
    }
    out.key_offsets.push_back(static_cast<int64_t>(out.keys.size()));
  }
  m.values.assign(m.colidx.size(), 1.0f);
  return out;
}

CsrMatrix ExcludedEdges::mask(const std::vector<vid_t>& rows, const Offsets& row_offsets, int64_t cols) const {
  const ExcludedBySource keyed = by_source(cols);
  return select_rows_by_key(keyed.targets, keyed.keys, keyed.key_offsets, rows, row_offsets);
}

CsrMatrix ExcludedEdges::local_mask(const std::vector<vid_t>& rows, const Offsets& row_offsets, int64_t cols,
                                    const std::vector<vid_t>& columns, const Offsets& column_offsets) const {
  return select_cols_blocked(mask(rows, row_offsets, cols), row_offsets, columns, column_offsets);
}

}  // namespace matsamp
