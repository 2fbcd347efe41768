// Argument checks shared by the CPU ops and the CUDA backend, so that both
// reject bad input with the same message.
#pragma once
#include <cstdint>

#include "ops/ops.h"

namespace matsamp {

// Sample count positive; row offsets start at 0 and never decrease.
void check_sample_keys(const SampleKeys& keys, int64_t s, const char* op);

// Offsets run from 0 to total and never decrease; `what` names them in errors.
void check_block_offsets(const Offsets& offsets, int64_t total, const char* op, const char* what);

}  // namespace matsamp
