// The out-of-memory error and the advice it turns into; host code, built with
// or without CUDA so that the advice is tested everywhere.
#include "kernels/cuda_backend.h"
#include "kernels/gpu_memory_plan.h"

namespace matsamp {

namespace {
std::string gib(int64_t bytes) {
  return detail::concat(static_cast<double>(static_cast<int64_t>(bytes / 1.073741824e7)) / 100, " GiB");
}
}  // namespace

GpuOutOfMemory::GpuOutOfMemory(const std::string& what, int64_t requested, int64_t in_use, int64_t available,
                               int64_t resident)
    : Error(what),
      requested_bytes(requested),
      in_use_bytes(in_use),
      available_bytes(available),
      resident_bytes(resident) {}

Error explain_out_of_memory(const GpuOutOfMemory& e, int64_t bulk_size) {
  // What the bulk itself needed and could have had, the resident graph aside.
  const int64_t needed = e.in_use_bytes - e.resident_bytes + e.requested_bytes;
  const int64_t available = e.available_bytes - e.resident_bytes;
  const int64_t fits = bulk_size_that_fits(bulk_size, needed, available);
  const std::string head = detail::concat("GPU out of memory sampling ", bulk_size, " minibatch",
                                          bulk_size == 1 ? "" : "es", " at once (they needed more than ", gib(needed),
                                          "; ", gib(available), " are usable beside the graph's ",
                                          gib(e.resident_bytes), "): ");
  if (fits > 0) return Error(head + detail::concat("use --bulk-size ", fits, " or less"));
  return Error(head + "not even one minibatch fits; lower --batch-size or the fanouts/samples");
}

}  // namespace matsamp
