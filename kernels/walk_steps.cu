// add_entries and first_columns on the device: a random walk's visits merged
// step by step, and where each walker is after a step.
#include "kernels/cuda_check.cuh"
#include "kernels/device_ops.h"
#include "kernels/device_primitives.h"

namespace matsamp::gpu {

namespace {

__device__ inline float value_at(const CsrView& m, int64_t e) { return m.values ? m.values[e] : 1.0f; }

// Merges row r of a and b (both ascending); with out_colidx null, only counts.
__device__ inline int64_t merge_row(const CsrView& a, const CsrView& b, int64_t r, col_t* out_colidx,
                                    float* out_values) {
  int64_t i = a.rowptr[r], j = b.rowptr[r], n = 0;
  const int64_t i_end = a.rowptr[r + 1], j_end = b.rowptr[r + 1];
  while (i < i_end || j < j_end) {
    col_t column;
    float value;
    if (j == j_end || (i < i_end && a.colidx[i] < b.colidx[j])) {
      column = a.colidx[i];
      value = value_at(a, i++);
    } else if (i == i_end || b.colidx[j] < a.colidx[i]) {
      column = b.colidx[j];
      value = value_at(b, j++);
    } else {
      column = a.colidx[i];
      value = value_at(a, i++) + value_at(b, j++);
    }
    if (out_colidx) {
      out_colidx[n] = column;
      out_values[n] = value;
    }
    ++n;
  }
  return n;
}

__global__ void count_merged(CsrView a, CsrView b, int64_t* counts) {
  for (int64_t r = thread_index(); r < a.rows; r += thread_count()) counts[r] = merge_row(a, b, r, nullptr, nullptr);
}

__global__ void write_merged(CsrView a, CsrView b, const int64_t* out_rowptr, col_t* out_colidx, float* out_values) {
  for (int64_t r = thread_index(); r < a.rows; r += thread_count())
    merge_row(a, b, r, out_colidx + out_rowptr[r], out_values + out_rowptr[r]);
}

__global__ void first_column_or(CsrView m, const vid_t* fallback, vid_t* out) {
  for (int64_t r = thread_index(); r < m.rows; r += thread_count())
    out[r] = m.rowptr[r + 1] > m.rowptr[r] ? static_cast<vid_t>(m.colidx[m.rowptr[r]]) : fallback[r];
}

}  // namespace

DeviceCsr add_entries(DeviceEngine& engine, const CsrView& a, const CsrView& b) {
  const cudaStream_t stream = stream_of(engine);
  DeviceArray<int64_t> counts(engine, a.rows);
  if (a.rows > 0) {
    count_merged<<<blocks_for_threads(a.rows), kBlockThreads, 0, stream>>>(a, b, counts.data());
    MATSAMP_CUDA_LAUNCHED("count_merged");
  }
  DeviceCsr out = csr_from_row_counts(engine, a.rows, a.cols, counts.data());
  if (a.rows > 0 && out.nnz() > 0) {
    write_merged<<<blocks_for_threads(a.rows), kBlockThreads, 0, stream>>>(a, b, out.rowptr.data(), out.colidx.data(),
                                                                           out.values.data());
    MATSAMP_CUDA_LAUNCHED("write_merged");
  }
  return out;
}

DeviceArray<vid_t> first_columns(DeviceEngine& engine, const CsrView& m, const vid_t* fallback) {
  DeviceArray<vid_t> out(engine, m.rows);
  if (m.rows > 0) {
    first_column_or<<<blocks_for_threads(m.rows), kBlockThreads, 0, stream_of(engine)>>>(m, fallback, out.data());
    MATSAMP_CUDA_LAUNCHED("first_column_or");
  }
  return out;
}

}  // namespace matsamp::gpu
