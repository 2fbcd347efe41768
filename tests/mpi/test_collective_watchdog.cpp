// The collective watchdog (--collective-timeout) on its own: a wait that
// outlasts the bound calls the job's abort with one line naming it; a short
// wait, a wait of one rank, and a wait with no watchdog running call nothing.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>

#include "distributed/collective_watchdog.h"

namespace matsamp {
namespace {

// What the watchdog's abort received (it runs on the watchdog's thread).
struct AbortSeen {
  std::mutex mutex;
  std::string line;
  std::atomic<bool> called{false};
  std::function<void(const std::string&)> abort_job() {
    return [this](const std::string& message) {
      std::lock_guard<std::mutex> lock(mutex);
      line = message;
      called = true;
    };
  }
};

bool called_within(const AbortSeen& seen, double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!seen.called && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  return seen.called;
}

// The line a watchdog of 0.2 s ends the job with while `op` waits ("" if none
// within 5 s: the watchdog looks every second).
std::string overdue_line(const char* op, int ranks, int peer) {
  AbortSeen seen;
  const CollectiveWatchdog watchdog(0.2, seen.abort_job());
  const CollectiveWait wait(op, ranks, peer);
  if (!called_within(seen, 5)) return "";
  std::lock_guard<std::mutex> lock(seen.mutex);
  return seen.line;
}

TEST(CollectiveWatchdog, AnOverdueWaitEndsTheJobWithALineNamingIt) {
  const std::string line = overdue_line("MPI_Alltoallv", 4, -1);
  ASSERT_FALSE(line.empty()) << "no abort within 5 s";
  EXPECT_NE(line.find("MPI_Alltoallv waited "), std::string::npos) << line;
  EXPECT_NE(line.find(" s for the other 3 ranks of its communicator (--collective-timeout 0.2 s)"), std::string::npos)
      << line;
}

TEST(CollectiveWatchdog, AMessageNamesItsPeer) {
  const std::string line = overdue_line("MPI_Recv", 8, 5);
  ASSERT_FALSE(line.empty()) << "no abort within 5 s";
  EXPECT_NE(line.find("MPI_Recv waited "), std::string::npos) << line;
  EXPECT_NE(line.find(" s for rank 5 (--collective-timeout 0.2 s): it died or stopped; ending the job"),
            std::string::npos)
      << line;
}

TEST(CollectiveWatchdog, WaitsWithinTheBoundOrAloneEndNothing) {
  AbortSeen seen;
  {
    const CollectiveWatchdog watchdog(30, seen.abort_job());
    { const CollectiveWait quick("MPI_Allreduce", 2, 1); }
    const CollectiveWait alone("MPI_Barrier", 1);  // one rank waits for no one
    std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  }
  EXPECT_FALSE(seen.called);
  {
    const CollectiveWatchdog none(0, seen.abort_job());  // 0: no bound
    const CollectiveWait wait("MPI_Allreduce", 2, 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  }
  EXPECT_FALSE(seen.called);
}

TEST(CollectiveWatchdog, OverdueWaitMessage) {
  EXPECT_EQ(overdue_wait_message("MPI_Bcast", 3, -1, 61.4, 60),
            "MPI_Bcast waited 61 s for the other 2 ranks of its communicator (--collective-timeout 60 s): one died "
            "or stopped; ending the job");
}

}  // namespace
}  // namespace matsamp
