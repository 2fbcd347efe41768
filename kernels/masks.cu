// Link prediction's masks on the device: a frontier's rows of the excluded-edge
// matrix looked up by key (select_rows_by_key), the entries they mask taken out
// (mask_entries), and the row positions a draw over masked rows is keyed by.
#include "kernels/cuda_check.cuh"
#include "kernels/device_ops.h"
#include "kernels/device_primitives.h"
#include "kernels/warp.cuh"

namespace matsamp::gpu {

namespace {

// Row i's key row (-1: none in its block) and its length.
__global__ void find_keyed_rows(const int64_t* m_rowptr, const vid_t* keys, DeviceOffsets key_blocks, const vid_t* rows,
                                DeviceOffsets row_blocks, int64_t* source, int64_t* lengths) {
  for (int64_t i = thread_index(); i < row_blocks.total; i += thread_count()) {
    const int64_t g = block_of(row_blocks.offsets, row_blocks.blocks, i);
    const int64_t first = key_blocks.offsets[g], n = key_blocks.offsets[g + 1] - first;
    const int64_t at = first + lower_bound_in(keys + first, n, rows[i]);
    const bool found = at < first + n && keys[at] == rows[i];
    source[i] = found ? at : -1;
    lengths[i] = found ? m_rowptr[at + 1] - m_rowptr[at] : 0;
  }
}

__global__ void copy_keyed_rows(CsrView m, const int64_t* source, int64_t rows, const int64_t* out_rowptr,
                                col_t* out_colidx, float* out_values) {
  for (int64_t i = warp_index(); i < rows; i += warp_count()) {
    if (source[i] < 0) continue;
    const int64_t from = m.rowptr[source[i]], len = m.rowptr[source[i] + 1] - from, to = out_rowptr[i];
    for (int64_t j = lane_index(); j < len; j += 32) {
      out_colidx[to + j] = m.colidx[from + j];
      out_values[to + j] = m.values ? m.values[from + j] : 1.0f;
    }
  }
}

__device__ inline bool is_masked(const CsrView& mask, int64_t r, col_t column) {
  const int64_t begin = mask.rowptr[r], n = mask.rowptr[r + 1] - begin;
  const int64_t at = begin + lower_bound_in(mask.colidx + begin, n, column);
  return at < begin + n && mask.colidx[at] == column;
}

__global__ void count_unmasked(CsrView p, CsrView mask, int64_t* counts) {
  for (int64_t r = warp_index(); r < p.rows; r += warp_count()) {
    int64_t count = 0;
    for (int64_t e = p.rowptr[r] + lane_index(); e < p.rowptr[r + 1]; e += 32)
      count += !is_masked(mask, r, p.colidx[e]);
    count = warp_sum(count);
    if (lane_index() == 0) counts[r] = count;
  }
}

// Kept entries in row order: each lane's place from a warp scan of the keeps.
__global__ void copy_unmasked(CsrView p, CsrView mask, const int64_t* out_rowptr, col_t* out_colidx,
                              float* out_values) {
  for (int64_t r = warp_index(); r < p.rows; r += warp_count()) {
    const int64_t end = p.rowptr[r + 1];
    int64_t written = out_rowptr[r];
    for (int64_t base = p.rowptr[r]; base < end; base += 32) {  // the same trip count on every lane
      const int64_t e = base + lane_index();
      const int64_t keep = e < end && !is_masked(mask, r, p.colidx[e]) ? 1 : 0;
      const int64_t through = warp_inclusive_sum(keep);
      if (keep) {
        out_colidx[written + through - 1] = p.colidx[e];
        out_values[written + through - 1] = p.values ? p.values[e] : 1.0f;
      }
      written += __shfl_sync(kFullWarp, through, 31);
    }
  }
}

__global__ void fill_sequence(vid_t* ids, int64_t n) {
  for (int64_t i = thread_index(); i < n; i += thread_count()) ids[i] = i;
}

}  // namespace

DeviceCsr select_rows_by_key(DeviceEngine& engine, const CsrView& m, const vid_t* keys, DeviceOffsets key_blocks,
                             const vid_t* rows, DeviceOffsets row_blocks) {
  const cudaStream_t stream = stream_of(engine);
  const int64_t n = row_blocks.total;
  DeviceArray<int64_t> source(engine, n), lengths(engine, n);
  if (n > 0) {
    find_keyed_rows<<<blocks_for_threads(n), kBlockThreads, 0, stream>>>(m.rowptr, keys, key_blocks, rows, row_blocks,
                                                                         source.data(), lengths.data());
    MATSAMP_CUDA_LAUNCHED("find_keyed_rows");
  }
  DeviceCsr out = csr_from_row_counts(engine, n, m.cols, lengths.data());
  if (n > 0 && out.nnz() > 0) {
    copy_keyed_rows<<<blocks_for_warps(n), kBlockThreads, 0, stream>>>(m, source.data(), n, out.rowptr.data(),
                                                                       out.colidx.data(), out.values.data());
    MATSAMP_CUDA_LAUNCHED("copy_keyed_rows");
  }
  return out;
}

DeviceCsr mask_entries(DeviceEngine& engine, const CsrView& p, const CsrView& mask) {
  const cudaStream_t stream = stream_of(engine);
  DeviceArray<int64_t> counts(engine, p.rows);
  if (p.rows > 0) {
    count_unmasked<<<blocks_for_warps(p.rows), kBlockThreads, 0, stream>>>(p, mask, counts.data());
    MATSAMP_CUDA_LAUNCHED("count_unmasked");
  }
  DeviceCsr out = csr_from_row_counts(engine, p.rows, p.cols, counts.data());
  if (p.rows > 0 && out.nnz() > 0) {
    copy_unmasked<<<blocks_for_warps(p.rows), kBlockThreads, 0, stream>>>(p, mask, out.rowptr.data(), out.colidx.data(),
                                                                          out.values.data());
    MATSAMP_CUDA_LAUNCHED("copy_unmasked");
  }
  return out;
}

DeviceArray<vid_t> sequence_ids(DeviceEngine& engine, int64_t n) {
  DeviceArray<vid_t> ids(engine, n);
  if (n > 0) {
    fill_sequence<<<blocks_for_threads(n), kBlockThreads, 0, stream_of(engine)>>>(ids.data(), n);
    MATSAMP_CUDA_LAUNCHED("fill_sequence");
  }
  return ids;
}

}  // namespace matsamp::gpu
