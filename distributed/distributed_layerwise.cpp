#include "distributed_layerwise.h"

#include "ask_owners.h"
#include "graph/transform.h"

namespace matsamp {

namespace {

constexpr int kColumnSumTag = 4102;

DistributedCsr with_local(const DistributedCsr& layout, CsrMatrix local) {
  DistributedCsr d;
  d.blocks = layout.blocks;
  d.block = layout.block;
  d.local = std::move(local);
  return d;
}

// 1ᵀ·B for B distributed by block rows, as spgemm(ones, B) computes it: for each
// column, the values summed in row order. Block q continues the sums of blocks < q.
CsrMatrix column_sums(const DistributedCsr& b, Communicator& column) {
  const int64_t n = b.cols();
  std::vector<float> sums(n, 0.0f);
  std::vector<int8_t> touched(n, 0);  // spgemm keeps explicit zeros: track structure apart
  const int me = column.rank(), last = column.size() - 1;
  if (me > 0) {
    column.recv(sums.data(), n, DataType::float32, me - 1, kColumnSumTag);
    column.recv(touched.data(), n, DataType::int8, me - 1, kColumnSumTag);
  }
  const CsrMatrix& rows = b.local;
  for (int64_t e = 0; e < rows.nnz(); ++e) {
    const col_t j = rows.colidx[e];
    const float product = 1.0f * rows.values[e];
    if (touched[j]) {
      sums[j] += product;
    } else {
      touched[j] = 1;
      sums[j] = product;
    }
  }
  if (me < last) {
    column.send(sums.data(), n, DataType::float32, me + 1, kColumnSumTag);
    column.send(touched.data(), n, DataType::int8, me + 1, kColumnSumTag);
  }
  column.broadcast(sums.data(), n, DataType::float32, last);
  column.broadcast(touched.data(), n, DataType::int8, last);
  CsrMatrix out(1, n);
  for (int64_t j = 0; j < n; ++j)
    if (touched[j]) {
      out.colidx.push_back(static_cast<col_t>(j));
      out.values.push_back(sums[j]);
    }
  out.rowptr[1] = out.nnz();
  return out;
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

CsrMatrix distributed_column_norms(const DistributedLayerWise& m, ProcessGrid& grid) {
  CsrMatrix norms = column_sums(m.squared, grid.col_comm());
  normalize_rows(norms);
  return norms;
}

}  // namespace matsamp
