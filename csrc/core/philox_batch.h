// Philox numbers for many keys that differ only in their row, as a sampler
// needs when it decides every entry of a long row (LABOR: one number per
// column). Equal to random_bits / uniform01 of philox.h, number for number;
// with AVX2 (checked at run time) eight counters run per instruction.
#pragma once
#include <cstdint>

#include "core/philox.h"

namespace matsamp {

// out[i] = uniform01(random_bits(key with row = rows[i], draw)) for i < count.
// Rows are 32-bit (column ids); key.row is ignored.
void uniform01_of_rows(const RandomKey& key, uint32_t draw, const int32_t* rows, int64_t count, double* out);

// Whether uniform01_of_rows uses its AVX2 path on this machine.
bool philox_batch_uses_avx2();

}  // namespace matsamp
