// C = A·B, bit-identical to the CPU's Gustavson loop: expand every product
// (row, column, a·b), stable-sort by (row, column) so that the products of an
// entry stay in the order of A's row, then sum each run left to right in float.
#include <limits>

#include "kernels/cuda_check.cuh"
#include "kernels/device_ops.h"
#include "kernels/device_primitives.h"
#include "kernels/gpu_memory_plan.h"
#include "kernels/spgemm_chunks.h"

namespace matsamp::gpu {

namespace {

// Device bytes per product: key and value, their sort buffers, run bookkeeping.
constexpr int64_t kBytesPerProduct = 2 * (8 + 4) + 8 + 8 + 8 + 8;

__global__ void expand_products(CsrView a, CsrView b, int64_t first_row, int64_t last_row, int64_t first_entry,
                                int64_t entries, const int64_t* entry_offsets, uint64_t* keys, float* products) {
  for (int64_t i = warp_index(); i < entries; i += warp_count()) {
    const int64_t e = first_entry + i;
    const int64_t row = first_row + upper_bound_in(a.rowptr + first_row, last_row - first_row + 1, e) - 1;
    const uint64_t row_key = static_cast<uint64_t>(row - first_row) << 32;
    const float av = a.values ? a.values[e] : 1.0f;
    const col_t k = a.colidx[e];
    const int64_t f0 = b.rowptr[k], len = b.rowptr[k + 1] - f0;
    for (int64_t j = lane_index(); j < len; j += 32) {
      const int64_t pos = entry_offsets[i] + j;
      keys[pos] = row_key | static_cast<uint32_t>(b.colidx[f0 + j]);
      products[pos] = av * (b.values ? b.values[f0 + j] : 1.0f);  // --fmad=false: no fused add later
    }
  }
}

__global__ void sum_runs(const uint64_t* run_keys, const int64_t* starts, int64_t runs, const float* products,
                         col_t* colidx, float* values) {
  for (int64_t r = thread_index(); r < runs; r += thread_count()) {
    float sum = products[starts[r]];
    for (int64_t p = starts[r] + 1; p < starts[r + 1]; ++p) sum += products[p];
    values[r] = sum;
    colidx[r] = static_cast<col_t>(run_keys[r] & 0xFFFFFFFFu);
  }
}

// Row pointers of a chunk from its sorted unique (row, column) keys.
__global__ void rowptr_from_keys(const uint64_t* run_keys, int64_t runs, int64_t rows, int64_t* rowptr) {
  for (int64_t r = thread_index(); r <= rows; r += thread_count())
    rowptr[r] = lower_bound_in(run_keys, runs, static_cast<uint64_t>(r) << 32);
}

DeviceCsr ordered_chunk(DeviceEngine& engine, const CsrView& a, const CsrView& b, const RowChunk& chunk) {
  const cudaStream_t stream = stream_of(engine);
  const int64_t rows = chunk.last_row - chunk.first_row;
  const int64_t entries = chunk.last_entry - chunk.first_entry;
  DeviceArray<int64_t> entry_work(engine, entries);
  count_entry_products(engine, a, b, chunk.first_entry, entries, entry_work.data());
  DeviceArray<int64_t> entry_offsets(engine, entries + 1);
  const int64_t products = offsets_from_counts(engine, entry_work.data(), entries, entry_offsets.data());
  entry_work.reset();

  DeviceArray<uint64_t> keys(engine, products);
  DeviceArray<float> values(engine, products);
  if (products > 0) {
    expand_products<<<blocks_for_warps(entries), kBlockThreads, 0, stream>>>(
        a, b, chunk.first_row, chunk.last_row, chunk.first_entry, entries, entry_offsets.data(), keys.data(),
        values.data());
    MATSAMP_CUDA_LAUNCHED("expand_products");
  }
  entry_offsets.reset();
  sort_pairs(engine, keys, values, 32 + bits_for(rows));

  DeviceArray<uint64_t> run_keys;
  DeviceArray<int64_t> starts;
  const int64_t runs = group_sorted_keys(engine, keys.data(), products, run_keys, starts, nullptr);
  keys.reset();
  DeviceCsr c(engine, rows, b.cols, runs);
  if (runs > 0) {
    sum_runs<<<blocks_for_threads(runs), kBlockThreads, 0, stream>>>(run_keys.data(), starts.data(), runs,
                                                                     values.data(), c.colidx.data(), c.values.data());
    MATSAMP_CUDA_LAUNCHED("sum_runs");
  }
  rowptr_from_keys<<<blocks_for_threads(rows + 1), kBlockThreads, 0, stream>>>(run_keys.data(), runs, rows,
                                                                               c.rowptr.data());
  MATSAMP_CUDA_LAUNCHED("rowptr_from_keys");
  return c;
}

}  // namespace

DeviceCsr spgemm_ordered(DeviceEngine& engine, const CsrView& a, const CsrView& b, int64_t budget_bytes) {
  const int64_t max_products =
      std::min<int64_t>(std::max<int64_t>(1, budget_bytes / kBytesPerProduct), std::numeric_limits<int32_t>::max());
  const std::vector<RowChunk> chunks = plan_row_chunks(engine, a, b, max_products);
  std::vector<DeviceCsr> pieces;
  for (const RowChunk& chunk : chunks) pieces.push_back(ordered_chunk(engine, a, b, chunk));
  return stack_rows(engine, std::move(pieces), a.rows, b.cols);
}

}  // namespace matsamp::gpu
