// Progress of a long run on stderr, as people expect it: on a terminal one line
// redrawn in place with a bar, the rate and the time left; elsewhere (a log, a
// Slurm output file) a plain line at most every few seconds, and one at the end.
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace matsamp {

class Progress {
 public:
  // `what` names the work ("bulk"), `unit` what is counted ("minibatches").
  Progress(std::string what, int64_t total, std::string unit, std::FILE* out = stderr);
  ~Progress();  // ends a redrawn line
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void update(int64_t done);  // prints when due, and always when done == total
  // Erases a redrawn line (for work whose own summary line follows); a log keeps its lines.
  void clear();
  double seconds() const;  // since construction

  // The text of one report (without the bar): "bulk: 42 / 100 minibatches
  // (1.2 s, 35.0 minibatches/s, 1.7 s left)".
  std::string line(int64_t done) const;

 private:
  std::string what_, unit_;
  int64_t total_;
  std::FILE* out_;
  bool terminal_;
  bool open_line_ = false;  // a redrawn line awaits its newline
  double last_ = -1e9;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace matsamp
