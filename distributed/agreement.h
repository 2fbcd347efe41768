// Collective agreement on errors: a configuration problem seen by any rank ends
// every rank with the same message, instead of one rank throwing while the others
// wait in the next collective forever.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "communicator.h"
#include "core/error.h"

namespace matsamp {

// An error every rank of a communicator knows about (thrown on all of them at once).
// The top level lets one rank report it and exits non-zero everywhere, without MPI_Abort.
class AgreedError : public Error {
 public:
  using Error::Error;
};

// Collective: when any rank passes ok = false, every rank throws AgreedError with the
// message of the lowest such rank.
void agree(Communicator& comm, bool ok, const std::string& message);

// Collective: runs body(); a matsamp::Error it throws on some rank becomes an AgreedError
// on every rank. Body must not itself call collectives of comm after it can throw.
template <class Body>
void agree_on(Communicator& comm, Body&& body) {
  std::string message;
  try {
    std::forward<Body>(body)();
  } catch (const AgreedError&) {
    throw;
  } catch (const Error& e) {
    message = e.what();
    if (message.empty()) message = "unknown error";
  }
  agree(comm, message.empty(), message);
}

// Collective: every rank must have been started with the same command line (an
// MPMD launch, or a script that builds arguments per rank, can differ, and two
// ranks sampling with different samplers wait for each other forever). Throws
// AgreedError on every rank naming the first difference of the lowest rank that
// differs from rank 0.
void agree_on_arguments(Communicator& comm, const std::vector<std::string>& arguments);

}  // namespace matsamp
