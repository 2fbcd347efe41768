// Products with selector matrices on the device: a gather of rows (R·A), the
// per-block column extraction diag(A_1 … A_k)·[C_1; …; C_k], and single entries.
#include "kernels/cuda_check.cuh"
#include "kernels/device_ops.h"
#include "kernels/device_primitives.h"
#include "kernels/warp.cuh"

namespace matsamp::gpu {

namespace {

__global__ void selected_row_lengths(CsrView a, const vid_t* rows, int64_t m, int64_t* lengths) {
  for (int64_t i = thread_index(); i < m; i += thread_count()) lengths[i] = a.rowptr[rows[i] + 1] - a.rowptr[rows[i]];
}

__global__ void gather_rows(CsrView a, const vid_t* rows, int64_t m, const int64_t* out_rowptr, col_t* out_colidx,
                            float* out_values) {
  for (int64_t i = warp_index(); i < m; i += warp_count()) {
    const int64_t from = a.rowptr[rows[i]], len = a.rowptr[rows[i] + 1] - from, to = out_rowptr[i];
    for (int64_t j = lane_index(); j < len; j += 32) {
      out_colidx[to + j] = a.colidx[from + j];
      out_values[to + j] = a.values ? a.values[from + j] : 1.0f;
    }
  }
}

// Selector entries keyed (block, original column), valued by their stacked column.
__global__ void selector_keys(const vid_t* cols, int64_t total_cols, DeviceOffsets col_blocks, uint64_t* keys,
                              int32_t* stacked) {
  for (int64_t j = thread_index(); j < total_cols; j += thread_count()) {
    const int64_t g = block_of(col_blocks.offsets, col_blocks.blocks, j);
    keys[j] = static_cast<uint64_t>(g) << 32 | static_cast<uint64_t>(cols[j]);
    stacked[j] = static_cast<int32_t>(j);
  }
}

// The selector entries [*first, *last) matching entry e of a row in block g.
__device__ inline void selector_hits(const uint64_t* keys, int64_t n, int64_t g, col_t column, int64_t* first,
                                     int64_t* last) {
  const uint64_t key = static_cast<uint64_t>(g) << 32 | static_cast<uint32_t>(column);
  *first = lower_bound_in(keys, n, key);
  *last = upper_bound_in(keys, n, key);
}

__global__ void count_selected(CsrView a, DeviceOffsets row_blocks, const uint64_t* keys, int64_t n, int64_t* counts) {
  for (int64_t r = warp_index(); r < a.rows; r += warp_count()) {
    const int64_t g = block_of(row_blocks.offsets, row_blocks.blocks, r);
    int64_t count = 0;
    for (int64_t e = a.rowptr[r] + lane_index(); e < a.rowptr[r + 1]; e += 32) {
      int64_t first, last;
      selector_hits(keys, n, g, a.colidx[e], &first, &last);
      count += last - first;
    }
    count = warp_sum(count);
    if (lane_index() == 0) counts[r] = count;
  }
}

__global__ void fill_selected(CsrView a, DeviceOffsets row_blocks, const uint64_t* keys, const int32_t* stacked,
                              int64_t n, const float* weights, const int64_t* out_rowptr, col_t* out_colidx,
                              float* out_values) {
  for (int64_t r = warp_index(); r < a.rows; r += warp_count()) {
    const int64_t g = block_of(row_blocks.offsets, row_blocks.blocks, r);
    const int64_t begin = a.rowptr[r], end = a.rowptr[r + 1];
    int64_t written = out_rowptr[r];
    for (int64_t base = begin; base < end; base += 32) {  // the same trip count on every lane
      const int64_t e = base + lane_index();
      int64_t first = 0, last = 0;
      if (e < end) selector_hits(keys, n, g, a.colidx[e], &first, &last);
      const int64_t hits = last - first, through = warp_inclusive_sum(hits);
      int64_t at = written + through - hits;
      const float v = e < end && a.values ? a.values[e] : 1.0f;
      for (int64_t t = first; t < last; ++t, ++at) {
        out_colidx[at] = stacked[t];
        out_values[at] = weights ? v * weights[stacked[t]] : v;
      }
      written += __shfl_sync(kFullWarp, through, 31);
    }
  }
}

// out[i] = P[r, cols[i]] (0 when absent), r the block of i in `blocks` (row 0
// when P is one shared row); rows of P are sorted.
__global__ void lookup_entries(CsrView p, DeviceOffsets blocks, const vid_t* cols, float* out) {
  for (int64_t i = thread_index(); i < blocks.total; i += thread_count()) {
    const int64_t r = p.rows == 1 ? 0 : block_of(blocks.offsets, blocks.blocks, i);
    const int64_t begin = p.rowptr[r], len = p.rowptr[r + 1] - begin;
    const col_t c = static_cast<col_t>(cols[i]);
    const int64_t at = lower_bound_in(p.colidx + begin, len, c);
    out[i] = at < len && p.colidx[begin + at] == c ? p.values[begin + at] : 0.0f;
  }
}

// out[e] = the position in A of the entry (rows[i], columns[S.colidx[e]]) for each
// entry e of S's row i (columns null: S's column ids are A's), -1 when absent;
// rows of A are sorted. A warp per row of S.
__global__ void locate_entries(CsrView a, const vid_t* rows, CsrView s, const vid_t* columns, vid_t* out) {
  for (int64_t i = warp_index(); i < s.rows; i += warp_count()) {
    const int64_t begin = a.rowptr[rows[i]], len = a.rowptr[rows[i] + 1] - begin;
    for (int64_t e = s.rowptr[i] + lane_index(); e < s.rowptr[i + 1]; e += 32) {
      const col_t c = columns ? static_cast<col_t>(columns[s.colidx[e]]) : s.colidx[e];
      const int64_t at = lower_bound_in(a.colidx + begin, len, c);
      out[e] = at < len && a.colidx[begin + at] == c ? begin + at : -1;
    }
  }
}

}  // namespace

DeviceArray<vid_t> entry_positions(DeviceEngine& engine, const CsrView& a, const vid_t* rows, const CsrView& s,
                                   const vid_t* columns) {
  DeviceArray<vid_t> out(engine, s.nnz);
  if (s.rows > 0 && s.nnz > 0) {
    locate_entries<<<blocks_for_warps(s.rows), kBlockThreads, 0, stream_of(engine)>>>(a, rows, s, columns, out.data());
    MATSAMP_CUDA_LAUNCHED("locate_entries");
  }
  return out;
}

DeviceArray<float> entries_at(DeviceEngine& engine, const CsrView& p, DeviceOffsets blocks, const vid_t* cols) {
  DeviceArray<float> out(engine, blocks.total);
  if (blocks.total > 0) {
    lookup_entries<<<blocks_for_threads(blocks.total), kBlockThreads, 0, stream_of(engine)>>>(p, blocks, cols,
                                                                                              out.data());
    MATSAMP_CUDA_LAUNCHED("lookup_entries");
  }
  return out;
}

DeviceCsr select_rows(DeviceEngine& engine, const CsrView& a, const vid_t* rows, int64_t m) {
  const cudaStream_t stream = stream_of(engine);
  DeviceArray<int64_t> lengths(engine, m);
  if (m > 0) {
    selected_row_lengths<<<blocks_for_threads(m), kBlockThreads, 0, stream>>>(a, rows, m, lengths.data());
    MATSAMP_CUDA_LAUNCHED("selected_row_lengths");
  }
  DeviceCsr out = csr_from_row_counts(engine, m, a.cols, lengths.data());
  if (out.nnz() > 0) {
    gather_rows<<<blocks_for_warps(m), kBlockThreads, 0, stream>>>(a, rows, m, out.rowptr.data(), out.colidx.data(),
                                                                   out.values.data());
    MATSAMP_CUDA_LAUNCHED("gather_rows");
  }
  return out;
}

DeviceCsr select_cols_blocked(DeviceEngine& engine, const CsrView& a, DeviceOffsets row_blocks, const vid_t* cols,
                              DeviceOffsets col_blocks, const float* weights) {
  const cudaStream_t stream = stream_of(engine);
  const int64_t total_cols = col_blocks.total;
  DeviceArray<uint64_t> keys(engine, total_cols);
  DeviceArray<int32_t> stacked(engine, total_cols);
  if (total_cols > 0) {
    selector_keys<<<blocks_for_threads(total_cols), kBlockThreads, 0, stream>>>(cols, total_cols, col_blocks,
                                                                                keys.data(), stacked.data());
    MATSAMP_CUDA_LAUNCHED("selector_keys");
  }
  // Stable: equal (block, column) pairs keep ascending stacked columns, as on the CPU.
  sort_pairs(engine, keys, stacked, 32 + bits_for(col_blocks.blocks + 1));

  DeviceArray<int64_t> counts(engine, a.rows);
  if (a.rows > 0) {
    count_selected<<<blocks_for_warps(a.rows), kBlockThreads, 0, stream>>>(a, row_blocks, keys.data(), total_cols,
                                                                           counts.data());
    MATSAMP_CUDA_LAUNCHED("count_selected");
  }
  DeviceCsr out = csr_from_row_counts(engine, a.rows, total_cols, counts.data());
  if (out.nnz() > 0) {
    fill_selected<<<blocks_for_warps(a.rows), kBlockThreads, 0, stream>>>(a, row_blocks, keys.data(), stacked.data(),
                                                                          total_cols, weights, out.rowptr.data(),
                                                                          out.colidx.data(), out.values.data());
    MATSAMP_CUDA_LAUNCHED("fill_selected");
  }
  sort_rows(engine, out.rows, out.rowptr.data(), out.colidx, out.values);
  return out;
}

}  // namespace matsamp::gpu
