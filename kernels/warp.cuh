// Warp-wide reductions and scans (all 32 lanes must take part).
#pragma once
#include <cstdint>

#include "kernels/cuda_check.cuh"

namespace matsamp::gpu {

constexpr unsigned kFullWarp = 0xFFFFFFFFu;

// The lanes before this one, as a mask for ballots (popc of a ballot under it
// is this lane's rank among the lanes that voted yes).
__device__ inline unsigned lanes_below() { return (1u << lane_index()) - 1; }

template <class T>
__device__ inline T warp_sum(T value) {
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_xor_sync(kFullWarp, value, offset);
  return value;
}

template <class T>
__device__ inline T warp_max(T value) {
  for (int offset = 16; offset > 0; offset /= 2) {
    const T other = __shfl_xor_sync(kFullWarp, value, offset);
    value = other > value ? other : value;
  }
  return value;
}

template <class T>
__device__ inline T warp_inclusive_sum(T value) {
  const int lane = threadIdx.x & 31;
  for (int offset = 1; offset < 32; offset *= 2) {
    const T other = __shfl_up_sync(kFullWarp, value, offset);
    if (lane >= offset) value += other;
  }
  return value;
}

}  // namespace matsamp::gpu
