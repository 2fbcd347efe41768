#include "feature_fetcher.h"

#include <algorithm>

#include "ask_owners.h"
#include "core/error.h"

namespace matsamp {

FeatureFetcher::FeatureFetcher(ProcessGrid& grid, int64_t n, int64_t feature_dim, const float* block, size_t floats)
    : grid_(grid), blocks_{n, grid.process_rows()}, feature_dim_(feature_dim), block_(block) {
  const int64_t rows = blocks_.end(grid.row()) - blocks_.begin(grid.row());
  MATSAMP_CHECK(feature_dim > 0 && static_cast<int64_t>(floats) == rows * feature_dim, "FeatureFetcher: block of ",
                floats, " floats for ", rows, " rows of ", feature_dim, " features");
}

std::vector<float> FeatureFetcher::fetch(const std::vector<vid_t>& ids) {
  Communicator& column = grid_.col_comm();  // column rank q holds block row q
  for (vid_t v : ids)
    MATSAMP_CHECK(v >= 0 && v < blocks_.n, "FeatureFetcher: vertex ", v, " outside [0, ", blocks_.n, ")");
  // Unique ids in ascending order are already bucketed by owner.
  std::vector<vid_t> wanted(ids);
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  const vid_t first = blocks_.begin(grid_.row()), end = blocks_.end(grid_.row());
  const std::vector<float> fetched = ask_owners<float>(column, blocks_, wanted, feature_dim_, [&](vid_t v, float* row) {
    MATSAMP_CHECK(v >= first && v < end, "FeatureFetcher: asked for row ", v, " outside this rank's block");
    std::copy_n(block_ + (v - first) * feature_dim_, feature_dim_, row);
  });

  std::vector<float> out(ids.size() * feature_dim_);
  for (size_t i = 0; i < ids.size(); ++i) {
    const size_t at = std::lower_bound(wanted.begin(), wanted.end(), ids[i]) - wanted.begin();
    std::copy_n(fetched.begin() + at * feature_dim_, feature_dim_, out.begin() + i * feature_dim_);
  }
  return out;
}

const float* feature_block_of(const std::vector<float>& features, int64_t feature_dim, const ProcessGrid& grid) {
  MATSAMP_CHECK(feature_dim > 0 && features.size() % feature_dim == 0, "feature_block_of: ", features.size(),
                " floats are not rows of ", feature_dim);
  const RowBlocks blocks{static_cast<int64_t>(features.size()) / feature_dim, grid.process_rows()};
  return features.data() + blocks.begin(grid.row()) * feature_dim;
}

}  // namespace matsamp
