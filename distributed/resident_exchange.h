// all_to_allv and all_gatherv of arrays that live in a backend (the distributed
// product's requests and sampled rows): in place where the transport takes the backend's
// memory (host arrays with any transport, device arrays with NCCL), else staged
// through the host by the backend's transfers, which count every copy.
#pragma once
#include <cstdint>
#include <vector>

#include "backend/backend.h"
#include "communicator.h"

namespace matsamp {

class ResidentExchange {
 public:
  ResidentExchange(Communicator& comm, Backend& backend);
  // Whether the arrays move in place (no copy through the host).
  bool in_place() const { return arrays_ != nullptr; }

  // Ids (int64 on the wire) sent by the counts per rank; `send` undefined when
  // nothing is sent.
  Ids ids(const Ids& send, const std::vector<int64_t>& send_counts, const std::vector<int64_t>& recv_counts);
  // Rows of a matrix with values: send_rows[q] rows (their send_entries[q] entries)
  // to rank q, recv_rows[q] rows (recv_entries[q] entries) from it, stacked in rank
  // order. Row lengths travel as int64, then column ids (int32) and values (float).
  Matrix rows(const Matrix& send, int64_t cols, const std::vector<int64_t>& send_rows,
              const std::vector<int64_t>& send_entries, const std::vector<int64_t>& recv_rows,
              const std::vector<int64_t>& recv_entries);
  // all_gatherv of rows with values: every rank's `part` (cols columns), stacked
  // in rank order on every rank; the shapes travel first (two int64 per rank).
  Matrix gathered_rows(const Matrix& part, int64_t cols);

 private:
  Communicator& comm_;
  Backend& backend_;
  ResidentArrays* arrays_;  // null: staged
};

}  // namespace matsamp
