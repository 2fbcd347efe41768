#include "io/temporary_files.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>

namespace matsamp {

namespace {

// Fixed storage: the handler may only read memory that is never freed or moved.
constexpr int kSlots = 64;
constexpr size_t kPathBytes = 4096;
enum SlotState : int { kFree = 0, kFilling = 1, kActive = 2 };
std::atomic<int> state[kSlots];
char paths[kSlots][kPathBytes];

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void remove_temporaries_and_reraise(int signal_number) {
  const int saved = errno;
  for (int i = 0; i < kSlots; ++i)
    if (state[i].load() == kActive) ::unlink(paths[i]);  // async-signal-safe
  errno = saved;
  // SA_RESETHAND restored the default action; the signal, blocked while this
  // handler runs, is delivered again when it returns and ends the process.
  ::raise(signal_number);
}

void install_handlers() {
  struct sigaction file_size;
  if (::sigaction(SIGXFSZ, nullptr, &file_size) == 0 && file_size.sa_handler == SIG_DFL) {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    ::sigemptyset(&ignore.sa_mask);
    ::sigaction(SIGXFSZ, &ignore, nullptr);
  }
  for (int signal_number : kSignals) {
    struct sigaction current;
    if (::sigaction(signal_number, nullptr, &current) != 0 || current.sa_handler != SIG_DFL) continue;
    struct sigaction action {};
    action.sa_handler = remove_temporaries_and_reraise;
    ::sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    ::sigaction(signal_number, &action, nullptr);
  }
}

}  // namespace

int register_temporary(const std::string& path) {
  static std::once_flag installed;
  std::call_once(installed, install_handlers);
  if (path.size() >= kPathBytes) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (!state[i].compare_exchange_strong(expected, kFilling)) continue;
    std::memcpy(paths[i], path.c_str(), path.size() + 1);
    state[i].store(kActive);
    return i;
  }
  return -1;
}

void unregister_temporary(int slot) {
  if (slot >= 0 && slot < kSlots) state[slot].store(kFree);
}

}  // namespace matsamp
