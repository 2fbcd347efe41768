// Host-side sizing decisions of the CUDA backend, apart from CUDA so that they
// are unit-tested on machines without a GPU.
#pragma once
#include <cstdint>
#include <vector>

#include "backend/device_memory.h"

namespace matsamp {

// Splits rows into consecutive chunks of at most `budget` work each, given the
// work prefix (rows + 1 entries, work_prefix[0] = 0). A row heavier than the
// budget is a chunk on its own. Returns the chunk boundaries (first 0, last rows).
std::vector<int64_t> split_rows_by_work(const std::vector<int64_t>& work_prefix, int64_t budget);

}  // namespace matsamp
