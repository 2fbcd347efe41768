// its_sample and sample_rows on the device. A warp per row builds the row's
// prefix of quantized weights (weighted rows only), then each sampled row draws
// with ops/prefix_sampling.h's sample_row, writing its picks straight into its
// slots of the result (the result's value slots hold the exclusion list
// meanwhile): a thread per row for short fanouts (GraphSAGE's many rows), a
// warp per row, drawing 32 at a time with the same picks, for long ones
// (LADIES' and FastGCN's few rows of s in the hundreds).
#include "kernels/cuda_check.cuh"
#include "kernels/device_keys.cuh"
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
    row_max = v > row_max ? v : row_max;  // order-free: the maximum is exact
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
    const int64_t count =
        build_row_prefix([&](int64_t j) { return p.values[begin + j]; }, p.rowptr[r + 1] - begin, pre + begin);
    if (lane_index() == 0) positive[r] = count;
  }
}

__global__ void prepare_normalized_rows(CsrView a, const vid_t* rows, int64_t m, const int64_t* pre_offsets,
                                        uint64_t* pre, double* sums, int64_t* positive) {
  for (int64_t i = warp_index(); i < m; i += warp_count()) {
    const int64_t begin = a.rowptr[rows[i]], len = a.rowptr[rows[i] + 1] - begin;
    double sum = 0;
    if (lane_index() == 0)  // in row order, one lane: the CPU's double sum exactly
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

// Merges the picks i of the fresh lanes (distinct, none among picked[0, count),
// whose lower bound there is `at`) into the sorted picks. Old pick t moves up
// by the number of fresh picks below it, those with at <= t; moving the top
// chunk of 32 first, each chunk is read before it is written, and its targets
// lie at or above it, where everything has been read already.
__device__ void merge_picks(int32_t* picked, int64_t count, int32_t i, int64_t at, unsigned fresh) {
  int64_t lowest = count;  // below it nothing moves
  int fresh_below = 0;     // fresh picks below this lane's
  for (unsigned rest = fresh; rest != 0; rest &= rest - 1) {
    const int k = __ffs(rest) - 1;
    fresh_below += __shfl_sync(kFullWarp, i, k) < i;
    lowest = min(lowest, __shfl_sync(kFullWarp, at, k));
  }
  for (int64_t end = count; end > lowest; end -= 32) {
    const int64_t t = end - 32 + lane_index();
    const bool moves = t >= lowest;
    const int32_t old = moves ? picked[t] : 0;
    int shift = 0;
    for (unsigned rest = fresh; rest != 0; rest &= rest - 1) shift += __shfl_sync(kFullWarp, at, __ffs(rest) - 1) <= t;
    __syncwarp();
    if (moves) picked[t + shift] = old;
  }
  __syncwarp();
  if (fresh >> lane_index() & 1) picked[at + fresh_below] = i;
  __syncwarp();
}

// sample_row by a warp, with the same picks in the same slots. Draw d's target
// depends on d and on the exclusion state, which changes only at a rebuild, so
// the lanes make the sequential loop's next 32 draws at once; ballots in lane
// order then tell how far the loop gets through them: to the pick that makes s
// or the repeat that makes more than s misses (a rebuild), whichever comes
// first. The draws after it are dropped and made again, numbered as the loop
// numbers them. The picks are visible to every lane on return.
template <class Prefix>
__device__ void sample_row_by_warp(const Prefix& p, int64_t len, int64_t s, const RandomKey& key, int32_t* picked,
                                   float* scratch) {
  const unsigned below = lanes_below(), through = below | (1u << lane_index());
  const uint64_t total = p.at(len - 1);
  uint64_t excluded_weight = 0;
  int64_t count = 0, excluded = 0, misses = 0;
  uint32_t draw = 0;
  while (count < s) {
    const uint64_t target = scale_to(random_bits(key, draw + lane_index()), total - excluded_weight);
    const int32_t i = static_cast<int32_t>(draw_index(p, len, scratch, excluded, target));
    const int64_t at = lower_bound_in(picked, count, i);
    // A repeat: picked before this batch or by an earlier lane of it. (Every
    // lane must reach the match, so it is not behind a short-circuit.)
    const bool drawn_earlier = (__match_any_sync(kFullWarp, i) & below) != 0;
    const bool repeat = drawn_earlier || (at < count && picked[at] == i);
    const unsigned repeats = __ballot_sync(kFullWarp, repeat);
    const bool stops = repeat ? misses + __popc(repeats & through) > s : count + __popc(~repeats & through) == s;
    const unsigned stopping = __ballot_sync(kFullWarp, stops);
    const int last = stopping != 0 ? __ffs(stopping) - 1 : 31;  // the loop's last draw in this batch
    const unsigned done = last == 31 ? kFullWarp : (2u << last) - 1;
    const bool rebuild = stopping != 0 && (repeats >> last & 1);
    __syncwarp();  // every lane has read picked and scratch
    merge_picks(picked, count, i, at, ~repeats & done);
    count += __popc(~repeats & done);
    misses += __popc(repeats & done);
    draw += last + 1;
    if (rebuild) {  // as the sequential loop: exclude every pick so far
      uint64_t weight = 0;
      for (int64_t t = lane_index(); t < count; t += 32) {
        scratch[t] = position_as_float(picked[t]);
        weight += weight_at(p, picked[t]);
      }
      excluded_weight = warp_sum(weight);  // integers: any order
      excluded = count;
      misses = 0;
      __syncwarp();  // the list is read by every lane's next draws
    }
  }
}

// Who draws a row: one thread, or one warp (all its lanes call every member).
struct ThreadPerRow {
  static constexpr int kLanes = 1;
  __device__ static int64_t first_row() { return thread_index(); }
  __device__ static int64_t row_stride() { return thread_count(); }
  __device__ static int lane() { return 0; }

  // Every positive entry of the row, in row order, into count slots.
  template <class Rows>
  __device__ static void take_positives(const Rows& rows, int64_t r, int64_t len, int64_t count, col_t* colidx,
                                        float* values) {
    for (int64_t j = 0, t = 0; j < len && t < count; ++j) {
      const float v = rows.value(r, j);
      if (!(v > 0)) continue;
      colidx[t] = rows.column(r, j);
      values[t] = v;
      ++t;
    }
  }

  template <class Prefix>
  __device__ static void sample(const Prefix& p, int64_t len, int64_t s, const RandomKey& key, int32_t* picked,
                                float* scratch) {
    sample_row(p, len, s, key, picked, scratch);
  }
};

struct WarpPerRow {
  static constexpr int kLanes = 32;
  __device__ static int64_t first_row() { return warp_index(); }
  __device__ static int64_t row_stride() { return warp_count(); }
  __device__ static int lane() { return lane_index(); }

  // ThreadPerRow::take_positives, 32 entries at a time: a positive entry's slot
  // is the number of positive ones before it.
  template <class Rows>
  __device__ static void take_positives(const Rows& rows, int64_t r, int64_t len, int64_t count, col_t* colidx,
                                        float* values) {
    for (int64_t base = 0, taken = 0; base < len && taken < count; base += 32) {
      const int64_t j = base + lane_index();
      const float v = j < len ? rows.value(r, j) : 0.0f;
      const unsigned positives = __ballot_sync(kFullWarp, v > 0);
      const int64_t t = taken + __popc(positives & lanes_below());
      if (v > 0 && t < count) {
        colidx[t] = rows.column(r, j);
        values[t] = v;
      }
      taken += __popc(positives);
    }
  }

  template <class Prefix>
  __device__ static void sample(const Prefix& p, int64_t len, int64_t s, const RandomKey& key, int32_t* picked,
                                float* scratch) {
    sample_row_by_warp(p, len, s, key, picked, scratch);
  }
};

template <class Team, class Rows>
__global__ void draw_samples(Rows rows, int64_t m, int64_t s, DeviceKeys keys, const int64_t* out_rowptr,
                             col_t* out_colidx, float* out_values) {
  for (int64_t r = Team::first_row(); r < m; r += Team::row_stride()) {
    const int64_t o = out_rowptr[r], count = out_rowptr[r + 1] - o;
    if (count == 0) continue;
    const int64_t len = rows.length(r);
    if (rows.positives(r) <= s) {  // every positive entry, no randomness
      Team::take_positives(rows, r, len, count, out_colidx + o, out_values + o);
      continue;
    }
    Team::sample(rows.prefix(r), len, s, key_of(keys, r), out_colidx + o, out_values + o);
    for (int64_t t = Team::lane(); t < s; t += Team::kLanes) {
      const int64_t j = out_colidx[o + t];
      out_colidx[o + t] = rows.column(r, j);
      out_values[o + t] = rows.value(r, j);
    }
  }
}

// The warp draws 32 at a time: worth it from fanouts of 32 on.
constexpr int64_t kWarpPerRowFanout = 32;

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
    if (s >= kWarpPerRowFanout)
      draw_samples<WarpPerRow><<<blocks_for_warps(m), kBlockThreads, 0, stream>>>(rows, m, s, keys, out.rowptr.data(),
                                                                                  out.colidx.data(), out.values.data());
    else
      draw_samples<ThreadPerRow><<<blocks_for_threads(m), kBlockThreads, 0, stream>>>(
          rows, m, s, keys, out.rowptr.data(), out.colidx.data(), out.values.data());
    MATSAMP_CUDA_LAUNCHED("draw_samples");
  }
  return out;
}

