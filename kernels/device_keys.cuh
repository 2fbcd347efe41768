// The random key of keyed row r on the device: its block's minibatch and its place
// in the block, as row_key of ops.h, or its request's words when other processes
// asked for the rows (DeviceKeys::words, ops.h: request_rows).
#pragma once
#include "core/philox.h"
#include "kernels/cuda_check.cuh"
#include "kernels/device_ops.h"

namespace matsamp::gpu {

__device__ inline RandomKey key_of(const DeviceKeys& keys, int64_t r) {
  if (keys.words)
    return {keys.seed, keys.epoch, keys.layer, static_cast<uint64_t>(keys.words[2 * r]),
            static_cast<uint64_t>(keys.words[2 * r + 1]) >> 32};
  const int64_t g = block_of(keys.rows.offsets, keys.rows.blocks, r);
  return {keys.seed, keys.epoch, keys.layer, static_cast<uint64_t>(keys.first_minibatch + g),
          static_cast<uint64_t>(r - keys.rows.offsets[g])};
}

}  // namespace matsamp::gpu
