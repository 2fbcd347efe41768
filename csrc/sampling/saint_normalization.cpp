#include "sampling/saint_normalization.h"

namespace matsamp {

void SubgraphCounts::add(const CsrMatrix& a, const std::vector<std::vector<vid_t>>& lists) {
  const int64_t k = static_cast<int64_t>(lists.size());
#pragma omp parallel
  {
    std::vector<char> inside(a.rows, 0);  // this thread's membership marks
#pragma omp for schedule(dynamic, 1)
    for (int64_t g = 0; g < k; ++g) {
      const std::vector<vid_t>& vertices = lists[g];
      for (vid_t v : vertices) inside[v] = 1;
      for (vid_t v : vertices) {
        __atomic_fetch_add(&vertex[v], 1, __ATOMIC_RELAXED);
        for (int64_t e = a.rowptr[v]; e < a.rowptr[v + 1]; ++e)
          if (inside[a.colidx[e]]) __atomic_fetch_add(&entry[e], 1, __ATOMIC_RELAXED);
      }
      for (vid_t v : vertices) inside[v] = 0;
    }
  }
  subgraphs += k;
  for (const auto& vertices : lists) sampled_vertices += static_cast<int64_t>(vertices.size());
}

CsrMatrix aggregator_normalized(const CsrMatrix& a, const SubgraphCounts& counts) {
  CsrMatrix out = a;
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < a.rows; ++v) {
    double row_sum = 0;
    for (int64_t e = a.rowptr[v]; e < a.rowptr[v + 1]; ++e) row_sum += a.values[e];
    for (int64_t e = a.rowptr[v]; e < a.rowptr[v + 1]; ++e) {
      const double scale = counts.vertex[v] > 0 && counts.entry[e] > 0
                               ? static_cast<double>(counts.vertex[v]) / static_cast<double>(counts.entry[e])
                               : 1.0;
      out.values[e] = row_sum > 0 ? static_cast<float>(static_cast<double>(a.values[e]) / row_sum * scale) : 0.0f;
    }
  }
  return out;
}

}  // namespace matsamp
