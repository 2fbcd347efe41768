#include "sampling/excluded_edges.h"

#include <algorithm>

#include "core/error.h"

namespace matsamp {

namespace {

// Row i's excluded targets in its minibatch's block, through `to_column`
// (which returns -1 for a target to leave out); rows in ascending column order.
template <class ToColumn>
CsrMatrix build_mask(const ExcludedEdges& excluded, const std::vector<vid_t>& rows, const Offsets& row_offsets,
                     int64_t cols, ToColumn to_column) {
  MATSAMP_CHECK(row_offsets.size() == excluded.offsets.size() &&
                    row_offsets.back() == static_cast<int64_t>(rows.size()),
                "excluded edges: ", excluded.count(), " minibatches, the rows have ", row_offsets.size() - 1);
  CsrMatrix m(static_cast<int64_t>(rows.size()), cols);
  std::vector<col_t> row_columns;
  for (int64_t g = 0; g + 1 < static_cast<int64_t>(row_offsets.size()); ++g) {
    const auto begin = excluded.edges.begin() + excluded.offsets[g],
               end = excluded.edges.begin() + excluded.offsets[g + 1];
    for (int64_t i = row_offsets[g]; i < row_offsets[g + 1]; ++i) {
      row_columns.clear();
      const auto first = std::lower_bound(begin, end, std::make_pair(rows[i], vid_t{-1}));
      for (auto e = first; e != end && e->first == rows[i]; ++e) {
        const int64_t c = to_column(g, e->second);
        if (c >= 0) row_columns.push_back(static_cast<col_t>(c));
      }
      std::sort(row_columns.begin(), row_columns.end());
      row_columns.erase(std::unique(row_columns.begin(), row_columns.end()), row_columns.end());
      m.colidx.insert(m.colidx.end(), row_columns.begin(), row_columns.end());
      m.rowptr[i + 1] = static_cast<int64_t>(m.colidx.size());
    }
  }
  m.values.assign(m.colidx.size(), 1.0f);
  return m;
}

}  // namespace

void ExcludedEdges::add_minibatch(std::vector<std::pair<vid_t, vid_t>> minibatch_edges) {
  std::sort(minibatch_edges.begin(), minibatch_edges.end());
  edges.insert(edges.end(), minibatch_edges.begin(), minibatch_edges.end());
  offsets.push_back(static_cast<int64_t>(edges.size()));
}

CsrMatrix ExcludedEdges::mask(const std::vector<vid_t>& rows, const Offsets& row_offsets, int64_t cols) const {
  return build_mask(*this, rows, row_offsets, cols, [](int64_t, vid_t target) { return target; });
}

CsrMatrix ExcludedEdges::local_mask(const std::vector<vid_t>& rows, const Offsets& row_offsets,
                                    const std::vector<vid_t>& columns, const Offsets& column_offsets) const {
  // Block g's columns, sorted with their positions, to find a target's position.
  std::vector<std::vector<std::pair<vid_t, int64_t>>> sorted(column_offsets.size() - 1);
  for (size_t g = 0; g + 1 < column_offsets.size(); ++g) {
    for (int64_t j = column_offsets[g]; j < column_offsets[g + 1]; ++j) sorted[g].emplace_back(columns[j], j);
    std::sort(sorted[g].begin(), sorted[g].end());
  }
  return build_mask(*this, rows, row_offsets, column_offsets.back(), [&](int64_t g, vid_t target) -> int64_t {
    const auto& block = sorted[g];
    const auto at = std::lower_bound(block.begin(), block.end(), std::make_pair(target, int64_t{-1}));
    return at != block.end() && at->first == target ? at->second : -1;
  });
}

}  // namespace matsamp
