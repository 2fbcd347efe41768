// Return-code checks and launch helpers for the .cu files of kernels/.
#pragma once
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <cstdint>

#include "core/error.h"
#include "kernels/device_engine.h"

namespace matsamp::gpu {

inline void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clears a non-sticky error so the engine stays usable
  fail(call, " failed: ", cudaGetErrorString(status), " (", cudaGetErrorName(status), ") at ", file, ":", line);
}

inline void check_cusparse(cusparseStatus_t status, const char* call, const char* file, int line) {
  if (status == CUSPARSE_STATUS_SUCCESS) return;
  fail(call, " failed: ", cusparseGetErrorString(status), " (cuSPARSE status ", static_cast<int>(status), ") at ", file,
       ":", line);
}

inline cudaStream_t stream_of(const DeviceEngine& engine) { return static_cast<cudaStream_t>(engine.stream()); }

constexpr int kBlockThreads = 256;
constexpr int kWarpsPerBlock = kBlockThreads / 32;

// Grid sizes for grid-stride loops over n items (threads, or warps per item).
inline unsigned blocks_for_threads(int64_t n) {
  return static_cast<unsigned>(std::clamp<int64_t>((n + kBlockThreads - 1) / kBlockThreads, 1, int64_t{1} << 20));
}
inline unsigned blocks_for_warps(int64_t n) {
  return static_cast<unsigned>(std::clamp<int64_t>((n + kWarpsPerBlock - 1) / kWarpsPerBlock, 1, int64_t{1} << 20));
}

__device__ inline int64_t thread_index() { return static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; }
__device__ inline int64_t thread_count() { return static_cast<int64_t>(gridDim.x) * blockDim.x; }
__device__ inline int64_t warp_index() { return thread_index() / 32; }
__device__ inline int64_t warp_count() { return thread_count() / 32; }
__device__ inline int lane_index() { return threadIdx.x & 31; }

// First index in [0, n) with a[i] > x (n when none).
template <class T>
__device__ inline int64_t upper_bound_in(const T* a, int64_t n, T x) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (a[mid] > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

// First index in [0, n) with a[i] >= x (n when none).
template <class T>
__device__ inline int64_t lower_bound_in(const T* a, int64_t n, T x) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// The block of item r in stacked offsets (k + 1 entries); empty blocks are skipped.
__device__ inline int64_t block_of(const int64_t* offsets, int64_t blocks, int64_t r) {
  return upper_bound_in(offsets, blocks + 1, r) - 1;
}

}  // namespace matsamp::gpu

#define MATSAMP_CUDA_CHECK(call) ::matsamp::gpu::check_cuda((call), #call, __FILE__, __LINE__)
#define MATSAMP_CUSPARSE_CHECK(call) ::matsamp::gpu::check_cusparse((call), #call, __FILE__, __LINE__)
// After a kernel launch: reports bad launch configurations at once.
#define MATSAMP_CUDA_LAUNCHED(kernel_name) \
  ::matsamp::gpu::check_cuda(cudaGetLastError(), "launch of " kernel_name, __FILE__, __LINE__)
