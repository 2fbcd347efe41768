#include "sampling/sampler.h"

namespace matsamp {

void check_layer_sizes(const std::vector<int64_t>& sizes, const char* what) {
  MATSAMP_CHECK(!sizes.empty(), what, ": at least one layer is needed");
  for (size_t l = 0; l < sizes.size(); ++l)
    MATSAMP_CHECK(sizes[l] > 0, what, ": layer ", l, " has ", sizes[l], " samples; every layer needs at least 1");
}

const std::vector<vid_t>& frontier_of(const BulkSample& bulk, size_t l) {
  return l == 0 ? bulk.seeds : bulk.layers[l - 1].vertices;
}

}  // namespace matsamp
