// Plain types of the device side that the engine and the backend's users share:
// out-of-memory errors, memory figures and counters. No Backend here, so the
// CUDA translation units never see the engine's seam.
#pragma once
#include <cstdint>
#include <memory>
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

// Device memory and a stream lent by the caller: the Python bindings lend torch's
// caching allocator and its current stream, so that the backend's work is ordered
// with torch's on that stream (no whole-device synchronize) and its memory is
// torch's to reuse.
class DeviceMemorySource {
 public:
  virtual ~DeviceMemorySource() = default;
  // The cudaStream_t to run on, asked at each use (the caller's may change
  // between calls; arrays kept across calls, such as the graph, are only read).
  virtual void* stream() const = 0;
  // Device memory ordered on `stream`; nullptr when the device is full.
  virtual void* allocate(int64_t bytes, void* stream) = 0;
  virtual void release(void* pointer) noexcept = 0;
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
  int64_t peak_device_bytes = 0;  // high-water mark of the backend's device memory
  int64_t resident_bytes = 0;     // graph matrices kept on the device
  GpuMemory memory;               // of the device, now
  std::string device_name;
};

}  // namespace matsamp
