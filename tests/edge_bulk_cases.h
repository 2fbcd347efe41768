// Edge minibatches for link prediction's tests: the graph's edges u < v cut
// into minibatches, as the trainer cuts its positives.
#pragma once
#include <algorithm>
#include <vector>

#include "sampling/edge_seeds.h"

namespace matsamp::testing {

// The positives of an epoch of edge minibatches of `batch` over all edges u < v.
struct EdgeList {
  std::vector<vid_t> sources, destinations;
};
inline EdgeList upper_edges(const CsrMatrix& a) {
  EdgeList e;
  for (int64_t u = 0; u < a.rows; ++u)
    for (int64_t i = a.rowptr[u]; i < a.rowptr[u + 1]; ++i)
      if (a.colidx[i] > u) {
        e.sources.push_back(u);
        e.destinations.push_back(a.colidx[i]);
      }
  return e;
}

// Minibatches [first, end) of edges cut every `batch`, in edge order.
inline EdgeBulk bulk_of(const EdgeList& e, int64_t batch, int64_t first, int64_t end, const NegativeSampler* negatives,
                        const EdgeBulkOptions& options) {
  std::vector<vid_t> s, d;
  Offsets offsets{0};
  for (int64_t g = first; g < end; ++g) {
    for (int64_t i = g * batch; i < std::min<int64_t>((g + 1) * batch, e.sources.size()); ++i) {
      s.push_back(e.sources[i]);
      d.push_back(e.destinations[i]);
    }
    offsets.push_back(static_cast<int64_t>(s.size()));
  }
  return make_edge_bulk(s, d, offsets, first, negatives, options);
}

}  // namespace matsamp::testing
