// The MPI transport: host buffers, used by the CPU backend and host-staged GPU data.
#pragma once
#include <mpi.h>

#include <climits>
#include <memory>

#include "communicator.h"

namespace matsamp {

// Throws matsamp::Error naming the call and MPI's own message unless code is MPI_SUCCESS.
void check_mpi(int code, const char* call);

// A Communicator over a duplicate of `comm` (errors return codes, never abort silently).
// MPI counts and displacements are int: an operation whose counts or displacements exceed
// max_message_elements (at most INT_MAX) is sent in chunks of point-to-point messages on a
// private communicator instead (all_to_allv agrees on the path with a one-int all-reduce,
// since no rank sees the others' counts). Tests lower the limit to exercise that path.
std::unique_ptr<Communicator> make_mpi_communicator(MPI_Comm comm, int64_t max_message_elements = INT_MAX);

// Initializes MPI for its lifetime unless it already runs (then it leaves it alone);
// destroyed by an exception, it leaves MPI unfinalized so that the launcher ends the job.
class MpiSession {
 public:
  MpiSession();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

 private:
  bool owned_ = false;
};

}  // namespace matsamp