// Rows rows[i] of A in time order (order), cut to their first allowed[i]
// entries (those early enough), values divided by their sum (temporal sampling's
// rows, ops.h: sample_rows_before). Entry j of row i is A's entry order[begin + j].
struct TemporalRows {
  CsrView a;
  const vid_t* rows;
  const vid_t* order;
  const int64_t* allowed;
  const int64_t* pre_offsets;
  const uint64_t* pre;
  const double* sums;
  const int64_t* positive;
  __device__ int64_t begin(int64_t i) const { return a.rowptr[rows[i]]; }
  __device__ int64_t length(int64_t i) const { return allowed[i]; }
  __device__ int64_t positives(int64_t i) const { return positive[i]; }
  __device__ StoredPrefix prefix(int64_t i) const { return {pre + pre_offsets[i]}; }
  __device__ float raw(int64_t i, int64_t j) const { return a.values ? a.values[order[begin(i) + j]] : 1.0f; }
  __device__ float value(int64_t i, int64_t j) const { return normalized(raw(i, j), sums[i]); }
  __device__ col_t column(int64_t i, int64_t j) const { return a.colidx[order[begin(i) + j]]; }
};

// Each row's allowed entries: a binary search of its times for its block's bound.
__global__ void allowed_counts(CsrView a, const vid_t* rows, const vid_t* sorted_times, DeviceOffsets blocks,
                               const int64_t* bounds, int64_t m, int64_t* allowed) {
  for (int64_t i = thread_index(); i < m; i += thread_count()) {
    const int64_t bound = bounds[block_of(blocks.offsets, blocks.blocks, i)];
    int64_t lo = a.rowptr[rows[i]], hi = a.rowptr[rows[i] + 1];
    const int64_t begin = lo;
    while (lo < hi) {  // the first time past the bound
      const int64_t mid = lo + (hi - lo) / 2;
      if (sorted_times[mid] <= bound) lo = mid + 1;
      else hi = mid;
    }
    allowed[i] = lo - begin;
  }
}

