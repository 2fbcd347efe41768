// sequence_runs and gather_ids on the device: a thread per item of the result;
// range_positions: each id keyed by its range, a stable radix sort, the sorted
// order inverted.
#include "kernels/cuda_check.cuh"
#include "kernels/device_ops.h"
#include "kernels/device_primitives.h"

namespace matsamp::gpu {

namespace {

__global__ void fill_runs(const int64_t* starts, DeviceOffsets runs, vid_t* ids) {
  for (int64_t i = thread_index(); i < runs.total; i += thread_count()) {
    const int64_t r = block_of(runs.offsets, runs.blocks, i);
    ids[i] = starts[r] + (i - runs.offsets[r]);
  }
}

__global__ void gather_at(const vid_t* ids, const vid_t* at, int64_t n, vid_t* out) {
  for (int64_t i = thread_index(); i < n; i += thread_count()) out[i] = ids[at[i]];
}

__global__ void key_by_range(const vid_t* ids, int64_t n, const vid_t* bounds, int64_t ranges, uint64_t* keys,
                             int64_t* index, int* outside) {
  for (int64_t i = thread_index(); i < n; i += thread_count()) {
    if (ids[i] < bounds[0] || ids[i] >= bounds[ranges]) *outside = 1;
    int64_t q = 0;  // the ranges are few: the process row's chunks
    while (q + 1 < ranges && ids[i] >= bounds[q + 1]) ++q;
    keys[i] = static_cast<uint64_t>(q);
    index[i] = i;
  }
}

__global__ void invert_order(const int64_t* index, int64_t n, vid_t* out) {
  for (int64_t i = thread_index(); i < n; i += thread_count()) out[index[i]] = i;
}

}  // namespace

DeviceArray<vid_t> sequence_runs(DeviceEngine& engine, const int64_t* starts, DeviceOffsets runs) {
  DeviceArray<vid_t> ids(engine, runs.total);
  if (runs.total > 0) {
    fill_runs<<<blocks_for_threads(runs.total), kBlockThreads, 0, stream_of(engine)>>>(starts, runs, ids.data());
    MATSAMP_CUDA_LAUNCHED("fill_runs");
  }
  return ids;
}

DeviceArray<vid_t> gather_ids(DeviceEngine& engine, const vid_t* ids, const vid_t* at, int64_t n) {
  DeviceArray<vid_t> out(engine, n);
  if (n > 0) {
    gather_at<<<blocks_for_threads(n), kBlockThreads, 0, stream_of(engine)>>>(ids, at, n, out.data());
    MATSAMP_CUDA_LAUNCHED("gather_at");
  }
  return out;
}

DeviceArray<vid_t> range_positions(DeviceEngine& engine, const vid_t* ids, int64_t n,
                                   const std::vector<vid_t>& bounds) {
  DeviceArray<vid_t> out(engine, n);
  if (n == 0) return out;
  const cudaStream_t stream = stream_of(engine);
  const DeviceArray<vid_t> dbounds = to_device(engine, bounds);
  const int64_t ranges = static_cast<int64_t>(bounds.size()) - 1;
  DeviceArray<uint64_t> keys(engine, n);
  DeviceArray<int64_t> index(engine, n);
  DeviceArray<int> outside(engine, 1);
  engine.fill_zero(outside.data(), outside.bytes());
  key_by_range<<<blocks_for_threads(n), kBlockThreads, 0, stream>>>(ids, n, dbounds.data(), ranges, keys.data(),
                                                                    index.data(), outside.data());
  MATSAMP_CUDA_LAUNCHED("key_by_range");
  MATSAMP_CHECK(read_one(engine, outside.data()) == 0, "range_positions: an id is outside [", bounds.front(), ", ",
                bounds.back(), ")");
  sort_pairs(engine, keys, index, bits_for(std::max<int64_t>(ranges, 1)));  // stable: ids keep their order
  invert_order<<<blocks_for_threads(n), kBlockThreads, 0, stream>>>(index.data(), n, out.data());
  MATSAMP_CUDA_LAUNCHED("invert_order");
  return out;
}

}  // namespace matsamp::gpu
