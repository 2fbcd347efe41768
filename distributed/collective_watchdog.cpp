#include "collective_watchdog.h"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>

#include "core/error.h"

namespace matsamp {

namespace {

using Clock = std::chrono::steady_clock;

struct Waiting {
  const char* op;
  int ranks, peer;
  Clock::time_point since;
};

// The one watchdog of the process and the waits it watches.
struct Watch {
  std::mutex mutex;
  std::condition_variable wake;
  bool running = false, stopping = false;
  double timeout_seconds = 0;
  std::function<void(const std::string&)> abort_job;
  std::map<unsigned long long, Waiting> waits;
  unsigned long long next_id = 1;
  std::thread thread;
};

Watch& watch() {
  static Watch w;
  return w;
}

void look_every_second(Watch& w) {
  std::unique_lock<std::mutex> lock(w.mutex);
  while (!w.stopping) {
    w.wake.wait_for(lock, std::chrono::seconds(1));
    const Clock::time_point now = Clock::now();
    for (const auto& [id, wait] : w.waits) {
      const double waited = std::chrono::duration<double>(now - wait.since).count();
      if (waited <= w.timeout_seconds) continue;
      const std::string line = overdue_wait_message(wait.op, wait.ranks, wait.peer, waited, w.timeout_seconds);
      const auto abort_job = w.abort_job;
      lock.unlock();
      abort_job(line);  // ends the job
      return;
    }
  }
}

}  // namespace

std::string overdue_wait_message(const char* op, int ranks, int peer, double waited_seconds, double timeout_seconds) {
  char waited[32], bound[32];
  std::snprintf(waited, sizeof waited, "%.0f", waited_seconds);
  std::snprintf(bound, sizeof bound, "%g", timeout_seconds);
  const std::string whom = peer >= 0 ? "rank " + std::to_string(peer)
                                     : "the other " + std::to_string(ranks - 1) + " ranks of its communicator";
  return std::string(op) + " waited " + waited + " s for " + whom + " (--collective-timeout " + bound +
         " s): " + (peer >= 0 ? "it" : "one") + " died or stopped; ending the job";
}

CollectiveWatchdog::CollectiveWatchdog(double timeout_seconds, std::function<void(const std::string&)> abort_job) {
  if (timeout_seconds <= 0) return;
  Watch& w = watch();
  std::lock_guard<std::mutex> lock(w.mutex);
  MATSAMP_CHECK(!w.running, "a collective watchdog is running already");
  w.running = true;
  w.stopping = false;
  w.timeout_seconds = timeout_seconds;
  w.abort_job = std::move(abort_job);
  w.thread = std::thread(look_every_second, std::ref(w));
  started_ = true;
}

CollectiveWatchdog::~CollectiveWatchdog() {
  if (!started_) return;
  Watch& w = watch();
  {
    std::lock_guard<std::mutex> lock(w.mutex);
    w.stopping = true;
  }
  w.wake.notify_all();
  w.thread.join();
  std::lock_guard<std::mutex> lock(w.mutex);
  w.running = false;
  w.waits.clear();
}

CollectiveWait::CollectiveWait(const char* op, int ranks, int peer) {
  Watch& w = watch();
  std::lock_guard<std::mutex> lock(w.mutex);
  if (!w.running || ranks < 2) return;
  id_ = w.next_id++;
  w.waits.emplace(id_, Waiting{op, ranks, peer, Clock::now()});
}

CollectiveWait::~CollectiveWait() {
  if (id_ == 0) return;
  Watch& w = watch();
  std::lock_guard<std::mutex> lock(w.mutex);
  w.waits.erase(id_);
}

}  // namespace matsamp
