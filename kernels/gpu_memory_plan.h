// Host-side sizing decisions of the CUDA backend, apart from CUDA so that they
// are unit-tested on machines without a GPU.
#pragma once
#include <cstdint>
#include <vector>

namespace matsamp {

// Bytes a CSR of `rows` rows and `nnz` entries takes on the device (int64 row
// pointers, int32 column ids, float values when `values`).
int64_t device_csr_bytes(int64_t rows, int64_t nnz, bool values = true);

// Device bytes per byte of a sampler's bytes_per_minibatch estimate (written
// for the CPU ops): the device sorts keep double buffers and keys beside the
// data. An estimate, to be calibrated with bench's gpu_bytes_per_minibatch.
constexpr int64_t kGpuBytesPerEstimatedByte = 3;

// The memory budget, in the units of Sampler::bytes_per_minibatch, that makes
// a bulk use at most `fraction` of the GPU memory left free once `graph_bytes`
// (not yet on the device) are uploaded. At least 1.
int64_t gpu_memory_budget(int64_t free_bytes, int64_t graph_bytes, double fraction);

// A bulk of k minibatches needed more than `needed_bytes` while only
// `available_bytes` exist. The largest k' < k expected to fit if memory grows
// in proportion to k; 0 when not even one minibatch fits.
int64_t bulk_size_that_fits(int64_t k, int64_t needed_bytes, int64_t available_bytes);

// Splits rows into consecutive chunks of at most `budget` work each, given the
// work prefix (rows + 1 entries, work_prefix[0] = 0). A row heavier than the
// budget is a chunk on its own. Returns the chunk boundaries (first 0, last rows).
std::vector<int64_t> split_rows_by_work(const std::vector<int64_t>& work_prefix, int64_t budget);

}  // namespace matsamp
