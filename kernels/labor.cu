// labor_sample_rows on the device, decision for decision the CPU op's
// (csrc/ops/labor_sample.cpp): a thread per row sums the row in order (a double,
// as normalize_rows does), then keeps entry (i, t) when s·p_it >= 1 or the
// minibatch's number for column t is below s·p_it. One pass counts each row's
// kept entries, a scan places the rows, a second pass writes them.
#include "core/philox.h"
#include "kernels/cuda_check.cuh"
#include "kernels/device_ops.h"
#include "kernels/device_primitives.h"

namespace matsamp::gpu {

namespace {

constexpr uint32_t kLaborDraw = 0xFFFFFFFFu;  // the CPU op's draw number for column numbers

struct LaborRows {
  CsrView a;
  const vid_t* rows;
  int64_t s;
  DeviceKeys keys;

  __device__ int64_t begin(int64_t i) const { return a.rowptr[rows[i]]; }
  __device__ int64_t end(int64_t i) const { return a.rowptr[rows[i] + 1]; }
  __device__ double value(int64_t e) const { return a.values ? static_cast<double>(a.values[e]) : 1.0; }
  __device__ double sum(int64_t i) const {
    double total = 0;
    for (int64_t e = begin(i); e < end(i); ++e) total += value(e);
    return total;
  }
  // Entry e of row i (whose sum is `total`) is kept: its p, or a negative number.
  __device__ float kept(int64_t i, int64_t e, double total) const {
    const float p = static_cast<float>(value(e) / total);
    const double threshold = static_cast<double>(s) * p;
    if (threshold >= 1) return p;
    const int64_t g = block_of(keys.rows.offsets, keys.rows.blocks, i);
    const RandomKey column{keys.seed, keys.epoch, keys.layer, static_cast<uint64_t>(keys.first_minibatch + g),
                           static_cast<uint64_t>(a.colidx[e])};
    return uniform01(random_bits(column, kLaborDraw)) < threshold ? p : -1.0f;
  }
};

__global__ void labor_counts(LaborRows rows, int64_t m, int64_t* counts) {
  for (int64_t i = thread_index(); i < m; i += thread_count()) {
    const double total = rows.sum(i);
    int64_t count = 0;
    if (total > 0)
      for (int64_t e = rows.begin(i); e < rows.end(i); ++e) count += rows.kept(i, e, total) >= 0;
    counts[i] = count;
  }
}

__global__ void labor_write(LaborRows rows, int64_t m, const int64_t* out_rowptr, col_t* colidx, float* values) {
  for (int64_t i = thread_index(); i < m; i += thread_count()) {
    const double total = rows.sum(i);
    if (!(total > 0)) continue;
    int64_t at = out_rowptr[i];
    for (int64_t e = rows.begin(i); e < rows.end(i); ++e) {
      const float p = rows.kept(i, e, total);
      if (p < 0) continue;
      colidx[at] = rows.a.colidx[e];
      values[at++] = p;
    }
  }
}

}  // namespace

DeviceCsr labor_sample_rows(DeviceEngine& engine, const CsrView& a, const vid_t* rows, int64_t s,
                            const DeviceKeys& keys) {
  const int64_t m = keys.rows.total;
  const LaborRows access{a, rows, s, keys};
  DeviceArray<int64_t> counts(engine, m);
  if (m > 0) {
    labor_counts<<<blocks_for_threads(m), kBlockThreads, 0, stream_of(engine)>>>(access, m, counts.data());
    MATSAMP_CUDA_LAUNCHED("labor_counts");
  }
  DeviceCsr out;
  out.rows = m;
  out.cols = a.cols;
  out.rowptr = DeviceArray<int64_t>(engine, m + 1);
  const int64_t nnz = offsets_from_counts(engine, counts.data(), m, out.rowptr.data());
  counts.reset();
  out.colidx = DeviceArray<col_t>(engine, nnz);
  out.values = DeviceArray<float>(engine, nnz);
  if (m > 0 && nnz > 0) {
    labor_write<<<blocks_for_threads(m), kBlockThreads, 0, stream_of(engine)>>>(access, m, out.rowptr.data(),
                                                                                out.colidx.data(), out.values.data());
    MATSAMP_CUDA_LAUNCHED("labor_write");
  }
  return out;
}

}  // namespace matsamp::gpu
