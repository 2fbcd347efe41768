#include "sampling/saint_normalization.h"

#include "ops/ops.h"

namespace matsamp {

void SubgraphCounts::add(const CsrMatrix& a, const std::vector<std::vector<vid_t>>& lists) {
  std::vector<vid_t> ids;
  Offsets offsets{0};
  for (const auto& vertices : lists) {
    ids.insert(ids.end(), vertices.begin(), vertices.end());
    offsets.push_back(static_cast<int64_t>(ids.size()));
  }
  vertex = tally_ids(std::move(vertex), ids);
  entry = tally_induced_entries(std::move(entry), a, ids, offsets);
  subgraphs += static_cast<int64_t>(lists.size());
  sampled_vertices += static_cast<int64_t>(ids.size());
}

CsrMatrix aggregator_normalized(const CsrMatrix& a, const SubgraphCounts& counts) {
  return normalize_rows_by_tallies(a, counts.vertex, counts.entry);
}

}  // namespace matsamp
