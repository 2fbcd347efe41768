// Rows sampled entry by entry, each entry kept or not on its own (LABOR-0's and
// DGS's Poisson draws): a thread per row computes the row's sums once per pass,
// then each entry's weight when kept (a negative number when not). One pass
// counts each row's kept entries, a scan places the rows, a second pass writes
// them. Rows (a PickedRows) gives sums(i), drawn(sums) (false: the row keeps
// nothing) and kept(i, e, sums).
#pragma once
#include "core/philox.h"
#include "kernels/cuda_check.cuh"
#include "kernels/device_keys.cuh"
#include "kernels/device_ops.h"
#include "kernels/device_primitives.h"

namespace matsamp::gpu {

// The number of column t in keyed row i's minibatch, shared by all its rows.
__device__ inline double minibatch_column_uniform(const DeviceKeys& keys, int64_t i, col_t t) {
  const RandomKey column{keys.seed, keys.epoch, keys.layer, key_of(keys, i).minibatch, static_cast<uint64_t>(t)};
  return uniform01(random_bits(column, kLaborDraw));
}

// Row i of the sampled rows is row rows[i] of A (A without values: all 1).
struct PickedRows {
  CsrView a;
  const vid_t* rows;

  __device__ int64_t begin(int64_t i) const { return a.rowptr[rows[i]]; }
  __device__ int64_t end(int64_t i) const { return a.rowptr[rows[i] + 1]; }
  __device__ double value(int64_t e) const { return a.values ? static_cast<double>(a.values[e]) : 1.0; }
};

template <class Rows>
__global__ void poisson_counts(Rows rows, int64_t m, int64_t* counts) {
  for (int64_t i = thread_index(); i < m; i += thread_count()) {
    const auto sums = rows.sums(i);
    int64_t count = 0;
    if (rows.drawn(sums))
      for (int64_t e = rows.begin(i); e < rows.end(i); ++e) count += rows.kept(i, e, sums) >= 0;
    counts[i] = count;
  }
}

template <class Rows>
__global__ void poisson_write(Rows rows, int64_t m, const int64_t* out_rowptr, col_t* colidx, float* values) {
  for (int64_t i = thread_index(); i < m; i += thread_count()) {
    const auto sums = rows.sums(i);
    if (!rows.drawn(sums)) continue;
    int64_t at = out_rowptr[i];
    for (int64_t e = rows.begin(i); e < rows.end(i); ++e) {
      const float weight = rows.kept(i, e, sums);
      if (weight < 0) continue;
      colidx[at] = rows.a.colidx[e];
      values[at++] = weight;
    }
  }
}

// The m sampled rows (of `cols` columns) that `rows` describes.
template <class Rows>
DeviceCsr poisson_sample_rows(DeviceEngine& engine, const Rows& rows, int64_t m, int64_t cols) {
  DeviceArray<int64_t> counts(engine, m);
  if (m > 0) {
    poisson_counts<<<blocks_for_threads(m), kBlockThreads, 0, stream_of(engine)>>>(rows, m, counts.data());
    MATSAMP_CUDA_LAUNCHED("poisson_counts");
  }
  DeviceCsr out;
  out.rows = m;
  out.cols = cols;
  out.rowptr = DeviceArray<int64_t>(engine, m + 1);
  const int64_t nnz = offsets_from_counts(engine, counts.data(), m, out.rowptr.data());
  counts.reset();
  out.colidx = DeviceArray<col_t>(engine, nnz);
  out.values = DeviceArray<float>(engine, nnz);
  if (m > 0 && nnz > 0) {
    poisson_write<<<blocks_for_threads(m), kBlockThreads, 0, stream_of(engine)>>>(rows, m, out.rowptr.data(),
                                                                                  out.colidx.data(), out.values.data());
    MATSAMP_CUDA_LAUNCHED("poisson_write");
  }
  return out;
}

}  // namespace matsamp::gpu
