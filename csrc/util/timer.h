#pragma once
#include <chrono>

namespace matsamp {

// Adds the seconds from construction to destruction to *sink (when not null).
class ScopedTimer {
 public:
  explicit ScopedTimer(double* sink) : sink_(sink), start_(std::chrono::steady_clock::now()) {}
  ~ScopedTimer() {
    if (sink_) *sink_ += seconds();
  }
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  double* sink_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace matsamp