__global__ void prepare_temporal_rows(TemporalRows rows, int64_t m, uint64_t* pre, double* sums, int64_t* positive) {
  for (int64_t i = warp_index(); i < m; i += warp_count()) {
    const int64_t len = rows.length(i);
    double sum = 0;
    if (lane_index() == 0)  // in time order, one lane: the CPU's double sum exactly
      for (int64_t j = 0; j < len; ++j) sum += rows.raw(i, j);
    sum = __shfl_sync(kFullWarp, sum, 0);
    const int64_t count =
        build_row_prefix([&](int64_t j) { return normalized(rows.raw(i, j), sum); }, len, pre + rows.pre_offsets[i]);
    if (lane_index() == 0) {
      sums[i] = sum;
      positive[i] = count;
    }
  }
}

// strategy last: the last min(s, positive) allowed entries with positive values.
__global__ void take_latest(TemporalRows rows, int64_t m, const int64_t* out_rowptr, col_t* out_colidx,
                            float* out_values) {
  for (int64_t i = thread_index(); i < m; i += thread_count()) {
    const int64_t o = out_rowptr[i], count = out_rowptr[i + 1] - o;
    for (int64_t j = rows.length(i) - 1, t = 0; j >= 0 && t < count; --j) {
      const float v = rows.value(i, j);
      if (!(v > 0)) continue;
      out_colidx[o + t] = rows.column(i, j);
      out_values[o + t] = v;
      ++t;
    }
  }
}

// Each row's entries in column order (picks come in time order; s is small).
__global__ void sort_short_rows(int64_t m, const int64_t* rowptr, col_t* colidx, float* values) {
  for (int64_t i = thread_index(); i < m; i += thread_count())
    for (int64_t t = rowptr[i] + 1; t < rowptr[i + 1]; ++t)
      for (int64_t u = t; u > rowptr[i] && colidx[u - 1] > colidx[u]; --u) {
        const col_t c = colidx[u];
        colidx[u] = colidx[u - 1];
        colidx[u - 1] = c;
        const float v = values[u];
        values[u] = values[u - 1];
        values[u - 1] = v;
      }
}

