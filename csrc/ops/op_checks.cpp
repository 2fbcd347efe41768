#include "ops/op_checks.h"

namespace matsamp {

void check_sample_keys(const SampleKeys& keys, int64_t s, const char* op) {
  MATSAMP_CHECK(s > 0, op, ": sample count must be positive, got ", s);
  const Offsets& offsets = keys.row_offsets;
  MATSAMP_CHECK(offsets.size() >= 2 && offsets.front() == 0, op, ": row offsets must start at 0");
  for (size_t g = 1; g < offsets.size(); ++g)
    MATSAMP_CHECK(offsets[g - 1] <= offsets[g], op, ": row offsets decrease at block ", g);
}

void check_block_offsets(const Offsets& offsets, int64_t total, const char* op, const char* what) {
  MATSAMP_CHECK(!offsets.empty() && offsets.front() == 0 && offsets.back() == total, op, ": ",
                what, " must run from 0 to ", total);
  for (size_t g = 1; g < offsets.size(); ++g)
    MATSAMP_CHECK(offsets[g - 1] <= offsets[g], op, ": ", what, " decrease at block ", g);
}

}  // namespace matsamp
