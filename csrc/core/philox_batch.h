// Philox numbers for many keys that differ only in their row, as a sampler
// needs when it decides every entry of a long row (LABOR: one number per
// column), or for many draws of one row. Equal to random_bits / uniform01 of
// philox.h, number for number; with AVX2 (checked at run time) eight counters
// run per instruction.
#pragma once
#include <cstdint>

#include "core/philox.h"

namespace matsamp {

// out[i] = uniform01(random_bits(key with row = rows[i], draw)) for i < count.
// Rows are 32-bit (column ids); key.row is ignored.
void uniform01_of_rows(const RandomKey& key, uint32_t draw, const int32_t* rows, int64_t count, double* out);

// out[d] = random_bits(key, first_draw + d) for d < count: a row's consecutive
// draws (its_sample's), eight per instruction with AVX2.
void random_bits_of_draws(const RandomKey& key, uint32_t first_draw, int64_t count, uint64_t* out);

// Whether uniform01_of_rows and random_bits_of_draws use their AVX2 paths on this machine.
bool philox_batch_uses_avx2();

}  // namespace matsamp
