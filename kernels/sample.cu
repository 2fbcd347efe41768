// its_sample and sample_rows on the device. A warp per row builds the row's
// prefix of quantized weights (weighted rows only), then a thread per sampled
// row draws with ops/prefix_sampling.h, writing its picks straight into its slots
// of the result (the result's value slots hold the exclusion list meanwhile).
#include "kernels/cuda_check.cuh"
#include "kernels/device_ops.h"
#include "kernels/device_primitives.h"
#include "kernels/warp.cuh"
#include "ops/prefix_sampling.h"

namespace matsamp::gpu {

namespace {

// Warp-wide: the row's inclusive prefix of quantized weights into pre, and its
// number of positive entries (returned on every lane). value(j) is entry j's value.
template <class Value>
__device__ int64_t build_row_prefix(Value value, int64_t len, uint64_t* pre) {
  float row_max = 0;
  int64_t positive = 0;
  for (int64_t j = lane_index(); j < len; j += 32) {
    const float v = value(j);
    row_max = v > row_max ? v : row_max;   // order-free: the maximum is exact
    positive += v > 0;
  }
  row_max = warp_max(row_max);
  positive = warp_sum(positive);
  uint64_t running = 0;
  for (int64_t base = 0; base < len; base += 32) {
    const int64_t j = base + lane_index();
    const uint64_t w = j < len ? quantized_weight(value(j), row_max) : 0;
    const uint64_t through = warp_inclusive_sum(w);
    if (j < len) pre[j] = running + through;
    running += __shfl_sync(kFullWarp, through, 31);
  }
  return positive;
}

__device__ inline RandomKey key_of(const DeviceKeys& keys, int64_t r) {
  const int64_t g = block_of(keys.rows.offsets, keys.rows.blocks, r);
  return {keys.seed, keys.epoch, keys.layer, static_cast<uint64_t>(keys.first_minibatch + g),
          static_cast<uint64_t>(r - keys.rows.offsets[g])};
}

// Rows of P for its_sample: row r, or row 0 for all when shared.
struct RowsOfP {
  CsrView p;
  bool shared;
  const uint64_t* pre;
  const int64_t* positive;
  __device__ int64_t source(int64_t r) const { return shared ? 0 : r; }
  __device__ int64_t begin(int64_t r) const { return p.rowptr[source(r)]; }
  __device__ int64_t length(int64_t r) const { return p.rowptr[source(r) + 1] - begin(r); }
  __device__ int64_t positives(int64_t r) const { return positive[source(r)]; }
  __device__ StoredPrefix prefix(int64_t r) const { return {pre + begin(r)}; }
  __device__ float value(int64_t r, int64_t j) const { return p.values[begin(r) + j]; }
  __device__ col_t column(int64_t r, int64_t j) const { return p.colidx[begin(r) + j]; }
};

// normalize_rows' arithmetic for one value of a row with the given double sum.
__device__ inline float normalized(float v, double sum) { return sum == 0 ? v : static_cast<float>(v / sum); }

// Rows rows[i] of A with values divided by their row sum (weighted sample_rows).
struct NormalizedRows {
  CsrView a;
  const vid_t* rows;
  const int64_t* pre_offsets;
  const uint64_t* pre;
  const double* sums;
  const int64_t* positive;
  __device__ int64_t begin(int64_t i) const { return a.rowptr[rows[i]]; }
  __device__ int64_t length(int64_t i) const { return a.rowptr[rows[i] + 1] - begin(i); }
  __device__ int64_t positives(int64_t i) const { return positive[i]; }
  __device__ StoredPrefix prefix(int64_t i) const { return {pre + pre_offsets[i]}; }
  __device__ float value(int64_t i, int64_t j) const {
    return normalized(a.values ? a.values[begin(i) + j] : 1.0f, sums[i]);
  }
  __device__ col_t column(int64_t i, int64_t j) const { return a.colidx[begin(i) + j]; }
};

// Rows rows[i] of A whose values are equal and positive: the uniform fast path.
struct UniformRows {
  CsrView a;
  const vid_t* rows;
  __device__ int64_t begin(int64_t i) const { return a.rowptr[rows[i]]; }
  __device__ int64_t length(int64_t i) const { return a.rowptr[rows[i] + 1] - begin(i); }
  __device__ int64_t positives(int64_t i) const { return length(i); }
  __device__ UniformPrefix prefix(int64_t) const { return {}; }
  __device__ float value(int64_t i, int64_t) const {
    const double v = a.values ? a.values[begin(i)] : 1.0f;
    return static_cast<float>(v / (v * static_cast<double>(length(i))));
  }
  __device__ col_t column(int64_t i, int64_t j) const { return a.colidx[begin(i) + j]; }
};

__global__ void prepare_rows_of_p(CsrView p, int64_t sources, uint64_t* pre, int64_t* positive) {
  for (int64_t r = warp_index(); r < sources; r += warp_count()) {
    const int64_t begin = p.rowptr[r];
    const int64_t count = build_row_prefix([&](int64_t j) { return p.values[begin + j]; }, p.rowptr[r + 1] - begin,
                                           pre + begin);
    if (lane_index() == 0) positive[r] = count;
  }
}

__global__ void prepare_normalized_rows(CsrView a, const vid_t* rows, int64_t m, const int64_t* pre_offsets,
                                        uint64_t* pre, double* sums, int64_t* positive) {
  for (int64_t i = warp_index(); i < m; i += warp_count()) {
    const int64_t begin = a.rowptr[rows[i]], len = a.rowptr[rows[i] + 1] - begin;
    double sum = 0;
    if (lane_index() == 0)   // in row order, one lane: the CPU's double sum exactly
      for (int64_t j = 0; j < len; ++j) sum += a.values ? a.values[begin + j] : 1.0f;
    sum = __shfl_sync(kFullWarp, sum, 0);
    const int64_t count = build_row_prefix(
        [&](int64_t j) { return normalized(a.values ? a.values[begin + j] : 1.0f, sum); }, len, pre + pre_offsets[i]);
    if (lane_index() == 0) {
      sums[i] = sum;
      positive[i] = count;
    }
  }
}

template <class Rows>
__global__ void sample_counts(Rows rows, int64_t m, int64_t s, int64_t* counts) {
  for (int64_t r = thread_index(); r < m; r += thread_count()) {
    const int64_t positive = rows.positives(r);
    counts[r] = positive < s ? positive : s;
  }
}

template <class Rows>
__global__ void draw_samples(Rows rows, int64_t m, int64_t s, DeviceKeys keys, const int64_t* out_rowptr,
                             col_t* out_colidx, float* out_values) {
  for (int64_t r = thread_index(); r < m; r += thread_count()) {
    const int64_t o = out_rowptr[r], count = out_rowptr[r + 1] - o;
    if (count == 0) continue;
    const int64_t len = rows.length(r);
    if (rows.positives(r) <= s) {   // every positive entry, no randomness
      for (int64_t j = 0, t = 0; j < len && t < count; ++j) {
        const float v = rows.value(r, j);
        if (!(v > 0)) continue;
        out_colidx[o + t] = rows.column(r, j);
        out_values[o + t] = v;
        ++t;
      }
      continue;
    }
    sample_row(rows.prefix(r), len, s, key_of(keys, r), out_colidx + o, out_values + o);
    for (int64_t t = 0; t < s; ++t) {
      const int64_t j = out_colidx[o + t];
      out_colidx[o + t] = rows.column(r, j);
      out_values[o + t] = rows.value(r, j);
    }
  }
}

// Counts, row pointers (one size read back), then the draws.
template <class Rows>
DeviceCsr draw_all(DeviceEngine& engine, const Rows& rows, int64_t m, int64_t cols, int64_t s, const DeviceKeys& keys) {
  const cudaStream_t stream = stream_of(engine);
  DeviceArray<int64_t> counts(engine, m);
  if (m > 0) {
    sample_counts<<<blocks_for_threads(m), kBlockThreads, 0, stream>>>(rows, m, s, counts.data());
    MATSAMP_CUDA_LAUNCHED("sample_counts");
  }
  DeviceCsr out = csr_from_row_counts(engine, m, cols, counts.data());
  if (out.nnz() > 0) {
    draw_samples<<<blocks_for_threads(m), kBlockThreads, 0, stream>>>(rows, m, s, keys, out.rowptr.data(),
                                                                      out.colidx.data(), out.values.data());
    MATSAMP_CUDA_LAUNCHED("draw_samples");
  }
  return out;
}

__global__ void selected_lengths(CsrView a, const vid_t* rows, int64_t m, int64_t* lengths) {
  for (int64_t i = thread_index(); i < m; i += thread_count()) lengths[i] = a.rowptr[rows[i] + 1] - a.rowptr[rows[i]];
}

}  // namespace

DeviceCsr its_sample(DeviceEngine& engine, const CsrView& p, int64_t s, const DeviceKeys& keys) {
  const int64_t m = keys.rows.total;
  const bool shared = p.rows == 1 && m != 1;
  const int64_t sources = shared ? 1 : p.rows;
  DeviceArray<uint64_t> pre(engine, p.nnz);
  DeviceArray<int64_t> positive(engine, sources);
  if (sources > 0) {
    prepare_rows_of_p<<<blocks_for_warps(sources), kBlockThreads, 0, stream_of(engine)>>>(p, sources, pre.data(),
                                                                                          positive.data());
    MATSAMP_CUDA_LAUNCHED("prepare_rows_of_p");
  }
  return draw_all(engine, RowsOfP{p, shared, pre.data(), positive.data()}, m, p.cols, s, keys);
}

DeviceCsr sample_rows(DeviceEngine& engine, const CsrView& a, const vid_t* rows, int64_t s, const DeviceKeys& keys,
                      bool uniform_rows) {
  const int64_t m = keys.rows.total;
  if (uniform_rows) return draw_all(engine, UniformRows{a, rows}, m, a.cols, s, keys);

  DeviceArray<int64_t> lengths(engine, m);
  if (m > 0) {
    selected_lengths<<<blocks_for_threads(m), kBlockThreads, 0, stream_of(engine)>>>(a, rows, m, lengths.data());
    MATSAMP_CUDA_LAUNCHED("selected_lengths");
  }
  DeviceArray<int64_t> pre_offsets(engine, m + 1);
  const int64_t entries = offsets_from_counts(engine, lengths.data(), m, pre_offsets.data());
  lengths.reset();
  DeviceArray<uint64_t> pre(engine, entries);
  DeviceArray<double> sums(engine, m);
  DeviceArray<int64_t> positive(engine, m);
  if (m > 0) {
    prepare_normalized_rows<<<blocks_for_warps(m), kBlockThreads, 0, stream_of(engine)>>>(
        a, rows, m, pre_offsets.data(), pre.data(), sums.data(), positive.data());
    MATSAMP_CUDA_LAUNCHED("prepare_normalized_rows");
  }
  const NormalizedRows access{a, rows, pre_offsets.data(), pre.data(), sums.data(), positive.data()};
  return draw_all(engine, access, m, a.cols, s, keys);
}

}  // namespace matsamp::gpu
