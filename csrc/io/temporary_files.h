// Temporary files that a SIGINT, SIGTERM or SIGHUP must not leave behind: a
// signal handler removes the registered ones, then lets the signal end the
// process as it would have. The handler is installed on first use, and only for
// signals still at their default action (a host program's own handlers, such as
// Python's for SIGINT, are kept; its exceptions unwind through the writers).
// SIGXFSZ, at its default action, is ignored from then on: a write past the
// file-size limit (ulimit -f) fails with EFBIG, which the writer reports and
// cleans up after, instead of killing the process with a partial file left.
#pragma once
#include <string>

namespace matsamp {

// Registers `path` for removal on a signal; returns a slot for
// unregister_temporary, or -1 when the registry is full or the path too long
// (the file is then only removed by its owner).
int register_temporary(const std::string& path);
// Forgets the slot (its file was renamed into place or removed).
void unregister_temporary(int slot);

}  // namespace matsamp
