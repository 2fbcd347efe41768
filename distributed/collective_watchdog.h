// A bound on every wait for peers (--collective-timeout). A communicator op holds
// a CollectiveWait while it blocks; a thread looks at them every second, and a
// wait that outlasts the timeout ends the job: one line naming the op, the peer
// it waits for (a message's, or the other rank of two; else the count of the
// others) and how long it waited, then the job's abort (MPI_Abort: the launcher
// ends every rank, a stopped one too).
// Without a running watchdog a CollectiveWait costs a lock and nothing else.
#pragma once
#include <functional>
#include <string>

namespace matsamp {

class CollectiveWatchdog {
 public:
  // Watches the waits until the object goes (one watchdog at a time);
  // timeout_seconds <= 0 starts none. `abort_job` gets the line and must not return.
  CollectiveWatchdog(double timeout_seconds, std::function<void(const std::string&)> abort_job);
  ~CollectiveWatchdog();
  CollectiveWatchdog(const CollectiveWatchdog&) = delete;
  CollectiveWatchdog& operator=(const CollectiveWatchdog&) = delete;

 private:
  bool started_ = false;
};

class CollectiveWait {
 public:
  // `op` (a literal) of a communicator of `ranks` ranks, waiting for `peer` (its
  // rank in the job) where one is known, else -1.
  CollectiveWait(const char* op, int ranks, int peer = -1);
  ~CollectiveWait();
  CollectiveWait(const CollectiveWait&) = delete;
  CollectiveWait& operator=(const CollectiveWait&) = delete;

 private:
  unsigned long long id_ = 0;  // 0: not watched
};

// The line a wait that outlasted its bound ends the job with.
std::string overdue_wait_message(const char* op, int ranks, int peer, double waited_seconds, double timeout_seconds);

}  // namespace matsamp
