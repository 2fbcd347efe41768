// The CUDA backend as the rest of the engine sees it: plain C++, no CUDA headers,
// so the CLI, the tests and the bindings include it whether or not CUDA was built.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "backend/backend.h"
#include "core/error.h"
#include "kernels/device_types.h"

namespace matsamp {

// How the backend computes general sparse products (LADIES' P = Q·(Â∘Â)).
enum class GpuSpgemm {
  ordered,   // sums each entry in the CPU's order: bit-identical to the CPU backend
  cusparse,  // cuSPARSE generic SpGEMM: faster on big products, may differ in the last bit
};

struct CudaOptions {
  int device = 0;
  GpuSpgemm spgemm = GpuSpgemm::ordered;
  // Device memory one product may use for its temporaries before its rows are
  // split into chunks (0: a quarter of the memory free when the backend starts).
  int64_t spgemm_budget_bytes = 0;
  // Refuse allocations past this many bytes as if the device were full (0: no
  // limit beyond the device's). Lets tests and shared GPUs bound the backend.
  int64_t memory_limit_bytes = 0;
  // Where device memory and the stream come from (none: the backend's own
  // stream and stream-ordered pool).
  std::shared_ptr<DeviceMemorySource> memory_source;
};

// True when a CUDA device can be used; otherwise *why (when given) says why not.
bool cuda_available(std::string* why = nullptr);
// The CUDA devices this process sees (0 when none can be used).
int cuda_device_count();

// Throws Error (whose message is the reason) when cuda_available() is false.
std::unique_ptr<Backend> make_cuda_backend(const CudaOptions& options = {});

}  // namespace matsamp
