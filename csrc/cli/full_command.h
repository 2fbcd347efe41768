// matsamp is two programs built from the same commands: `matsamp`, the host engine
// (the CPU backend, MPI), which starts in milliseconds and a few tens of MB, and
// `matsamp-full` beside it, which adds what loads libtorch, CUDA and NCCL (train,
// --device cuda, --transport nccl: about 200 MB and 0.4 s before any work). A run of
// `matsamp` that needs them is handed to matsamp-full while its command line is
// parsed, before anything runs: the same arguments, in the same process (exec).
#pragma once
#include <string>

namespace matsamp::cli {

// matsamp-full's main says so: it runs everything itself and hands nothing off.
void mark_full_command();
// matsamp-full beside this program ("" when there is none).
std::string full_command_path();
// In `matsamp`: replaces the process by matsamp-full with the same command line,
// or throws Error naming `what` when there is no matsamp-full to run. In
// matsamp-full: returns, and the caller reports what this build lacks.
void hand_off(const std::string& what);

}  // namespace matsamp::cli
