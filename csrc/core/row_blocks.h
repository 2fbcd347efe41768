// How n rows split into contiguous equal block rows: one per process row in the
// 1.5D layout, one per locality block of an epoch's minibatches.
#pragma once
#include <cstdint>

#include "core/csr.h"

namespace matsamp {

struct RowBlocks {
  int64_t n = 0;  // rows in all
  int count = 1;  // blocks

  int64_t begin(int block) const { return block * n / count; }
  int64_t end(int block) const { return begin(block + 1); }
  // The block holding row v (0 <= v < n).
  int owner(vid_t v) const {
    int block = static_cast<int>(v * count / n);  // close; floor division may be one off
    while (v < begin(block)) --block;
    while (v >= end(block)) ++block;
    return block;
  }
};

}  // namespace matsamp
