// Row chunks of a product C = A·B that bound its temporaries, shared by the
// ordered and the cuSPARSE SpGEMM.
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/device_csr.h"

namespace matsamp::gpu {

struct RowChunk {
  int64_t first_row = 0, last_row = 0;      // rows [first_row, last_row) of A
  int64_t first_entry = 0, last_entry = 0;  // their entries of A
  int64_t products = 0;                     // scalar products a_ik·b_kj
};

// Consecutive row ranges of at most max_products products each (a heavier row
// alone); none when A has no rows.
std::vector<RowChunk> plan_row_chunks(DeviceEngine& engine, const CsrView& a, const CsrView& b, int64_t max_products);

// counts[i] = entries of B's row a.colidx[first_entry + i], for i < entries.
void count_entry_products(DeviceEngine& engine, const CsrView& a, const CsrView& b, int64_t first_entry,
                          int64_t entries, int64_t* counts);

// The pieces (row chunks, in order) stacked into one rows x cols matrix.
DeviceCsr stack_rows(DeviceEngine& engine, std::vector<DeviceCsr> pieces, int64_t rows, int64_t cols);

}  // namespace matsamp::gpu
