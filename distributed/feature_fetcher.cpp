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

namespace {

// rows[i] = old rows[source[i]] for the permutation `source`, one cycle at a time
// with one spare row: the rows are a minibatch's largest buffer, not copied whole.
void permute_rows(std::vector<float>& rows, const std::vector<size_t>& source, int64_t width) {
  std::vector<bool> placed(source.size(), false);
  std::vector<float> spare(width);
  const auto row = [&](size_t i) { return rows.begin() + static_cast<int64_t>(i) * width; };
  for (size_t start = 0; start < source.size(); ++start) {
    if (placed[start] || source[start] == start) continue;
    std::copy_n(row(start), width, spare.begin());
    size_t i = start;
    for (; source[i] != start; i = source[i]) {
      std::copy_n(row(source[i]), width, row(i));
      placed[i] = true;
    }
    std::copy_n(spare.begin(), width, row(i));
    placed[i] = true;
  }
}

}  // namespace

std::vector<float> FeatureFetcher::fetch(const std::vector<vid_t>& ids) {
  Communicator& column = grid_.col_comm();  // column rank q holds block row q
  for (vid_t v : ids)
    MATSAMP_CHECK(v >= 0 && v < blocks_.n, "FeatureFetcher: vertex ", v, " outside [0, ", blocks_.n, ")");
  // Unique ids in ascending order are already bucketed by owner.
  std::vector<vid_t> wanted(ids);
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  const vid_t first = blocks_.begin(grid_.row()), end = blocks_.end(grid_.row());
  std::vector<float> fetched = ask_owners<float>(column, blocks_, wanted, feature_dim_, [&](vid_t v, float* row) {
    MATSAMP_CHECK(v >= first && v < end, "FeatureFetcher: asked for row ", v, " outside this rank's block");
    std::copy_n(block_ + (v - first) * feature_dim_, feature_dim_, row);
  });

  std::vector<size_t> source(ids.size());  // row i of the result is row source[i] of `fetched`
  for (size_t i = 0; i < ids.size(); ++i)
    source[i] = std::lower_bound(wanted.begin(), wanted.end(), ids[i]) - wanted.begin();
  if (wanted.size() == ids.size()) {  // distinct ids (a minibatch's inputs): rows permuted in place
    permute_rows(fetched, source, feature_dim_);
    return fetched;
  }
  std::vector<float> out(ids.size() * feature_dim_);
  for (size_t i = 0; i < ids.size(); ++i)
    std::copy_n(fetched.begin() + source[i] * feature_dim_, feature_dim_, out.begin() + i * feature_dim_);
  return out;
}

const float* feature_block_of(const std::vector<float>& features, int64_t feature_dim, const ProcessGrid& grid) {
  MATSAMP_CHECK(feature_dim > 0 && features.size() % feature_dim == 0, "feature_block_of: ", features.size(),
                " floats are not rows of ", feature_dim);
  const RowBlocks blocks{static_cast<int64_t>(features.size()) / feature_dim, grid.process_rows()};
  return features.data() + blocks.begin(grid.row()) * feature_dim;
}

}  // namespace matsamp
