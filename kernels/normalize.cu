// Row normalization on the device. One thread per row sums in row order in
// double, exactly like the CPU op, so results are bit-identical for weighted
// rows too. (CUB's segmented reduction would reorder the sum; it is equal only
// for rows of equal values, and the rows normalized here (LADIES' P, sampled
// layers) are short or few.)
#include "kernels/cuda_check.cuh"
#include "kernels/device_ops.h"

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

__global__ void set_all(float* values, int64_t n, float value) {
  for (int64_t i = thread_index(); i < n; i += thread_count()) values[i] = value;
}

}  // namespace

void normalize_rows(DeviceEngine& engine, DeviceCsr& p, bool square_first) {
  if (p.values.size() != p.nnz()) fill_values(engine, p, 1.0f);
  if (p.rows == 0) return;
  normalize_each_row<<<blocks_for_threads(p.rows), kBlockThreads, 0, stream_of(engine)>>>(
      p.rows, p.rowptr.data(), p.values.data(), square_first);
  MATSAMP_CUDA_LAUNCHED("normalize_each_row");
}

void fill_values(DeviceEngine& engine, DeviceCsr& p, float value) {
  if (p.values.size() != p.nnz()) p.values = DeviceArray<float>(engine, p.nnz());
  if (p.nnz() == 0) return;
  set_all<<<blocks_for_threads(p.nnz()), kBlockThreads, 0, stream_of(engine)>>>(p.values.data(), p.nnz(), value);
  MATSAMP_CUDA_LAUNCHED("set_all");
}

}  // namespace matsamp::gpu
