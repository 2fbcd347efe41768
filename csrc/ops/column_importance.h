// How strongly guided sampling (guided_sample_rows) prefers each column: weight 1
// unless listed (or, given a range, outside it), listed weights in (0, 1]. DGS lists a partition's remote
// neighbours with their learned mask, so the list is as long as the partition's
// boundary, not n.
#pragma once
#include <cstdint>
#include <vector>

#include "core/csr.h"

namespace matsamp {

class ColumnImportance {
 public:
  ColumnImportance();  // every column weighs 1
  // ids ascending and distinct, weights[i] in (0, 1] for ids[i]; checked.
  ColumnImportance(std::vector<vid_t> ids, std::vector<float> weights);
  // Listed columns their weight, columns in [own_first, own_end) 1, every other
  // one `elsewhere` in (0, 1] (DGS: a partition's own vertices, its explained
  // remote neighbours, and the remote vertices further away).
  ColumnImportance(std::vector<vid_t> ids, std::vector<float> weights, vid_t own_first, vid_t own_end, float elsewhere);

  float of(vid_t column) const;

  const std::vector<vid_t>& ids() const { return ids_; }
  const std::vector<float>& weights() const { return weights_; }
  vid_t own_first() const { return own_first_; }
  vid_t own_end() const { return own_end_; }
  float elsewhere() const { return elsewhere_; }
  // Unique to each importance built in this process (copies, equal, share it):
  // what a backend that keeps a copy on its device checks that copy by.
  uint64_t serial() const { return serial_; }

 private:
  std::vector<vid_t> ids_;
  std::vector<float> weights_;
  vid_t own_first_ = 0, own_end_ = 0;
  float elsewhere_ = 1.0f;
  uint64_t serial_;
};

}  // namespace matsamp
