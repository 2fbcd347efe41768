#include "distributed_layerwise.h"

#include <algorithm>
#include <numeric>

#include "ask_owners.h"
#include "graph/transform.h"

namespace matsamp {

namespace {

constexpr int kNormTotalTag = 4102;

DistributedCsr with_local(const DistributedCsr& layout, CsrMatrix local) {
  DistributedCsr d;
  d.blocks = layout.blocks;
  d.block = layout.block;
  d.local = std::move(local);
  return d;
}

// 1ᵀ·B for B distributed by block rows, as spgemm(ones, B) computes it (for each
// column, the values summed in row order), at the columns of this block's vertices:
// every block sends each entry to the block owning its column, in row order, so a
// column's values arrive in the order of the rows, block by block; this block's own
// entries are folded in where its rows come, without being sent. The exchange goes
// in rounds over slices of every block's columns, each sending about 1/rounds of the
// entries, so that its buffers stay a fraction of the block's size.
std::vector<float> column_sums(const DistributedCsr& b, Communicator& column) {
  constexpr int kRounds = 8;
  const RowBlocks& blocks = b.blocks;
  const CsrMatrix& rows = b.local;
  const int me = column.rank(), ranks = column.size();
  // Slice g = q * kRounds + r, the columns block q receives in round r, ascending in g.
  std::vector<int64_t> slice_begin;
  for (int q = 0; q < ranks; ++q)
    for (int r = 0; r < kRounds; ++r)
      slice_begin.push_back(blocks.begin(q) + r * (blocks.end(q) - blocks.begin(q)) / kRounds);
  slice_begin.push_back(blocks.n);
  // Every entry's slice, in entry order: a row's columns ascend, so the slice is
  // looked up only where it changes.
  const auto for_each_entry = [&](auto&& visit) {
    int64_t g = 0;
    for (int64_t e = 0; e < rows.nnz(); ++e) {
      const col_t j = rows.colidx[e];
      if (j < slice_begin[g] || j >= slice_begin[g + 1])
        g = std::upper_bound(slice_begin.begin(), slice_begin.end(), j) - slice_begin.begin() - 1;
      visit(e, static_cast<int>(g));
    }
  };
  std::vector<int64_t> slice_entries(slice_begin.size() - 1, 0);
  for_each_entry([&](int64_t, int g) { ++slice_entries[g]; });

  const vid_t first = static_cast<vid_t>(blocks.begin(me));
  std::vector<float> sums(blocks.end(me) - first, 0.0f);
  const std::vector<int64_t> ones(ranks, 1);
  for (int round = 0; round < kRounds; ++round) {
    std::vector<int64_t> counts(ranks, 0), next(ranks, 0), got_counts(ranks);
    for (int q = 0; q < ranks; ++q)
      if (q != me) counts[q] = slice_entries[q * kRounds + round];
    for (int q = 1; q < ranks; ++q) next[q] = next[q - 1] + counts[q - 1];
    std::vector<col_t> cols(next.back() + counts.back());
    std::vector<float> values(cols.size());
    for_each_entry([&](int64_t e, int g) {
      const int owner = g / kRounds;
      if (g % kRounds != round || owner == me) return;
      const int64_t at = next[owner]++;
      cols[at] = rows.colidx[e];
      values[at] = 1.0f * rows.values[e];
    });
    column.all_to_allv(counts.data(), ones, got_counts.data(), ones, DataType::int64);
    const int64_t got = std::accumulate(got_counts.begin(), got_counts.end(), int64_t{0});
    std::vector<col_t> got_cols(got);
    std::vector<float> got_values(got);
    column.all_to_allv(cols.data(), counts, got_cols.data(), got_counts, DataType::int32);
    column.all_to_allv(values.data(), counts, got_values.data(), got_counts, DataType::float32);
    int64_t at = 0;
    const auto fold_received = [&](int q) {
      for (const int64_t end = at + got_counts[q]; at < end; ++at) sums[got_cols[at] - first] += got_values[at];
    };
    for (int q = 0; q < me; ++q) fold_received(q);
    const int own = me * kRounds + round;
    for_each_entry([&](int64_t e, int g) {
      if (g == own) sums[rows.colidx[e] - first] += 1.0f * rows.values[e];
    });
    for (int q = me + 1; q < ranks; ++q) fold_received(q);
  }
  return sums;
}

}  // namespace

DistributedLayerWise prepare_distributed_layerwise(const DistributedCsr& adj, ProcessGrid& grid) {
  MATSAMP_CHECK(adj.rows() == adj.cols(), "layer-wise sampling: adjacency is not square (", adj.rows(), " x ",
                adj.cols(), ")");
  Communicator& column = grid.col_comm();  // holds every block row once, in order
  const std::vector<double> own = gcn_inverse_sqrt_degrees(adj.local);
  const std::vector<col_t> outside = outside_columns(adj.local, adj.first_row());
  // The other columns' degrees, each asked of the block that holds its row: sized by
  // the columns this block touches rather than n.
  const std::vector<double> fetched = ask_owners<double>(
      column, adj.blocks, outside, 1, [&](col_t c, double* out) { *out = own[c - adj.first_row()]; });
  DistributedLayerWise m;
  m.normalized = with_local(adj, gcn_normalize_rows(adj.local, adj.first_row(), own, outside, fetched));
  m.squared = with_local(adj, square_values(m.normalized.local));
  return m;
}

std::vector<float> distributed_column_norms(const DistributedLayerWise& m, ProcessGrid& grid) {
  Communicator& column = grid.col_comm();
  std::vector<float> norms = column_sums(m.squared, column);
  // normalize_rows' sum, in column order: each block continues the previous block's.
  double sum = 0;
  const int me = column.rank(), last = column.size() - 1;
  if (me > 0) column.recv(&sum, 1, DataType::float64, me - 1, kNormTotalTag);
  for (float v : norms) sum += v;
  if (me < last) column.send(&sum, 1, DataType::float64, me + 1, kNormTotalTag);
  column.broadcast(&sum, 1, DataType::float64, last);
  if (sum != 0)
    for (float& v : norms) v = static_cast<float>(v / sum);
  return norms;
}

}  // namespace matsamp
