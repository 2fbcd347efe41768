// Per-minibatch column relabelling: the column extraction of node-wise samplers.
#include <algorithm>

#include "ops/ops.h"

namespace matsamp {

CompactResult compact_columns(const CsrMatrix& s, const Offsets& row_offsets,
                              const std::vector<vid_t>& leading, const Offsets& leading_offsets) {
  const int64_t blocks = static_cast<int64_t>(row_offsets.size()) - 1;
  MATSAMP_CHECK(blocks >= 0 && row_offsets.front() == 0 && row_offsets.back() == s.rows,
                "compact_columns: row offsets must run from 0 to ", s.rows);
  MATSAMP_CHECK(leading_offsets.size() == row_offsets.size() &&
                    leading_offsets.back() == static_cast<int64_t>(leading.size()),
                "compact_columns: ", leading_offsets.size() - 1, " leading blocks for ", blocks,
                " row blocks");

  // Per block: the vertex list, and a sorted (vertex, local id) map to relabel with.
  std::vector<std::vector<vid_t>> lists(blocks);
  std::vector<std::vector<std::pair<vid_t, col_t>>> maps(blocks);
#pragma omp parallel for schedule(dynamic, 1)
  for (int64_t g = 0; g < blocks; ++g) {
    std::vector<vid_t>& list = lists[g];
    auto& map = maps[g];
    list.assign(leading.begin() + leading_offsets[g], leading.begin() + leading_offsets[g + 1]);
    for (size_t j = 0; j < list.size(); ++j) map.push_back({list[j], static_cast<col_t>(j)});
    std::sort(map.begin(), map.end());
    std::vector<vid_t> others(s.colidx.begin() + s.rowptr[row_offsets[g]],
                              s.colidx.begin() + s.rowptr[row_offsets[g + 1]]);
    std::sort(others.begin(), others.end());
    others.erase(std::unique(others.begin(), others.end()), others.end());
    const size_t lead = map.size();
    for (vid_t v : others) {
      auto hit = std::lower_bound(map.begin(), map.begin() + lead, std::pair<vid_t, col_t>{v, 0});
      if (hit != map.begin() + lead && hit->first == v) continue;
      map.push_back({v, static_cast<col_t>(list.size())});
      list.push_back(v);
    }
    std::inplace_merge(map.begin(), map.begin() + lead, map.end());
  }

  CompactResult result;
  result.col_offsets.assign(blocks + 1, 0);
  for (int64_t g = 0; g < blocks; ++g)
    result.col_offsets[g + 1] = result.col_offsets[g] + static_cast<int64_t>(lists[g].size());
  check_column_count(result.col_offsets.back(), "compact_columns");
  result.vertices.resize(result.col_offsets.back());
  CsrMatrix& adj = result.adj;
  adj = CsrMatrix(s.rows, result.col_offsets.back());
  adj.rowptr = s.rowptr;
  adj.colidx.resize(s.nnz());
  adj.values = s.values.empty() ? std::vector<float>(s.nnz(), 1.0f) : s.values;

#pragma omp parallel for schedule(dynamic, 1)
  for (int64_t g = 0; g < blocks; ++g) {
    std::copy(lists[g].begin(), lists[g].end(), result.vertices.begin() + result.col_offsets[g]);
    const auto& map = maps[g];
    for (int64_t r = row_offsets[g]; r < row_offsets[g + 1]; ++r) {
      // Relabelled columns are no longer sorted: sort the row's (column, value) pairs.
      std::vector<std::pair<col_t, float>> row;
      for (int64_t e = s.rowptr[r]; e < s.rowptr[r + 1]; ++e) {
        auto hit = std::lower_bound(map.begin(), map.end(), std::pair<vid_t, col_t>{s.colidx[e], 0});
        row.push_back({static_cast<col_t>(result.col_offsets[g] + hit->second), adj.values[e]});
      }
      std::sort(row.begin(), row.end());
      for (size_t i = 0; i < row.size(); ++i) {
        adj.colidx[s.rowptr[r] + i] = row[i].first;
        adj.values[s.rowptr[r] + i] = row[i].second;
      }
    }
  }
  return result;
}

}  // namespace matsamp
