// Row normalization on the device. Each row is summed in row order in double,
// exactly like the CPU op, so results are bit-identical for weighted rows too.
// (CUB's segmented reduction would reorder the sum; it is equal only for rows
// of equal values.) Short rows get a thread each; long ones (LADIES' P: a few
// hundred rows of ~100k entries) a warp each, which loads the row coalesced
// and divides it in parallel, the sum alone staying sequential.
#include "kernels/cuda_check.cuh"
#include "kernels/device_ops.h"
#include "kernels/warp.cuh"

namespace matsamp::gpu {

namespace {

__global__ void normalize_each_row(int64_t rows, const int64_t* rowptr, float* values, bool square_first) {
  for (int64_t r = thread_index(); r < rows; r += thread_count()) {
    double sum = 0;
    for (int64_t e = rowptr[r]; e < rowptr[r + 1]; ++e) {
      if (square_first) values[e] *= values[e];
      sum += values[e];
    }
    if (sum == 0) continue;
    for (int64_t e = rowptr[r]; e < rowptr[r + 1]; ++e) values[e] = static_cast<float>(values[e] / sum);
  }
}

// Entries a lane loads per step of normalize_rows_by_warp.
constexpr int kValuesPerLane = 8;

// normalize_each_row with a warp per row: the lanes load a tile of the row
// (squaring it first when asked) and every lane adds up the whole tile, its
// values shuffled to it one by one in row order, so each holds the sequential sum.
__global__ void normalize_rows_by_warp(int64_t rows, const int64_t* rowptr, float* values, bool square_first) {
  for (int64_t r = warp_index(); r < rows; r += warp_count()) {
    const int64_t begin = rowptr[r], end = rowptr[r + 1];
    double sum = 0;
    for (int64_t base = begin; base < end; base += 32 * kValuesPerLane) {
      float tile[kValuesPerLane];
#pragma unroll
      for (int q = 0; q < kValuesPerLane; ++q) {
        const int64_t e = base + 32 * q + lane_index();
        tile[q] = e < end ? values[e] : 0.0f;
        if (square_first && e < end) values[e] = tile[q] *= tile[q];
      }
#pragma unroll
      for (int q = 0; q < kValuesPerLane; ++q)
#pragma unroll
        for (int k = 0; k < 32; ++k) {
          const float v = __shfl_sync(kFullWarp, tile[q], k);
          if (base + 32 * q + k < end) sum += v;
        }
    }
    if (sum == 0) continue;
    // No sync needed: each lane divides the entries it loaded (and maybe squared) itself.
    for (int64_t e = begin + lane_index(); e < end; e += 32) values[e] = static_cast<float>(values[e] / sum);
  }
}

// From this average row length on, a warp per row is faster.
constexpr int64_t kWarpPerRowLength = 64;

__global__ void set_all(float* values, int64_t n, float value) {
  for (int64_t i = thread_index(); i < n; i += thread_count()) values[i] = value;
}

// Division as the CPU's (IEEE, no fast math): the weights are bit-identical.
__global__ void reciprocals_of(const float* values, int64_t n, float factor, float* out) {
  for (int64_t i = thread_index(); i < n; i += thread_count()) out[i] = 1.0f / (factor * values[i]);
}

}  // namespace

void normalize_rows(DeviceEngine& engine, DeviceCsr& p, bool square_first) {
  if (p.values.size() != p.nnz()) fill_values(engine, p, 1.0f);
  if (p.rows == 0) return;
  if (p.nnz() >= kWarpPerRowLength * p.rows) {
    normalize_rows_by_warp<<<blocks_for_warps(p.rows), kBlockThreads, 0, stream_of(engine)>>>(
        p.rows, p.rowptr.data(), p.values.data(), square_first);
    MATSAMP_CUDA_LAUNCHED("normalize_rows_by_warp");
  } else {
    normalize_each_row<<<blocks_for_threads(p.rows), kBlockThreads, 0, stream_of(engine)>>>(
        p.rows, p.rowptr.data(), p.values.data(), square_first);
    MATSAMP_CUDA_LAUNCHED("normalize_each_row");
  }
}

DeviceArray<float> reciprocals(DeviceEngine& engine, const float* values, int64_t n, float factor) {
  DeviceArray<float> out(engine, n);
  if (n == 0) return out;
  reciprocals_of<<<blocks_for_threads(n), kBlockThreads, 0, stream_of(engine)>>>(values, n, factor, out.data());
  MATSAMP_CUDA_LAUNCHED("reciprocals_of");
  return out;
}

void fill_values(DeviceEngine& engine, DeviceCsr& p, float value) {
  if (p.values.size() != p.nnz()) p.values = DeviceArray<float>(engine, p.nnz());
  if (p.nnz() == 0) return;
  set_all<<<blocks_for_threads(p.nnz()), kBlockThreads, 0, stream_of(engine)>>>(p.values.data(), p.nnz(), value);
  MATSAMP_CUDA_LAUNCHED("set_all");
}

}  // namespace matsamp::gpu
