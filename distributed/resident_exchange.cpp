#include "resident_exchange.h"

#include <numeric>
#include <utility>

#include "backend/resident_arrays.h"
#include "csr_transfer.h"

namespace matsamp {

namespace {

int64_t total(const std::vector<int64_t>& counts) { return std::accumulate(counts.begin(), counts.end(), int64_t{0}); }

// Rows of `entries` entries received as lengths, column ids and values (host).
CsrMatrix host_rows(CsrMatrix got, int64_t entries) {
  std::partial_sum(got.rowptr.begin(), got.rowptr.end(), got.rowptr.begin());
  MATSAMP_CHECK(got.rowptr.back() == entries, "exchange: the rows received hold ", got.rowptr.back(),
                " entries, not the ", entries, " announced");
  return got;
}

// Rows received into backend memory: move(from, to, type, entries) moves the
// row lengths (entries false), then the column ids and the values (true).
template <class Move>
Matrix rows_in_place(ResidentArrays& arrays, const Matrix& send, bool sending, int64_t cols, int64_t rows,
                     int64_t entries, Move move) {
  Matrix out = arrays.allocate_rows(rows, cols, entries);
  const WritableCsrArrays to = arrays.arrays(out);
  const WritableCsrArrays from = sending ? arrays.arrays(send) : WritableCsrArrays{};
  const Ids lengths = sending ? arrays.row_lengths(send) : Ids{};
  move(sending ? arrays.arrays(lengths) : nullptr, to.rowptr + 1, DataType::int64, false);
  move(from.colidx, to.colidx, DataType::int32, true);
  move(from.values, to.values, DataType::float32, true);
  return arrays.rows_from_lengths(std::move(out));
}

std::vector<int64_t> host_lengths(const CsrMatrix& m) {
  std::vector<int64_t> lengths(m.rows);
  for (int64_t r = 0; r < m.rows; ++r) lengths[r] = m.rowptr[r + 1] - m.rowptr[r];
  return lengths;
}

}  // namespace

ResidentExchange::ResidentExchange(Communicator& comm, Backend& backend) : comm_(comm), backend_(backend) {
  ResidentArrays* arrays = backend.resident_arrays();
  const bool reachable = arrays && (arrays->memory() == ResidentArrays::Memory::host || comm.takes_device_buffers());
  arrays_ = reachable ? arrays : nullptr;
}

Ids ResidentExchange::ids(const Ids& send, const std::vector<int64_t>& send_counts,
                          const std::vector<int64_t>& recv_counts) {
  const int64_t sent = total(send_counts), received = total(recv_counts);
  MATSAMP_CHECK(sent == (send.defined() ? send.size() : 0), "exchange: ", sent, " ids to send but ",
                send.defined() ? send.size() : 0, " given");
  if (arrays_) {
    Ids out = arrays_->allocate_ids(received);
    const vid_t* from = sent > 0 ? arrays_->arrays(send) : nullptr;
    comm_.all_to_allv(from, send_counts, received > 0 ? arrays_->arrays(out) : nullptr, recv_counts, DataType::int64);
    return out;
  }
  const std::vector<vid_t> host = sent > 0 ? backend_.ids_to_host(send) : std::vector<vid_t>{};
  std::vector<vid_t> got(received);
  comm_.all_to_allv(host.data(), send_counts, got.data(), recv_counts, DataType::int64);
  return backend_.upload_ids(std::move(got));
}

Matrix ResidentExchange::rows(const Matrix& send, int64_t cols, const std::vector<int64_t>& send_rows,
                              const std::vector<int64_t>& send_entries, const std::vector<int64_t>& recv_rows,
                              const std::vector<int64_t>& recv_entries) {
  const int64_t rows_out = total(send_rows), rows_in = total(recv_rows);
  const int64_t entries_out = total(send_entries), entries_in = total(recv_entries);
  MATSAMP_CHECK(rows_out == (send.defined() ? send.rows() : 0) && entries_out == (send.defined() ? send.nnz() : 0),
                "exchange: ", rows_out, " rows of ", entries_out, " entries to send, but the matrix is ",
                send.defined() ? send.shape() : std::string("none"));
  if (arrays_)
    return rows_in_place(*arrays_, send, rows_out > 0, cols, rows_in, entries_in,
                         [&](const void* from, void* to, DataType type, bool entries) {
                           comm_.all_to_allv(from, entries ? send_entries : send_rows, to,
                                             entries ? recv_entries : recv_rows, type);
                         });
  const CsrMatrix host = rows_out > 0 ? backend_.to_host(send) : CsrMatrix(0, cols);
  CsrMatrix got(rows_in, cols);
  got.colidx.resize(entries_in);
  got.values.resize(entries_in);
  comm_.all_to_allv(host_lengths(host).data(), send_rows, got.rowptr.data() + 1, recv_rows, DataType::int64);
  comm_.all_to_allv(host.colidx.data(), send_entries, got.colidx.data(), recv_entries, DataType::int32);
  comm_.all_to_allv(host.values.data(), send_entries, got.values.data(), recv_entries, DataType::float32);
  return backend_.upload(host_rows(std::move(got), entries_in));
}

Matrix ResidentExchange::gathered_rows(const Matrix& part, int64_t cols) {
  const int64_t rows_out = part.defined() ? part.rows() : 0, entries_out = part.defined() ? part.nnz() : 0;
  if (!arrays_)
    return backend_.upload(all_gather_rows(comm_, rows_out > 0 ? backend_.to_host(part) : CsrMatrix(0, cols)));
  const GatheredShapes in = gathered_shapes(comm_, rows_out, entries_out);  // all_gather_rows' wire format
  return rows_in_place(*arrays_, part, rows_out > 0, cols, total(in.rows), total(in.entries),
                       [&](const void* from, void* to, DataType type, bool entries) {
                         comm_.all_gatherv(from, entries ? entries_out : rows_out, to, entries ? in.entries : in.rows,
                                           type);
                       });
}

}  // namespace matsamp
