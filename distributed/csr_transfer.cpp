#include "csr_transfer.h"

#include <numeric>

namespace matsamp {

namespace {

void check_has_values(const CsrMatrix& m, const char* op) {
  MATSAMP_CHECK(m.values.size() == m.colidx.size(), op, ": the matrix (", m.shape(), ") must carry its values");
}

}  // namespace

void send_csr(Communicator& comm, const CsrMatrix& m, int peer, int tag) {
  check_has_values(m, "send_csr");
  const int64_t shape[3] = {m.rows, m.cols, m.nnz()};
  comm.send(shape, 3, DataType::int64, peer, tag);
  comm.send(m.rowptr.data(), m.rows + 1, DataType::int64, peer, tag);
  comm.send(m.colidx.data(), m.nnz(), DataType::int32, peer, tag);
  comm.send(m.values.data(), m.nnz(), DataType::float32, peer, tag);
}

CsrMatrix recv_csr(Communicator& comm, int peer, int tag) {
  int64_t shape[3];
  comm.recv(shape, 3, DataType::int64, peer, tag);
  CsrMatrix m(shape[0], shape[1]);
  m.colidx.resize(shape[2]);
  m.values.resize(shape[2]);
  comm.recv(m.rowptr.data(), shape[0] + 1, DataType::int64, peer, tag);
  comm.recv(m.colidx.data(), shape[2], DataType::int32, peer, tag);
  comm.recv(m.values.data(), shape[2], DataType::float32, peer, tag);
  return m;
}

void broadcast_csr(Communicator& comm, CsrMatrix& m, int root) {
  if (comm.rank() == root) check_has_values(m, "broadcast_csr");
  int64_t shape[3] = {m.rows, m.cols, m.nnz()};
  comm.broadcast(shape, 3, DataType::int64, root);
  if (comm.rank() != root) {
    m = CsrMatrix(shape[0], shape[1]);
    m.colidx.resize(shape[2]);
    m.values.resize(shape[2]);
  }
  comm.broadcast(m.rowptr.data(), shape[0] + 1, DataType::int64, root);
  comm.broadcast(m.colidx.data(), shape[2], DataType::int32, root);
  comm.broadcast(m.values.data(), shape[2], DataType::float32, root);
}

GatheredShapes gathered_shapes(Communicator& comm, int64_t rows, int64_t entries) {
  const int ranks = comm.size();
  const int64_t shape[2] = {rows, entries};
  std::vector<int64_t> shapes(2 * ranks);
  comm.all_gatherv(shape, 2, shapes.data(), std::vector<int64_t>(ranks, 2), DataType::int64);
  GatheredShapes out{std::vector<int64_t>(ranks), std::vector<int64_t>(ranks)};
  for (int q = 0; q < ranks; ++q) out.rows[q] = shapes[2 * q], out.entries[q] = shapes[2 * q + 1];
  return out;
}

CsrMatrix all_gather_rows(Communicator& comm, const CsrMatrix& part) {
  check_has_values(part, "all_gather_rows");
  const auto [rows, entries] = gathered_shapes(comm, part.rows, part.nnz());
  std::vector<int64_t> lengths(part.rows);
  for (int64_t r = 0; r < part.rows; ++r) lengths[r] = part.row_nnz(r);
  CsrMatrix out(std::accumulate(rows.begin(), rows.end(), int64_t{0}), part.cols);
  out.colidx.resize(std::accumulate(entries.begin(), entries.end(), int64_t{0}));
  out.values.resize(out.colidx.size());
  comm.all_gatherv(lengths.data(), part.rows, out.rowptr.data() + 1, rows, DataType::int64);
  comm.all_gatherv(part.colidx.data(), part.nnz(), out.colidx.data(), entries, DataType::int32);
  comm.all_gatherv(part.values.data(), part.nnz(), out.values.data(), entries, DataType::float32);
  std::partial_sum(out.rowptr.begin(), out.rowptr.end(), out.rowptr.begin());
  return out;
}

}  // namespace matsamp
