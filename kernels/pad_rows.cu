// pad_row_blocks on the device: only the row pointers are written; the entries
// move over unchanged.
#include "kernels/cuda_check.cuh"
#include "kernels/device_ops.h"

namespace matsamp::gpu {

namespace {

// Row pointer r + 1 of the padded matrix: block g's first `pad` rows empty, then m's rows of block g.
__global__ void padded_rowptr(const int64_t* m_rowptr, DeviceOffsets row_blocks, DeviceOffsets padded_blocks,
                              int64_t* rowptr) {
  for (int64_t r = thread_index(); r < padded_blocks.total; r += thread_count()) {
    const int64_t g = block_of(padded_blocks.offsets, padded_blocks.blocks, r);
    const int64_t first = row_blocks.offsets[g], at = r - padded_blocks.offsets[g];
    const int64_t pad = padded_blocks.offsets[g + 1] - padded_blocks.offsets[g] - (row_blocks.offsets[g + 1] - first);
    rowptr[r + 1] = at < pad ? m_rowptr[first] : m_rowptr[first + at - pad + 1];
  }
}

}  // namespace

DeviceCsr pad_row_blocks(DeviceEngine& engine, DeviceCsr m, DeviceOffsets row_blocks, DeviceOffsets padded_blocks) {
  DeviceCsr out;
  out.rows = padded_blocks.total;
  out.cols = m.cols;
  out.rowptr = DeviceArray<int64_t>(engine, out.rows + 1);
  MATSAMP_CUDA_CHECK(cudaMemsetAsync(out.rowptr.data(), 0, sizeof(int64_t), stream_of(engine)));
  if (out.rows > 0) {
    padded_rowptr<<<blocks_for_threads(out.rows), kBlockThreads, 0, stream_of(engine)>>>(
        m.rowptr.data(), row_blocks, padded_blocks, out.rowptr.data());
    MATSAMP_CUDA_LAUNCHED("padded_rowptr");
  }
  out.colidx = std::move(m.colidx);
  out.values = std::move(m.values);
  return out;
}

}  // namespace matsamp::gpu
