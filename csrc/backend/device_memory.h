// What a backend on a device reports about it (zeros where there is none: the
// CPU), and how much of its memory a bulk may take. Plain types, no Backend,
// so the CUDA translation units share them without the engine's seam.
#pragma once
#include <cstdint>
#include <string>

#include "core/error.h"

namespace matsamp {

// Device memory ran out. The numbers let the caller say what would have fitted.
class DeviceOutOfMemory : public Error {
 public:
  DeviceOutOfMemory(const std::string& what, int64_t requested, int64_t in_use, int64_t available, int64_t resident);
  int64_t requested_bytes;  // the allocation that failed
  int64_t in_use_bytes;     // held by the backend at that moment (graph included)
  int64_t available_bytes;  // the most the backend could hold (its pool + free device memory)
  int64_t resident_bytes;   // of those in use, the graph matrices kept on the device
};

// The error to show when sampling `bulk_size` minibatches at once ran out of
// device memory: it names the memory and the largest k that should fit.
Error explain_out_of_memory(const DeviceOutOfMemory& e, int64_t bulk_size);

// A bulk of k minibatches needed more than `needed_bytes` while only
// `available_bytes` exist. The largest k' < k expected to fit if memory grows
// in proportion to k; 0 when not even one minibatch fits.
int64_t bulk_size_that_fits(int64_t k, int64_t needed_bytes, int64_t available_bytes);

struct DeviceMemory {
  int64_t free_bytes = 0;
  int64_t total_bytes = 0;
};

// What a device backend did so far.
struct DeviceCounters {
  int64_t bytes_to_device = 0;
  int64_t bytes_to_host = 0;
  double to_device_seconds = 0;   // host wall time in host -> device copies
  double to_host_seconds = 0;     // host wall time in device -> host copies (sizes included)
  int64_t peak_device_bytes = 0;  // high-water mark of the backend's device memory
  int64_t resident_bytes = 0;     // graph matrices kept on the device
  DeviceMemory memory;            // of the device, now
  std::string device_name;
};

// Bytes a CSR of `rows` rows and `nnz` entries takes on the device (int64 row
// pointers, int32 column ids, float values when `values`).
int64_t device_csr_bytes(int64_t rows, int64_t nnz, bool values = true);

// Device bytes per byte of a sampler's bytes_per_minibatch estimate (written
// for the CPU ops): the device sorts keep double buffers and keys beside the
// data. An estimate, to be calibrated with bench's gpu_bytes_per_minibatch.
constexpr int64_t kDeviceBytesPerEstimatedByte = 3;

// The memory budget, in the units of Sampler::bytes_per_minibatch, that makes
// a bulk use at most `fraction` of the device memory left free once `graph_bytes`
// (not yet on the device) are uploaded. At least 1.
int64_t device_memory_budget(int64_t free_bytes, int64_t graph_bytes, double fraction);

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
