#include "distributed_layerwise.h"

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
  const auto slice_of = [&](col_t j, int* owner) {  // the round that sends column j
    *owner = blocks.owner(j);
    const int64_t first = blocks.begin(*owner), size = blocks.end(*owner) - first;
    return static_cast<int>((j - first) * kRounds / size);
  };
  const vid_t first = static_cast<vid_t>(blocks.begin(me));
  std::vector<float> sums(blocks.end(me) - first, 0.0f);
  const std::vector<int64_t> ones(ranks, 1);
  for (int round = 0; round < kRounds; ++round) {
    std::vector<int64_t> counts(ranks, 0), next(ranks, 0), got_counts(ranks);
    int owner = 0;
    for (col_t j : rows.colidx)
      if (slice_of(j, &owner) == round && owner != me) ++counts[owner];
    for (int q = 1; q < ranks; ++q) next[q] = next[q - 1] + counts[q - 1];
    std::vector<col_t> cols(next.back() + counts.back());
    std::vector<float> values(cols.size());
    for (int64_t e = 0; e < rows.nnz(); ++e)
      if (slice_of(rows.colidx[e], &owner) == round && owner != me) {
        const int64_t at = next[owner]++;
        cols[at] = rows.colidx[e];
        values[at] = 1.0f * rows.values[e];
      }
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
    for (int64_t e = 0; e < rows.nnz(); ++e)
      if (slice_of(rows.colidx[e], &owner) == round && owner == me)
        sums[rows.colidx[e] - first] += 1.0f * rows.values[e];
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
