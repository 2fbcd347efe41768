#include "kernels/cuda_check.cuh"
#include "kernels/device_primitives.h"
#include "kernels/gpu_memory_plan.h"
#include "kernels/spgemm_chunks.h"

namespace matsamp::gpu {

namespace {

__global__ void count_row_products(CsrView a, CsrView b, int64_t* work) {
  for (int64_t r = thread_index(); r < a.rows; r += thread_count()) {
    int64_t products = 0;
    for (int64_t e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e) {
      const col_t k = a.colidx[e];
      products += b.rowptr[k + 1] - b.rowptr[k];
    }
    work[r] = products;
  }
}

__global__ void count_products_of_entries(CsrView a, CsrView b, int64_t first_entry, int64_t entries, int64_t* counts) {
  for (int64_t i = thread_index(); i < entries; i += thread_count()) {
    const col_t k = a.colidx[first_entry + i];
    counts[i] = b.rowptr[k + 1] - b.rowptr[k];
  }
}

__global__ void shift_row_pointers(const int64_t* from, int64_t rows, int64_t shift, int64_t* to) {
  for (int64_t r = thread_index(); r <= rows; r += thread_count()) to[r] = from[r] + shift;
}

}  // namespace

void count_entry_products(DeviceEngine& engine, const CsrView& a, const CsrView& b, int64_t first_entry,
                          int64_t entries, int64_t* counts) {
  if (entries == 0) return;
  count_products_of_entries<<<blocks_for_threads(entries), kBlockThreads, 0, stream_of(engine)>>>(a, b, first_entry,
                                                                                                  entries, counts);
  MATSAMP_CUDA_LAUNCHED("count_products_of_entries");
}

std::vector<RowChunk> plan_row_chunks(DeviceEngine& engine, const CsrView& a, const CsrView& b, int64_t max_products) {
  if (a.rows == 0) return {};
  DeviceArray<int64_t> work(engine, a.rows);
  count_row_products<<<blocks_for_threads(a.rows), kBlockThreads, 0, stream_of(engine)>>>(a, b, work.data());
  MATSAMP_CUDA_LAUNCHED("count_row_products");
  DeviceArray<int64_t> work_prefix(engine, a.rows + 1);
  const int64_t total = offsets_from_counts(engine, work.data(), a.rows, work_prefix.data());
  if (total <= max_products) return {RowChunk{0, a.rows, 0, a.nnz, total}};

  // Too many products at once: the prefixes come to the host to cut the rows.
  const std::vector<int64_t> prefix = to_host(engine, work_prefix);
  const std::vector<int64_t> rowptr = to_host(engine, a.rowptr, a.rows + 1);
  const std::vector<int64_t> bounds = split_rows_by_work(prefix, max_products);
  std::vector<RowChunk> chunks;
  for (size_t i = 0; i + 1 < bounds.size(); ++i) {
    const int64_t r0 = bounds[i], r1 = bounds[i + 1];
    chunks.push_back({r0, r1, rowptr[r0], rowptr[r1], prefix[r1] - prefix[r0]});
  }
  return chunks;
}

DeviceCsr stack_rows(DeviceEngine& engine, std::vector<DeviceCsr> pieces, int64_t rows, int64_t cols) {
  if (pieces.size() == 1 && pieces[0].rows == rows) return std::move(pieces[0]);
  int64_t nnz = 0;
  for (const DeviceCsr& p : pieces) nnz += p.nnz();
  DeviceCsr out(engine, rows, cols, nnz);
  engine.fill_zero(out.rowptr.data(), sizeof(int64_t));
  int64_t row = 0, entry = 0;
  for (DeviceCsr& p : pieces) {
    shift_row_pointers<<<blocks_for_threads(p.rows + 1), kBlockThreads, 0, stream_of(engine)>>>(
        p.rowptr.data(), p.rows, entry, out.rowptr.data() + row);
    MATSAMP_CUDA_LAUNCHED("shift_row_pointers");
    engine.copy_on_device(out.colidx.data() + entry, p.colidx.data(), p.colidx.bytes());
    engine.copy_on_device(out.values.data() + entry, p.values.data(), p.values.bytes());
    row += p.rows;
    entry += p.nnz();
    p = DeviceCsr();  // give the piece back to the pool as soon as it is copied
  }
  return out;
}

}  // namespace matsamp::gpu
