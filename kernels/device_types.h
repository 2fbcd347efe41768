// Plain types of the device side that the engine and the backend's users share:
// lent device memory (out-of-memory errors, memory figures and counters:
// backend/device_memory.h). No Backend here, so the
// CUDA translation units never see the engine's seam.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "backend/device_memory.h"
#include "core/error.h"

namespace matsamp {

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

}  // namespace matsamp
