#include "backend/device_memory.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace matsamp {

int64_t device_csr_bytes(int64_t rows, int64_t nnz, bool values) { return 8 * (rows + 1) + nnz * (values ? 8 : 4); }

int64_t device_memory_budget(int64_t free_bytes, int64_t graph_bytes, double fraction) {
  MATSAMP_CHECK(fraction > 0 && fraction <= 1, "GPU memory fraction must be in (0, 1], got ", fraction);
  const double left = static_cast<double>(std::max<int64_t>(0, free_bytes - graph_bytes));
  return std::max<int64_t>(1, static_cast<int64_t>(left * fraction) / kDeviceBytesPerEstimatedByte);
}

namespace {
std::string gib(int64_t bytes) {
  return detail::concat(static_cast<double>(static_cast<int64_t>(bytes / 1.073741824e7)) / 100, " GiB");
}
}  // namespace

DeviceOutOfMemory::DeviceOutOfMemory(const std::string& what, int64_t requested, int64_t in_use, int64_t available,
                                     int64_t resident)
    : Error(what),
      requested_bytes(requested),
      in_use_bytes(in_use),
      available_bytes(available),
      resident_bytes(resident) {}

Error explain_out_of_memory(const DeviceOutOfMemory& e, int64_t bulk_size) {
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

int64_t bulk_size_that_fits(int64_t k, int64_t needed_bytes, int64_t available_bytes) {
  if (k <= 1 || needed_bytes <= 0) return 0;
  const double scaled = static_cast<double>(k) * static_cast<double>(std::max<int64_t>(0, available_bytes)) /
                        static_cast<double>(needed_bytes);
  // needed_bytes is a lower bound of what k needed, so the estimate is an
  // upper bound: never suggest k itself again.
  return std::clamp<int64_t>(static_cast<int64_t>(std::floor(scaled)), 0, k - 1);
}

}  // namespace matsamp
