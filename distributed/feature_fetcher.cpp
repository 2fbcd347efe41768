#include "feature_fetcher.h"

#include <algorithm>
#include <numeric>

#include "core/error.h"

namespace matsamp {

FeatureFetcher::FeatureFetcher(ProcessGrid& grid, int64_t n, int64_t feature_dim, std::vector<float> block)
    : grid_(grid), blocks_{n, grid.process_rows()}, feature_dim_(feature_dim), block_(std::move(block)) {
  const int64_t rows = blocks_.end(grid.row()) - blocks_.begin(grid.row());
  MATSAMP_CHECK(feature_dim > 0 && static_cast<int64_t>(block_.size()) == rows * feature_dim,
                "FeatureFetcher: block of ", block_.size(), " floats for ", rows, " rows of ", feature_dim,
                " features");
}

std::vector<float> FeatureFetcher::fetch(const std::vector<vid_t>& ids) {
  Communicator& column = grid_.col_comm();  // column rank q holds block row q
  for (vid_t v : ids)
    MATSAMP_CHECK(v >= 0 && v < blocks_.n, "FeatureFetcher: vertex ", v, " outside [0, ", blocks_.n, ")");
  // Unique ids in ascending order are already bucketed by owner.
  std::vector<vid_t> wanted(ids);
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  std::vector<int64_t> counts(column.size(), 0);
  for (vid_t v : wanted) ++counts[blocks_.owner(v)];

  std::vector<int64_t> asked_counts(column.size());
  const std::vector<int64_t> ones(column.size(), 1);
  column.all_to_allv(counts.data(), ones, asked_counts.data(), ones, DataType::int64);
  std::vector<vid_t> asked(std::accumulate(asked_counts.begin(), asked_counts.end(), int64_t{0}));
  column.all_to_allv(wanted.data(), counts, asked.data(), asked_counts, DataType::int64);
  const vid_t first = blocks_.begin(grid_.row());
  std::vector<float> rows_out(asked.size() * feature_dim_);
  for (size_t i = 0; i < asked.size(); ++i) {
    MATSAMP_CHECK(asked[i] >= first && asked[i] < blocks_.end(grid_.row()), "FeatureFetcher: asked for row ", asked[i],
                  " outside this rank's block");
    std::copy_n(block_.begin() + (asked[i] - first) * feature_dim_, feature_dim_, rows_out.begin() + i * feature_dim_);
  }
  std::vector<int64_t> float_counts_out(column.size()), float_counts_in(column.size());
  for (int q = 0; q < column.size(); ++q) {
    float_counts_out[q] = asked_counts[q] * feature_dim_;
    float_counts_in[q] = counts[q] * feature_dim_;
  }
  std::vector<float> fetched(wanted.size() * feature_dim_);
  column.all_to_allv(rows_out.data(), float_counts_out, fetched.data(), float_counts_in, DataType::float32);

  std::vector<float> out(ids.size() * feature_dim_);
  for (size_t i = 0; i < ids.size(); ++i) {
    const size_t at = std::lower_bound(wanted.begin(), wanted.end(), ids[i]) - wanted.begin();
    std::copy_n(fetched.begin() + at * feature_dim_, feature_dim_, out.begin() + i * feature_dim_);
  }
  return out;
}

std::vector<float> feature_block_of(const std::vector<float>& features, int64_t feature_dim, const ProcessGrid& grid) {
  MATSAMP_CHECK(feature_dim > 0 && features.size() % feature_dim == 0, "feature_block_of: ", features.size(),
                " floats are not rows of ", feature_dim);
  const RowBlocks blocks{static_cast<int64_t>(features.size()) / feature_dim, grid.process_rows()};
  return std::vector<float>(features.begin() + blocks.begin(grid.row()) * feature_dim,
                            features.begin() + blocks.end(grid.row()) * feature_dim);
}

}  // namespace matsamp
