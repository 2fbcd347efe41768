// Per-minibatch column relabelling: the column extraction of node-wise samplers
// (of one sampled matrix, or of several sharing their blocks' vertex lists: the
// relations of a heterogeneous graph into one source type).
//
// Each thread keeps a vertex -> local id index (ops/vertex_index.h) for one
// block at a time: dense over all vertices when the call touches a good share
// of them (O(1) per entry, new vertices read off a bitmap in order), a hash table
// sized by the block when the graph is far larger than the call (memory bounded
// by the bulk, not by n).
#include <algorithm>
#include <optional>

#include "ops/op_checks.h"
#include "ops/ops.h"
#include "ops/sorted_row.h"
#include "ops/vertex_index.h"
#include "util/parallel.h"

namespace matsamp {

namespace {

constexpr col_t kNew = -2;

// Pass 1 for block g: its vertex list (leading, then the new vertices of any part
// ascending), each entry's column id made its local column in place. Returns a
// leading vertex that appears twice, or -1.
template <class Index>
vid_t relabel_block(std::vector<CsrMatrix>& parts, const std::vector<Offsets>& row_offsets,
                    const std::vector<vid_t>& leading, const Offsets& leading_offsets, int64_t g, Index& index,
                    std::vector<vid_t>& list) {
  list.assign(leading.begin() + leading_offsets[g], leading.begin() + leading_offsets[g + 1]);
  size_t work = list.size();
  for (size_t i = 0; i < parts.size(); ++i)
    work += parts[i].rowptr[row_offsets[i][g + 1]] - parts[i].rowptr[row_offsets[i][g]];
  index.start(work);
  vid_t repeated = -1;
  for (size_t j = 0; j < list.size(); ++j) {
    if (index.find(list[j]) != kUnseenVertex) repeated = list[j];
    index.put(list[j], static_cast<col_t>(j));
  }
  const size_t lead = list.size();
  for (size_t i = 0; i < parts.size(); ++i) {
    const CsrMatrix& s = parts[i];
    for (int64_t e = s.rowptr[row_offsets[i][g]]; e < s.rowptr[row_offsets[i][g + 1]]; ++e)
      if (index.find(s.colidx[e]) == kUnseenVertex) {
        index.put(s.colidx[e], kNew);
        list.push_back(s.colidx[e]);
        index.mark_new(s.colidx[e]);
      }
  }
  index.sort_new(list, lead);
  for (size_t j = lead; j < list.size(); ++j) index.put(list[j], static_cast<col_t>(j));
  for (size_t i = 0; i < parts.size(); ++i) {
    CsrMatrix& s = parts[i];
    for (int64_t e = s.rowptr[row_offsets[i][g]]; e < s.rowptr[row_offsets[i][g + 1]]; ++e)
      s.colidx[e] = index.find(s.colidx[e]);
  }
  index.clear(list);
  return repeated;
}

// The dense index pays 4n bytes per thread: worth it while the call's entries
// are at least a 32nd of n.
bool dense_index_pays(int64_t n, const std::vector<CsrMatrix>& parts, size_t leading) {
  int64_t work = static_cast<int64_t>(leading);
  for (const CsrMatrix& s : parts) work += s.nnz();
  return n <= 32 * work;
}

// Row r of adj (block g, columns local to it) written in its new column order,
// carried (when given) moving with the entries.
void write_row_in_new_order(CsrMatrix& adj, int64_t r, col_t base, RowEntries& row, std::vector<vid_t>* carried,
                            std::vector<std::pair<col_t, int64_t>>& order, std::vector<float>& values,
                            std::vector<vid_t>& moved) {
  const int64_t begin = adj.rowptr[r], end = adj.rowptr[r + 1];
  if (!carried) {
    row.clear();
    for (int64_t e = begin; e < end; ++e) row.push_back({static_cast<col_t>(base + adj.colidx[e]), adj.values[e]});
    write_sorted_row(row, adj, r);
    return;
  }
  order.clear();
  for (int64_t e = begin; e < end; ++e) order.emplace_back(static_cast<col_t>(base + adj.colidx[e]), e);
  std::sort(order.begin(), order.end());
  values.assign(adj.values.begin() + begin, adj.values.begin() + end);
  moved.assign(carried->begin() + begin, carried->begin() + end);
  for (size_t j = 0; j < order.size(); ++j) {
    adj.colidx[begin + j] = order[j].first;
    adj.values[begin + j] = values[order[j].second - begin];
    (*carried)[begin + j] = moved[order[j].second - begin];
  }
}

}  // namespace

SharedCompactResult compact_columns_shared(std::vector<CsrMatrix> parts, const std::vector<Offsets>& row_offsets,
                                           const std::vector<vid_t>& leading, const Offsets& leading_offsets,
                                           const std::vector<std::vector<vid_t>*>& carried) {
  MATSAMP_CHECK(!parts.empty() && parts.size() == row_offsets.size(), "compact_columns: ", parts.size(),
                " matrices and ", row_offsets.size(), " row offset lists (one each, at least one)");
  for (size_t i = 0; i < parts.size(); ++i) {
    check_compact_columns(parts[i], row_offsets[i], leading, leading_offsets);
    MATSAMP_CHECK(parts[i].cols == parts[0].cols, "compact_columns: the matrices' columns differ (", parts[0].cols,
                  " and ", parts[i].cols, "): they share one vertex list");
  }
  const int64_t blocks = static_cast<int64_t>(leading_offsets.size()) - 1;
  const int64_t n = parts[0].cols;

  // Pass 1, per block: the vertex list and local column ids.
  std::vector<std::vector<vid_t>> lists(blocks);
  int64_t repeated_leader = -1;  // exceptions must not leave the parallel region
  const bool dense = dense_index_pays(n, parts, leading.size());
  int64_t entries = static_cast<int64_t>(leading.size());
  for (const CsrMatrix& part : parts) entries += part.nnz();
#pragma omp parallel num_threads(threads_for(entries))
  {
    std::optional<DenseVertexIndex> dense_index;
    HashVertexIndex hash_index;
#pragma omp for schedule(dynamic, 1)
    for (int64_t g = 0; g < blocks; ++g) {
      if (dense && !dense_index) dense_index.emplace(n);  // made by the threads that get a block
      const vid_t repeated =
          dense ? relabel_block(parts, row_offsets, leading, leading_offsets, g, *dense_index, lists[g])
                : relabel_block(parts, row_offsets, leading, leading_offsets, g, hash_index, lists[g]);
      if (repeated >= 0) {
#pragma omp critical
        repeated_leader = repeated;
      }
    }
  }

  MATSAMP_CHECK(repeated_leader < 0, "compact_columns: vertex ", repeated_leader,
                " appears twice among the leading vertices of one minibatch");

  MATSAMP_CHECK(carried.empty() || carried.size() == parts.size(), "compact_columns: carried values for ",
                carried.size(), " matrices, not ", parts.size());
  for (size_t i = 0; i < carried.size(); ++i)
    MATSAMP_CHECK(!carried[i] || static_cast<int64_t>(carried[i]->size()) == parts[i].nnz(),
                  "compact_columns: ", carried[i] ? carried[i]->size() : 0, " carried values for ", parts[i].nnz(),
                  " entries");
  SharedCompactResult result;
  result.col_offsets.assign(blocks + 1, 0);
  for (int64_t g = 0; g < blocks; ++g)
    result.col_offsets[g + 1] = result.col_offsets[g] + static_cast<int64_t>(lists[g].size());
  check_column_count(result.col_offsets.back(), "compact_columns");
  result.vertices.resize(result.col_offsets.back());
  for (int64_t g = 0; g < blocks; ++g)
    std::copy(lists[g].begin(), lists[g].end(), result.vertices.begin() + result.col_offsets[g]);
  result.adj = std::move(parts);

  // Pass 2, per block: stacked column ids, each row sorted by its new ids.
  for (size_t i = 0; i < result.adj.size(); ++i) {
    CsrMatrix& adj = result.adj[i];
    std::vector<vid_t>* moving = carried.empty() ? nullptr : carried[i];
    adj.cols = result.col_offsets.back();
    if (adj.values.empty()) adj.values.assign(adj.colidx.size(), 1.0f);
#pragma omp parallel num_threads(threads_for(adj.rows + adj.nnz()))
    {
      RowEntries row;
      std::vector<std::pair<col_t, int64_t>> order;
      std::vector<float> values;
      std::vector<vid_t> moved;
#pragma omp for schedule(dynamic, 1)
      for (int64_t g = 0; g < blocks; ++g) {
        const col_t base = static_cast<col_t>(result.col_offsets[g]);
        for (int64_t r = row_offsets[i][g]; r < row_offsets[i][g + 1]; ++r)
          write_row_in_new_order(adj, r, base, row, moving, order, values, moved);
      }
    }
  }
  return result;
}

CompactResult compact_columns(CsrMatrix s, const Offsets& row_offsets, const std::vector<vid_t>& leading,
                              const Offsets& leading_offsets, std::vector<vid_t>* carried) {
  std::vector<CsrMatrix> parts;
  parts.push_back(std::move(s));
  SharedCompactResult shared =
      compact_columns_shared(std::move(parts), {row_offsets}, leading, leading_offsets, {carried});
  return {std::move(shared.adj[0]), std::move(shared.vertices), std::move(shared.col_offsets)};
}

}  // namespace matsamp
