// sequence_runs and gather_ids on the device: a thread per item of the result.
#include "kernels/cuda_check.cuh"
#include "kernels/device_ops.h"

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

}  // namespace matsamp::gpu
