// Moving CSR matrices between ranks: shape first, then the three arrays.
#pragma once
#include "communicator.h"
#include "core/csr.h"

namespace matsamp {

void send_csr(Communicator& comm, const CsrMatrix& m, int peer, int tag);
CsrMatrix recv_csr(Communicator& comm, int peer, int tag);
// On return every rank holds root's m.
void broadcast_csr(Communicator& comm, CsrMatrix& m, int root);
// Every rank's `part` (all with the same column count) stacked in rank order.
CsrMatrix all_gather_rows(Communicator& comm, const CsrMatrix& part);
// all_gather_rows' first round: every rank's row and entry counts, in rank order.
struct GatheredShapes {
  std::vector<int64_t> rows, entries;
};
GatheredShapes gathered_shapes(Communicator& comm, int64_t rows, int64_t entries);

}  // namespace matsamp
