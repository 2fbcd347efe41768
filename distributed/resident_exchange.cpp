#include "resident_exchange.h"

#include <numeric>
#include <utility>

#include "backend/resident_arrays.h"

namespace matsamp {

namespace {

int64_t total(const std::vector<int64_t>& counts) { return std::accumulate(counts.begin(), counts.end(), int64_t{0}); }

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
  std::vector<int64_t> lengths(host.rows);
  for (int64_t r = 0; r < host.rows; ++r) lengths[r] = host.rowptr[r + 1] - host.rowptr[r];
  CsrMatrix got(rows_in, cols);
  got.colidx.resize(entries_in);
  got.values.resize(entries_in);
  comm_.all_to_allv(lengths.data(), send_rows, got.rowptr.data() + 1, recv_rows, DataType::int64);
  comm_.all_to_allv(host.colidx.data(), send_entries, got.colidx.data(), recv_entries, DataType::int32);
  comm_.all_to_allv(host.values.data(), send_entries, got.values.data(), recv_entries, DataType::float32);
  std::partial_sum(got.rowptr.begin(), got.rowptr.end(), got.rowptr.begin());
  MATSAMP_CHECK(got.rowptr.back() == entries_in, "exchange: the rows received hold ", got.rowptr.back(),
                " entries, not the ", entries_in, " announced");
  return backend_.upload(std::move(got));
}

}  // namespace matsamp
