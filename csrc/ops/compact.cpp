// Per-minibatch column relabelling: the column extraction of node-wise samplers.
//
// Each thread keeps a dense vertex -> local id table (reset after each block),
// so relabelling costs O(1) per entry. The new vertices are put in order by
// sorting them, or, when they are many, by reading them off a bitmap over all
// vertices (one pass over n/64 words instead of an O(m log m) sort).
#include <algorithm>

#include "ops/op_checks.h"
#include "ops/ops.h"
#include "ops/sort_marked.h"
#include "ops/sorted_row.h"

namespace matsamp {

namespace {

constexpr col_t kUnseen = -1;
constexpr col_t kNew = -2;

}  // namespace

CompactResult compact_columns(CsrMatrix s, const Offsets& row_offsets, const std::vector<vid_t>& leading,
                              const Offsets& leading_offsets) {
  check_compact_columns(s, row_offsets, leading, leading_offsets);
  const int64_t blocks = static_cast<int64_t>(row_offsets.size()) - 1;

  // Pass 1, per block: the vertex list (leading, then new vertices ascending);
  // each entry's column id becomes its local column, in place.
  std::vector<std::vector<vid_t>> lists(blocks);
  int64_t repeated_leader = -1;  // exceptions must not leave the parallel region
#pragma omp parallel
  {
    std::vector<col_t> table(s.cols, kUnseen);
    std::vector<uint64_t> new_marks((s.cols + 63) / 64, 0);
#pragma omp for schedule(dynamic, 1)
    for (int64_t g = 0; g < blocks; ++g) {
      std::vector<vid_t>& list = lists[g];
      list.assign(leading.begin() + leading_offsets[g], leading.begin() + leading_offsets[g + 1]);
      for (size_t j = 0; j < list.size(); ++j) {
        if (table[list[j]] != kUnseen) {
#pragma omp critical
          repeated_leader = list[j];
        }
        table[list[j]] = static_cast<col_t>(j);
      }
      const size_t lead = list.size();
      const int64_t e0 = s.rowptr[row_offsets[g]], e1 = s.rowptr[row_offsets[g + 1]];
      for (int64_t e = e0; e < e1; ++e)
        if (table[s.colidx[e]] == kUnseen) {
          table[s.colidx[e]] = kNew;
          list.push_back(s.colidx[e]);
          new_marks[s.colidx[e] >> 6] |= uint64_t{1} << (s.colidx[e] & 63);
        }
      sort_marked(list, lead, new_marks.data(), new_marks.size());
      for (size_t j = lead; j < list.size(); ++j) table[list[j]] = static_cast<col_t>(j);
      for (int64_t e = e0; e < e1; ++e) s.colidx[e] = table[s.colidx[e]];
      for (vid_t v : list) table[v] = kUnseen;
    }
  }

  MATSAMP_CHECK(repeated_leader < 0, "compact_columns: vertex ", repeated_leader,
                " appears twice among the leading vertices of one minibatch");

  CompactResult result;
  result.col_offsets.assign(blocks + 1, 0);
  for (int64_t g = 0; g < blocks; ++g)
    result.col_offsets[g + 1] = result.col_offsets[g] + static_cast<int64_t>(lists[g].size());
  check_column_count(result.col_offsets.back(), "compact_columns");
  result.vertices.resize(result.col_offsets.back());
  CsrMatrix& adj = result.adj;
  adj = std::move(s);
  adj.cols = result.col_offsets.back();
  if (adj.values.empty()) adj.values.assign(adj.colidx.size(), 1.0f);

    // Pass 2, per block: stacked column ids, each row sorted by its new ids.
#pragma omp parallel
  {
    RowEntries row;
#pragma omp for schedule(dynamic, 1)
    for (int64_t g = 0; g < blocks; ++g) {
      std::copy(lists[g].begin(), lists[g].end(), result.vertices.begin() + result.col_offsets[g]);
      const col_t base = static_cast<col_t>(result.col_offsets[g]);
      for (int64_t r = row_offsets[g]; r < row_offsets[g + 1]; ++r) {
        row.clear();
        for (int64_t e = adj.rowptr[r]; e < adj.rowptr[r + 1]; ++e)
          row.push_back({static_cast<col_t>(base + adj.colidx[e]), adj.values[e]});
        write_sorted_row(row, adj, r);
      }
    }
  }
  return result;
}

}  // namespace matsamp