// Row i's allowed positions (its time order's prefix), in time order.
__global__ void copy_allowed_positions(CsrView a, const vid_t* rows, const vid_t* order, int64_t m,
                                       const int64_t* rowptr, int64_t* positions) {
  for (int64_t i = warp_index(); i < m; i += warp_count()) {
    const int64_t begin = a.rowptr[rows[i]], out = rowptr[i], len = rowptr[i + 1] - out;
    for (int64_t j = lane_index(); j < len; j += 32) positions[out + j] = order[begin + j];
  }
}

__global__ void entries_at_positions(CsrView a, const int64_t* positions, int64_t n, col_t* colidx, float* values) {
  for (int64_t e = thread_index(); e < n; e += thread_count()) {
    colidx[e] = a.colidx[positions[e]];
    values[e] = a.values ? a.values[positions[e]] : 1.0f;
  }
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

namespace {

// Each row with a positive entry draws s times.
template <class Rows>
__global__ void replacement_counts(Rows rows, int64_t m, int64_t s, int64_t* counts) {
  for (int64_t r = thread_index(); r < m; r += thread_count()) counts[r] = rows.positives(r) > 0 ? s : 0;
}

// Draw t of row r lands where scale_to(random_bits(key, t), W) falls in the
// row's prefix (ops.h: sample_rows_with_replacement); a thread per row, its
// picks kept sorted in the column slots as they come (s is small).
template <class Rows>
__global__ void draw_with_replacement(Rows rows, int64_t m, int64_t s, DeviceKeys keys, const int64_t* out_rowptr,
                                      col_t* out_colidx, float* out_values) {
  for (int64_t r = thread_index(); r < m; r += thread_count()) {
    const int64_t o = out_rowptr[r];
    if (out_rowptr[r + 1] == o) continue;
    const auto prefix = rows.prefix(r);
    const int64_t len = rows.length(r);
    const uint64_t total = prefix.at(len - 1);
    const RandomKey key = key_of(keys, r);
    col_t* picked = out_colidx + o;
    for (int64_t t = 0; t < s; ++t) {
      const auto j = static_cast<col_t>(
          first_above(prefix, 0, len - 1, scale_to(random_bits(key, static_cast<uint32_t>(t)), total)));
      int64_t u = t;
      for (; u > 0 && picked[u - 1] > j; --u) picked[u] = picked[u - 1];
      picked[u] = j;
    }
    for (int64_t t = 0; t < s; ++t) {
      const col_t j = picked[t];
      out_values[o + t] = rows.value(r, j);
      out_colidx[o + t] = rows.column(r, j);
    }
  }
}

// Runs draw(rows) over rows[i] of A: the uniform rows, or the normalized rows
// with their prefixes built.
template <class Draw>
DeviceCsr on_selected_rows(DeviceEngine& engine, const CsrView& a, const vid_t* rows, int64_t m, bool uniform_rows,
                           Draw draw) {
  if (uniform_rows) return draw(UniformRows{a, rows});

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
  return draw(NormalizedRows{a, rows, pre_offsets.data(), pre.data(), sums.data(), positive.data()});
}

}  // namespace

DeviceCsr sample_rows(DeviceEngine& engine, const CsrView& a, const vid_t* rows, int64_t s, const DeviceKeys& keys,
                      bool uniform_rows) {
  const int64_t m = keys.rows.total;
  return on_selected_rows(engine, a, rows, m, uniform_rows,
                          [&](const auto& access) { return draw_all(engine, access, m, a.cols, s, keys); });
}

DeviceCsr sample_rows_with_replacement(DeviceEngine& engine, const CsrView& a, const vid_t* rows, int64_t s,
                                       const DeviceKeys& keys, bool uniform_rows) {
  const int64_t m = keys.rows.total;
  return on_selected_rows(engine, a, rows, m, uniform_rows, [&](const auto& access) {
    const cudaStream_t stream = stream_of(engine);
    DeviceArray<int64_t> counts(engine, m);
    if (m > 0) {
      replacement_counts<<<blocks_for_threads(m), kBlockThreads, 0, stream>>>(access, m, s, counts.data());
      MATSAMP_CUDA_LAUNCHED("replacement_counts");
    }
    DeviceCsr out = csr_from_row_counts(engine, m, a.cols, counts.data());
    if (out.nnz() > 0) {
      draw_with_replacement<<<blocks_for_threads(m), kBlockThreads, 0, stream>>>(access, m, s, keys, out.rowptr.data(),
                                                                                 out.colidx.data(), out.values.data());
      MATSAMP_CUDA_LAUNCHED("draw_with_replacement");
    }
    return out;
  });
}

DeviceCsr sample_rows_before(DeviceEngine& engine, const CsrView& a, const vid_t* rows, int64_t s,
                             const DeviceKeys& keys, const vid_t* order, const vid_t* sorted_times,
                             const int64_t* bounds, bool last) {
  const int64_t m = keys.rows.total;
  const cudaStream_t stream = stream_of(engine);
  DeviceArray<int64_t> allowed(engine, m);
  if (m > 0) {
    allowed_counts<<<blocks_for_threads(m), kBlockThreads, 0, stream>>>(a, rows, sorted_times, keys.rows, bounds, m,
                                                                        allowed.data());
    MATSAMP_CUDA_LAUNCHED("allowed_counts");
  }
  DeviceArray<int64_t> pre_offsets(engine, m + 1);
  const int64_t entries = offsets_from_counts(engine, allowed.data(), m, pre_offsets.data());
  DeviceArray<uint64_t> pre(engine, entries);
  DeviceArray<double> sums(engine, m);
  DeviceArray<int64_t> positive(engine, m);
  const TemporalRows access{a,          rows,        order,          allowed.data(), pre_offsets.data(),
                            pre.data(), sums.data(), positive.data()};
  if (m > 0) {
    prepare_temporal_rows<<<blocks_for_warps(m), kBlockThreads, 0, stream>>>(access, m, pre.data(), sums.data(),
                                                                             positive.data());
    MATSAMP_CUDA_LAUNCHED("prepare_temporal_rows");
  }
  DeviceCsr out;
  if (!last) {
    out = draw_all(engine, access, m, a.cols, s, keys);
  } else {
    DeviceArray<int64_t> counts(engine, m);
    if (m > 0) {
      sample_counts<<<blocks_for_threads(m), kBlockThreads, 0, stream>>>(access, m, s, counts.data());
      MATSAMP_CUDA_LAUNCHED("sample_counts");
    }
    out = csr_from_row_counts(engine, m, a.cols, counts.data());
    if (out.nnz() > 0) {
      take_latest<<<blocks_for_threads(m), kBlockThreads, 0, stream>>>(access, m, out.rowptr.data(), out.colidx.data(),
                                                                       out.values.data());
      MATSAMP_CUDA_LAUNCHED("take_latest");
    }
  }
  if (out.nnz() > 0) {
    sort_short_rows<<<blocks_for_threads(m), kBlockThreads, 0, stream>>>(m, out.rowptr.data(), out.colidx.data(),
                                                                         out.values.data());
    MATSAMP_CUDA_LAUNCHED("sort_short_rows");
  }
  return out;
}

DeviceCsr select_rows_before(DeviceEngine& engine, const CsrView& a, const vid_t* rows, DeviceOffsets blocks,
                             const vid_t* order, const vid_t* sorted_times, const int64_t* bounds) {
  const int64_t m = blocks.total;
  const cudaStream_t stream = stream_of(engine);
  DeviceArray<int64_t> allowed(engine, m);
  if (m > 0) {
    allowed_counts<<<blocks_for_threads(m), kBlockThreads, 0, stream>>>(a, rows, sorted_times, blocks, bounds, m,
                                                                        allowed.data());
    MATSAMP_CUDA_LAUNCHED("allowed_counts");
  }
  DeviceCsr out = csr_from_row_counts(engine, m, a.cols, allowed.data());
  allowed.reset();
  if (out.nnz() == 0) return out;
  // The allowed positions sorted back into A's order, then their entries read.
  DeviceArray<int64_t> positions(engine, out.nnz());
  copy_allowed_positions<<<blocks_for_warps(m), kBlockThreads, 0, stream>>>(a, rows, order, m, out.rowptr.data(),
                                                                            positions.data());
  MATSAMP_CUDA_LAUNCHED("copy_allowed_positions");
  sort_segments(engine, m, out.rowptr.data(), positions);
  entries_at_positions<<<blocks_for_threads(out.nnz()), kBlockThreads, 0, stream>>>(
      a, positions.data(), out.nnz(), out.colidx.data(), out.values.data());
  MATSAMP_CUDA_LAUNCHED("entries_at_positions");
  return out;
}

}  // namespace matsamp::gpu
