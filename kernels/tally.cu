// Tallies on the device (ops.h: tally_ids, tally_induced_entries,
// normalize_rows_by_tallies). Counts are integers added atomically, so any order
// gives the CPU's; the rescaled rows are summed in row order in double, as on the CPU.
#include <algorithm>

#include "kernels/cuda_check.cuh"
#include "kernels/device_ops.h"
#include "kernels/device_primitives.h"

namespace matsamp::gpu {

namespace {

__device__ void add_one(int64_t* count) { atomicAdd(reinterpret_cast<unsigned long long*>(count), 1ull); }

__global__ void tally_each_id(const vid_t* ids, int64_t m, int64_t* counts) {
  for (int64_t i = thread_index(); i < m; i += thread_count()) add_one(&counts[ids[i]]);
}

// (block, vertex) of every id: sorted, each block's ids come out ascending in
// the block's own positions (its size is unchanged).
__global__ void key_block_ids(const vid_t* ids, DeviceOffsets blocks, int vertex_bits, uint64_t* keys) {
  for (int64_t g = blockIdx.x; g < blocks.blocks; g += gridDim.x)
    for (int64_t i = blocks.offsets[g] + threadIdx.x; i < blocks.offsets[g + 1]; i += blockDim.x)
      keys[i] = (static_cast<uint64_t>(g) << vertex_bits) | static_cast<uint64_t>(ids[i]);
}

// A warp per listed vertex u of block g: each entry (u, v) of a whose v is in
// block g (a binary search of the block's sorted ids) is counted once.
__global__ void tally_block_entries(CsrView a, const uint64_t* sorted, DeviceOffsets blocks, int vertex_bits,
                                    int64_t* counts) {
  const uint64_t vertex_mask = (uint64_t{1} << vertex_bits) - 1;
  for (int64_t i = warp_index(); i < blocks.total; i += warp_count()) {
    const uint64_t key = sorted[i];
    const int64_t g = static_cast<int64_t>(key >> vertex_bits), u = static_cast<int64_t>(key & vertex_mask);
    const uint64_t* first = sorted + blocks.offsets[g];
    const int64_t size = blocks.offsets[g + 1] - blocks.offsets[g];
    for (int64_t e = a.rowptr[u] + lane_index(); e < a.rowptr[u + 1]; e += 32) {
      const uint64_t want = (static_cast<uint64_t>(g) << vertex_bits) | static_cast<uint64_t>(a.colidx[e]);
      int64_t lo = 0, hi = size;
      while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (first[mid] < want) lo = mid + 1;
        else hi = mid;
      }
      if (lo < size && first[lo] == want) add_one(&counts[e]);
    }
  }
}

__global__ void scale_rows_by_tallies(CsrView a, const int64_t* row_tallies, const int64_t* entry_tallies, float* out) {
  for (int64_t v = thread_index(); v < a.rows; v += thread_count()) {
    double row_sum = 0;
    for (int64_t e = a.rowptr[v]; e < a.rowptr[v + 1]; ++e) row_sum += a.values ? a.values[e] : 1.0;
    for (int64_t e = a.rowptr[v]; e < a.rowptr[v + 1]; ++e) {
      const double value = a.values ? a.values[e] : 1.0;
      const double scale = row_tallies[v] > 0 && entry_tallies[e] > 0
                               ? static_cast<double>(row_tallies[v]) / static_cast<double>(entry_tallies[e])
                               : 1.0;
      out[e] = row_sum > 0 ? static_cast<float>(value / row_sum * scale) : 0.0f;
    }
  }
}

}  // namespace

void tally_ids(DeviceEngine& engine, int64_t* counts, const vid_t* ids, int64_t m) {
  if (m == 0) return;
  tally_each_id<<<blocks_for_threads(m), kBlockThreads, 0, stream_of(engine)>>>(ids, m, counts);
  MATSAMP_CUDA_LAUNCHED("tally_each_id");
}

void tally_induced_entries(DeviceEngine& engine, int64_t* counts, const CsrView& a, const vid_t* ids,
                           DeviceOffsets blocks) {
  if (blocks.total == 0) return;
  const cudaStream_t stream = stream_of(engine);
  const int vertex_bits = bits_for(a.cols);
  DeviceArray<uint64_t> keys(engine, blocks.total);
  const unsigned grid = static_cast<unsigned>(std::min<int64_t>(blocks.blocks, int64_t{1} << 16));
  key_block_ids<<<grid, kBlockThreads, 0, stream>>>(ids, blocks, vertex_bits, keys.data());
  MATSAMP_CUDA_LAUNCHED("key_block_ids");
  sort_keys(engine, keys, vertex_bits + bits_for(blocks.blocks));
  tally_block_entries<<<blocks_for_threads(32 * blocks.total), kBlockThreads, 0, stream>>>(a, keys.data(), blocks,
                                                                                           vertex_bits, counts);
  MATSAMP_CUDA_LAUNCHED("tally_block_entries");
}

DeviceCsr normalize_rows_by_tallies(DeviceEngine& engine, const CsrView& a, const int64_t* row_tallies,
                                    const int64_t* entry_tallies) {
  DeviceCsr out(engine, a.rows, a.cols, a.nnz);
  engine.copy_on_device(out.rowptr.data(), a.rowptr, out.rowptr.bytes());
  if (a.nnz > 0) engine.copy_on_device(out.colidx.data(), a.colidx, out.colidx.bytes());
  if (a.rows > 0) {
    scale_rows_by_tallies<<<blocks_for_threads(a.rows), kBlockThreads, 0, stream_of(engine)>>>(
        a, row_tallies, entry_tallies, out.values.data());
    MATSAMP_CUDA_LAUNCHED("scale_rows_by_tallies");
  }
  return out;
}

}  // namespace matsamp::gpu
