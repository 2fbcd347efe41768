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
  if (arrays_) {
    Matrix out = arrays_->allocate_rows(rows_in, cols, entries_in);
    const WritableCsrArrays to = arrays_->arrays(out);
    const WritableCsrArrays from = rows_out > 0 ? arrays_->arrays(send) : WritableCsrArrays{};
    const Ids lengths = rows_out > 0 ? arrays_->row_lengths(send) : Ids{};
    comm_.all_to_allv(rows_out > 0 ? arrays_->arrays(lengths) : nullptr, send_rows, to.rowptr + 1, recv_rows,
                      DataType::int64);
    comm_.all_to_allv(from.colidx, send_entries, to.colidx, recv_entries, DataType::int32);
    comm_.all_to_allv(from.values, send_entries, to.values, recv_entries, DataType::float32);
    return arrays_->rows_from_lengths(std::move(out));
  }
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
  const int ranks = comm_.size();
  const int64_t shape[2] = {rows_out, entries_out};  // all_gather_rows' wire format
  std::vector<int64_t> shapes(2 * ranks), rows_in(ranks), entries_in(ranks);
  comm_.all_gatherv(shape, 2, shapes.data(), std::vector<int64_t>(ranks, 2), DataType::int64);
  for (int q = 0; q < ranks; ++q) rows_in[q] = shapes[2 * q], entries_in[q] = shapes[2 * q + 1];
  Matrix out = arrays_->allocate_rows(total(rows_in), cols, total(entries_in));
  const WritableCsrArrays to = arrays_->arrays(out);
  const WritableCsrArrays from = rows_out > 0 ? arrays_->arrays(part) : WritableCsrArrays{};
  const Ids lengths = rows_out > 0 ? arrays_->row_lengths(part) : Ids{};
  comm_.all_gatherv(rows_out > 0 ? arrays_->arrays(lengths) : nullptr, rows_out, to.rowptr + 1, rows_in,
                    DataType::int64);
  comm_.all_gatherv(from.colidx, entries_out, to.colidx, entries_in, DataType::int32);
  comm_.all_gatherv(from.values, entries_out, to.values, entries_in, DataType::float32);
  return arrays_->rows_from_lengths(std::move(out));
}

}  // namespace matsamp
