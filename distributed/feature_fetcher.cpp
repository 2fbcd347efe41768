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

std::vector<float> FeatureFetcher::fetch(const std::vector<vid_t>& ids, const std::vector<int64_t>& remote_dims) {
  Communicator& column = grid_.col_comm();  // column rank q holds block row q
  for (vid_t v : ids)
    MATSAMP_CHECK(v >= 0 && v < blocks_.n, "FeatureFetcher: vertex ", v, " outside [0, ", blocks_.n, ")");
  // Unique ids in ascending order are already bucketed by owner.
  std::vector<vid_t> wanted(ids);
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  if (!remote_dims.empty()) return fetch_dims(ids, wanted, remote_dims);
  std::vector<float> fetched = ask_owners<float>(
      column, blocks_, wanted, feature_dim_, [&](vid_t v, float* row) { std::copy_n(own_row(v), feature_dim_, row); });

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

std::vector<float> FeatureFetcher::fetch_dims(const std::vector<vid_t>& ids, const std::vector<vid_t>& wanted,
                                              const std::vector<int64_t>& dims) {
  Communicator& column = grid_.col_comm();
  for (size_t k = 0; k < dims.size(); ++k)
    MATSAMP_CHECK(dims[k] >= 0 && dims[k] < feature_dim_ && (k == 0 || dims[k - 1] < dims[k]),
                  "FeatureFetcher: feature dimensions must be ascending, distinct and below ", feature_dim_);
  // Every call, as any rank may change them: equal on every rank exactly when the
  // sum of a hash is the rank count times it (8 bytes per rank).
  int64_t hash = static_cast<int64_t>(dims.size());
  for (int64_t d : dims) hash = (hash * 1000003 + d) % 2147483647;
  std::vector<int64_t> sum{hash};
  column.all_reduce_sum(sum);
  MATSAMP_CHECK(sum[0] == hash * column.size(),
                "FeatureFetcher: the ranks of a process column ask for different "
                "feature dimensions of remote rows");
  const vid_t first = blocks_.begin(grid_.row()), end = blocks_.end(grid_.row());
  // This rank's rows (a contiguous run of the ascending ids) are read here, whole.
  std::vector<vid_t> remote(wanted.begin(), std::lower_bound(wanted.begin(), wanted.end(), first));
  remote.insert(remote.end(), std::lower_bound(wanted.begin(), wanted.end(), end), wanted.end());
  const int64_t width = static_cast<int64_t>(dims.size());
  const std::vector<float> fetched = ask_owners<float>(column, blocks_, remote, width, [&](vid_t v, float* row) {
    const float* own = own_row(v);
    for (int64_t k = 0; k < width; ++k) row[k] = own[dims[k]];
  });
  std::vector<float> out(ids.size() * feature_dim_, 0.0f);
  for (size_t i = 0; i < ids.size(); ++i) {
    float* row = out.data() + i * feature_dim_;
    if (ids[i] >= first && ids[i] < end) {
      std::copy_n(own_row(ids[i]), feature_dim_, row);
      continue;
    }
    const size_t at = std::lower_bound(remote.begin(), remote.end(), ids[i]) - remote.begin();
    for (int64_t k = 0; k < width; ++k) row[dims[k]] = fetched[at * width + k];
  }
  return out;
}

const float* FeatureFetcher::own_row(vid_t v) const {
  const vid_t first = blocks_.begin(grid_.row()), end = blocks_.end(grid_.row());
  MATSAMP_CHECK(v >= first && v < end, "FeatureFetcher: asked for row ", v, " outside this rank's block");
  return block_ + (v - first) * feature_dim_;
}

const float* feature_block_of(const std::vector<float>& features, int64_t feature_dim, const ProcessGrid& grid) {
  MATSAMP_CHECK(feature_dim > 0 && features.size() % feature_dim == 0, "feature_block_of: ", features.size(),
                " floats are not rows of ", feature_dim);
  const RowBlocks blocks{static_cast<int64_t>(features.size()) / feature_dim, grid.process_rows()};
  return features.data() + blocks.begin(grid.row()) * feature_dim;
}

}  // namespace matsamp
