// Plain types of the device side that the engine and the backend's users share:
// out-of-memory errors, memory figures and counters. No Backend here, so the
// CUDA translation units never see the engine's seam.
#pragma once
#include <cstdint>
#include <string>

#include "core/error.h"

namespace matsamp {

// Device memory ran out. The numbers let the caller say what would have fitted.
class GpuOutOfMemory : public Error {
 public:
  GpuOutOfMemory(const std::string& what, int64_t requested, int64_t in_use, int64_t available, int64_t resident);
  int64_t requested_bytes;  // the allocation that failed
  int64_t in_use_bytes;     // held by the backend at that moment (graph included)
  int64_t available_bytes;  // the most the backend could hold (its pool + free device memory)
  int64_t resident_bytes;   // of those in use, the graph matrices kept on the device
};

struct GpuMemory {
  int64_t free_bytes = 0;
  int64_t total_bytes = 0;
};

// What a CUDA backend did so far (all zero for other backends).
struct CudaCounters {
  int64_t bytes_to_device = 0;
  int64_t bytes_to_host = 0;
  double to_device_seconds = 0;   // host wall time in host -> device copies
  double to_host_seconds = 0;     // host wall time in device -> host copies (sizes included)
  int64_t peak_device_bytes = 0;  // high-water mark of the backend's memory pool
  int64_t resident_bytes = 0;     // graph matrices kept on the device
  GpuMemory memory;               // of the device, now
  std::string device_name;
};

}  // namespace matsamp
