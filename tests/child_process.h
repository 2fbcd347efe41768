// Running a piece of a test in a forked child, for what would end or stall the
// test process itself: a signal (SIGBUS, SIGINT), a blocking open, an allocation
// that must never be attempted. Only code without OpenMP belongs in the child
// (its thread pool does not survive fork).
#pragma once
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <exception>

namespace matsamp::testing {

// How a child ended: its exit code, or minus the signal that ended it.
inline int child_status(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return WIFSIGNALED(status) ? -WTERMSIG(status) : -1000;
}

// Starts fn() (returning the exit code) in a child killed by SIGALRM after
// `seconds`; child_status(pid) waits for it. With extra_memory > 0 the child
// may map at most that many bytes more than it has (RLIMIT_AS), so an
// oversized allocation fails there. An exception escaping fn exits with 99.
template <class Fn>
pid_t start_child(Fn fn, unsigned seconds = 60, size_t extra_memory = 0) {
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  ::alarm(seconds);
  if (extra_memory > 0) {
    long pages = 0;
    if (std::FILE* statm = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(statm, "%ld", &pages) != 1) pages = 0;
      std::fclose(statm);
    }
    const rlim_t limit = static_cast<rlim_t>(pages) * ::sysconf(_SC_PAGESIZE) + extra_memory;
    const rlimit bound{limit, limit};
    ::setrlimit(RLIMIT_AS, &bound);
  }
  int code = 99;
  try {
    code = fn();
  } catch (...) {
  }
  std::fflush(nullptr);
  ::_exit(code);
}

template <class Fn>
int run_in_child(Fn fn, unsigned seconds = 60, size_t extra_memory = 0) {
  return child_status(start_child(fn, seconds, extra_memory));
}

}  // namespace matsamp::testing
