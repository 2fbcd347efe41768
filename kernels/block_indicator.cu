// block_indicator on the device, by sorting: each id is keyed (block, id); the distinct keys, in ascending order, are the
// entries of Q row by row with ascending columns, and a block's row starts at
// its first key.
#include "kernels/cuda_check.cuh"
#include "kernels/device_ops.h"
#include "kernels/device_primitives.h"

namespace matsamp::gpu {

namespace {

__global__ void key_blocked_ids(const vid_t* ids, DeviceOffsets blocks, uint64_t* keys, int32_t* position) {
  for (int64_t j = thread_index(); j < blocks.total; j += thread_count()) {
    const int64_t g = block_of(blocks.offsets, blocks.blocks, j);
    keys[j] = static_cast<uint64_t>(g) << 32 | static_cast<uint64_t>(ids[j]);
    position[j] = static_cast<int32_t>(j);
  }
}

__global__ void indicator_entries(const uint64_t* distinct, int64_t n, col_t* colidx, float* values) {
  for (int64_t u = thread_index(); u < n; u += thread_count()) {
    colidx[u] = static_cast<col_t>(distinct[u] & 0xFFFFFFFFu);
    values[u] = 1.0f;
  }
}

__global__ void indicator_rowptr(const uint64_t* distinct, int64_t n, int64_t k, int64_t* rowptr) {
  for (int64_t g = thread_index(); g <= k; g += thread_count())
    rowptr[g] = lower_bound_in(distinct, n, static_cast<uint64_t>(g) << 32);
}

}  // namespace

DeviceCsr block_indicator(DeviceEngine& engine, const vid_t* ids, DeviceOffsets blocks, int64_t cols) {
  const cudaStream_t stream = stream_of(engine);
  const int64_t k = blocks.blocks, m = blocks.total;
  DeviceArray<uint64_t> keys(engine, m);
  DeviceArray<int32_t> position(engine, m);  // the sort's payload, unused after it
  if (m > 0) {
    key_blocked_ids<<<blocks_for_threads(m), kBlockThreads, 0, stream>>>(ids, blocks, keys.data(), position.data());
    MATSAMP_CUDA_LAUNCHED("key_blocked_ids");
  }
  sort_pairs(engine, keys, position, 32 + bits_for(k + 1));
  position.reset();
  DeviceArray<uint64_t> distinct;
  DeviceArray<int64_t> starts;
  const int64_t n = group_sorted_keys(engine, keys.data(), m, distinct, starts, nullptr);
  keys.reset();
  starts.reset();

  DeviceCsr q(engine, k, cols, n);
  if (n > 0) {
    indicator_entries<<<blocks_for_threads(n), kBlockThreads, 0, stream>>>(distinct.data(), n, q.colidx.data(),
                                                                           q.values.data());
    MATSAMP_CUDA_LAUNCHED("indicator_entries");
  }
  indicator_rowptr<<<blocks_for_threads(k + 1), kBlockThreads, 0, stream>>>(distinct.data(), n, k, q.rowptr.data());
  MATSAMP_CUDA_LAUNCHED("indicator_rowptr");
  return q;
}

}  // namespace matsamp::gpu
