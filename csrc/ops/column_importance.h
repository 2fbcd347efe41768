// How strongly guided sampling (guided_sample_rows) prefers each column: weight 1
// unless listed, listed weights in (0, 1]. DGS lists a partition's remote
// neighbours with their learned mask, so the list is as long as the partition's
// boundary, not n.
#pragma once
#include <vector>

#include "core/csr.h"

namespace matsamp {

class ColumnImportance {
 public:
  ColumnImportance() = default;  // every column weighs 1
  // ids ascending and distinct, weights[i] in (0, 1] for ids[i]; checked.
  ColumnImportance(std::vector<vid_t> ids, std::vector<float> weights);

  float of(vid_t column) const;

 private:
  std::vector<vid_t> ids_;
  std::vector<float> weights_;
};

}  // namespace matsamp
