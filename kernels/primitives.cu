// Scans, sorts and run grouping on CUB; every temporary comes from the engine's pool.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include "kernels/cuda_check.cuh"
#include "kernels/device_ops.h"
#include "kernels/device_primitives.h"

namespace matsamp::gpu {

namespace {

// CUB's two-call protocol: ask for the temporary size, then run with it.
template <class Call>
void with_temp_storage(DeviceEngine& engine, Call call, const char* what) {
  size_t bytes = 0;
  check_cuda(call(nullptr, bytes), what, __FILE__, __LINE__);
  DeviceArray<char> temp(engine, static_cast<int64_t>(std::max<size_t>(bytes, 1)));
  check_cuda(call(temp.data(), bytes), what, __FILE__, __LINE__);
}

template <class Value>
void stable_sort_pairs(DeviceEngine& engine, DeviceArray<uint64_t>& keys, DeviceArray<Value>& values, int end_bit) {
  const int64_t n = keys.size();
  if (n <= 1) return;
  DeviceArray<uint64_t> keys_alt(engine, n);
  DeviceArray<Value> values_alt(engine, n);
  cub::DoubleBuffer<uint64_t> k(keys.data(), keys_alt.data());
  cub::DoubleBuffer<Value> v(values.data(), values_alt.data());
  const cudaStream_t stream = stream_of(engine);
  with_temp_storage(
      engine,
      [&](void* temp, size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(temp, bytes, k, v, n, 0, end_bit, stream);
      },
      "cub::DeviceRadixSort::SortPairs");
  if (k.Current() != keys.data()) keys.swap(keys_alt);
  if (v.Current() != values.data()) values.swap(values_alt);
}

__global__ void mark_run_heads(const uint64_t* keys, int64_t n, int64_t* heads) {
  for (int64_t i = thread_index(); i < n; i += thread_count()) heads[i] = i == 0 || keys[i] != keys[i - 1];
}

// heads holds the inclusive sum of the head marks: run ids + 1.
__global__ void scatter_run_heads(const uint64_t* keys, int64_t n, int64_t* run_plus_one, uint64_t* group_keys,
                                  int64_t* starts, bool keep_run_of) {
  for (int64_t i = thread_index(); i < n; i += thread_count()) {
    const int64_t run = run_plus_one[i] - 1;
    if (i == 0 || keys[i] != keys[i - 1]) {
      group_keys[run] = keys[i];
      starts[run] = i;
    }
    if (keep_run_of) run_plus_one[i] = run;
  }
}

__global__ void set_last(int64_t* starts, int64_t groups, int64_t n) { starts[groups] = n; }

}  // namespace

int bits_for(int64_t n) {
  int bits = 1;
  while (bits < 63 && (int64_t{1} << bits) < n) ++bits;
  return bits;
}

void inclusive_sum(DeviceEngine& engine, int64_t* data, int64_t n) {
  if (n <= 0) return;
  const cudaStream_t stream = stream_of(engine);
  with_temp_storage(
      engine,
      [&](void* temp, size_t& bytes) { return cub::DeviceScan::InclusiveSum(temp, bytes, data, data, n, stream); },
      "cub::DeviceScan::InclusiveSum");
}

void counts_to_offsets(DeviceEngine& engine, const int64_t* counts, int64_t n, int64_t* offsets) {
  engine.fill_zero(offsets, sizeof(int64_t));
  if (n <= 0) return;
  const cudaStream_t stream = stream_of(engine);
  with_temp_storage(
      engine,
      [&](void* temp, size_t& bytes) {
        return cub::DeviceScan::InclusiveSum(temp, bytes, counts, offsets + 1, n, stream);
      },
      "cub::DeviceScan::InclusiveSum");
}

int64_t offsets_from_counts(DeviceEngine& engine, const int64_t* counts, int64_t n, int64_t* offsets) {
  counts_to_offsets(engine, counts, n, offsets);
  return n > 0 ? read_one(engine, offsets + n) : 0;
}

DeviceCsr csr_from_row_counts(DeviceEngine& engine, int64_t rows, int64_t cols, const int64_t* counts) {
  DeviceCsr out;
  out.rows = rows;
  out.cols = cols;
  out.rowptr = DeviceArray<int64_t>(engine, rows + 1);
  const int64_t nnz = offsets_from_counts(engine, counts, rows, out.rowptr.data());
  out.colidx = DeviceArray<col_t>(engine, nnz);
  out.values = DeviceArray<float>(engine, nnz);
  return out;
}

void sort_keys(DeviceEngine& engine, DeviceArray<uint64_t>& keys, int end_bit) {
  const int64_t n = keys.size();
  if (n <= 1) return;
  DeviceArray<uint64_t> keys_alt(engine, n);
  cub::DoubleBuffer<uint64_t> k(keys.data(), keys_alt.data());
  const cudaStream_t stream = stream_of(engine);
  with_temp_storage(
      engine,
      [&](void* temp, size_t& bytes) { return cub::DeviceRadixSort::SortKeys(temp, bytes, k, n, 0, end_bit, stream); },
      "cub::DeviceRadixSort::SortKeys");
  if (k.Current() != keys.data()) keys.swap(keys_alt);
}

void sort_pairs(DeviceEngine& engine, DeviceArray<uint64_t>& keys, DeviceArray<float>& values, int end_bit) {
  stable_sort_pairs(engine, keys, values, end_bit);
}
void sort_pairs(DeviceEngine& engine, DeviceArray<uint64_t>& keys, DeviceArray<int32_t>& values, int end_bit) {
  stable_sort_pairs(engine, keys, values, end_bit);
}
void sort_pairs(DeviceEngine& engine, DeviceArray<uint64_t>& keys, DeviceArray<int64_t>& values, int end_bit) {
  stable_sort_pairs(engine, keys, values, end_bit);
}

namespace {

// Each row's entries sorted by column id, values (of any type) moving along.
template <class Value>
void sort_rows_by_column(DeviceEngine& engine, int64_t rows, const int64_t* rowptr, DeviceArray<int32_t>& colidx,
                         DeviceArray<Value>& values) {
  const int64_t n = colidx.size();
  DeviceArray<int32_t> colidx_alt(engine, n);
  DeviceArray<Value> values_alt(engine, n);
  cub::DoubleBuffer<int32_t> k(colidx.data(), colidx_alt.data());
  cub::DoubleBuffer<Value> v(values.data(), values_alt.data());
  const cudaStream_t stream = stream_of(engine);
  with_temp_storage(
      engine,
      [&](void* temp, size_t& bytes) {
        return cub::DeviceSegmentedSort::SortPairs(temp, bytes, k, v, n, rows, rowptr, rowptr + 1, stream);
      },
      "cub::DeviceSegmentedSort::SortPairs");
  if (k.Current() != colidx.data()) colidx.swap(colidx_alt);
  if (v.Current() != values.data()) values.swap(values_alt);
}

}  // namespace

void sort_rows(DeviceEngine& engine, int64_t rows, const int64_t* rowptr, DeviceArray<int32_t>& colidx,
               DeviceArray<float>& values) {
  if (colidx.size() <= 1 || rows <= 0) return;
  sort_rows_by_column(engine, rows, rowptr, colidx, values);
}

void sort_segments(DeviceEngine& engine, int64_t segments, const int64_t* offsets, DeviceArray<int64_t>& keys) {
  const int64_t n = keys.size();
  if (n <= 1 || segments <= 0) return;
  DeviceArray<int64_t> keys_alt(engine, n);
  cub::DoubleBuffer<int64_t> k(keys.data(), keys_alt.data());
  const cudaStream_t stream = stream_of(engine);
  with_temp_storage(
      engine,
      [&](void* temp, size_t& bytes) {
        return cub::DeviceSegmentedSort::SortKeys(temp, bytes, k, n, segments, offsets, offsets + 1, stream);
      },
      "cub::DeviceSegmentedSort::SortKeys");
  if (k.Current() != keys.data()) keys.swap(keys_alt);
}

namespace {

__global__ void gather_by_index(const int64_t* index, int64_t n, const float* values, const int64_t* carried,
                                float* values_out, int64_t* carried_out) {
  for (int64_t i = thread_index(); i < n; i += thread_count()) {
    values_out[i] = values[index[i]];
    carried_out[i] = carried[index[i]];
  }
}

}  // namespace

void sort_rows(DeviceEngine& engine, int64_t rows, const int64_t* rowptr, DeviceArray<int32_t>& colidx,
               DeviceArray<float>& values, DeviceArray<int64_t>& carried) {
  const int64_t n = colidx.size();
  if (n <= 1 || rows <= 0) return;
  const cudaStream_t stream = stream_of(engine);
  DeviceArray<int64_t> order = sequence_ids(engine, n);  // each entry's index, sorted with it
  sort_rows_by_column(engine, rows, rowptr, colidx, order);
  DeviceArray<float> values_sorted(engine, n);
  DeviceArray<int64_t> carried_sorted(engine, n);
  gather_by_index<<<blocks_for_threads(n), kBlockThreads, 0, stream>>>(order.data(), n, values.data(), carried.data(),
                                                                       values_sorted.data(), carried_sorted.data());
  MATSAMP_CUDA_LAUNCHED("gather_by_index");
  values.swap(values_sorted);
  carried.swap(carried_sorted);
}

int64_t group_sorted_keys(DeviceEngine& engine, const uint64_t* keys, int64_t n, DeviceArray<uint64_t>& group_keys,
                          DeviceArray<int64_t>& starts, DeviceArray<int64_t>* group_of) {
  const cudaStream_t stream = stream_of(engine);
  if (n == 0) {
    group_keys = DeviceArray<uint64_t>();
    starts = DeviceArray<int64_t>(engine, 1);
    engine.fill_zero(starts.data(), sizeof(int64_t));
    if (group_of) *group_of = DeviceArray<int64_t>();
    return 0;
  }
  DeviceArray<int64_t> run_plus_one(engine, n);
  mark_run_heads<<<blocks_for_threads(n), kBlockThreads, 0, stream>>>(keys, n, run_plus_one.data());
  MATSAMP_CUDA_LAUNCHED("mark_run_heads");
  inclusive_sum(engine, run_plus_one.data(), n);
  const int64_t groups = read_one(engine, run_plus_one.data() + n - 1);
  group_keys = DeviceArray<uint64_t>(engine, groups);
  starts = DeviceArray<int64_t>(engine, groups + 1);
  scatter_run_heads<<<blocks_for_threads(n), kBlockThreads, 0, stream>>>(
      keys, n, run_plus_one.data(), group_keys.data(), starts.data(), group_of != nullptr);
  MATSAMP_CUDA_LAUNCHED("scatter_run_heads");
  set_last<<<1, 1, 0, stream>>>(starts.data(), groups, n);
  MATSAMP_CUDA_LAUNCHED("set_last");
  if (group_of) *group_of = std::move(run_plus_one);
  return groups;
}

}  // namespace matsamp::gpu
