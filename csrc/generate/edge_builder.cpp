#include "generate/edge_builder.h"

#include <algorithm>
#include <numeric>

namespace matsamp {

CsrMatrix symmetric_pattern_from_edges(int64_t n, std::vector<uint64_t>&& edges) {
  check_column_count(n, "symmetric_pattern_from_edges");
  const int64_t m = static_cast<int64_t>(edges.size());
  // Counting sort by row: count, scatter (racy order, fixed below by sorting each row).
  std::vector<int64_t> start(n + 1, 0);
#pragma omp parallel for schedule(static)
  for (int64_t e = 0; e < m; ++e) {
    const uint64_t u = edges[e] >> 32, v = edges[e] & 0xFFFFFFFFu;
    if (u == v) continue;
#pragma omp atomic
    ++start[u + 1];
#pragma omp atomic
    ++start[v + 1];
  }
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<col_t> scattered(start.back());
  {
    std::vector<int64_t> cursor(start.begin(), start.end() - 1);
#pragma omp parallel for schedule(static)
    for (int64_t e = 0; e < m; ++e) {
      const uint64_t u = edges[e] >> 32, v = edges[e] & 0xFFFFFFFFu;
      if (u == v) continue;
      int64_t pu, pv;
#pragma omp atomic capture
      pu = cursor[u]++;
#pragma omp atomic capture
      pv = cursor[v]++;
      scattered[pu] = static_cast<col_t>(v);
      scattered[pv] = static_cast<col_t>(u);
    }
  }
  std::vector<uint64_t>().swap(edges);

  CsrMatrix out(n, n);
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t r = 0; r < n; ++r) {
    auto first = scattered.begin() + start[r], last = scattered.begin() + start[r + 1];
    std::sort(first, last);
    out.rowptr[r + 1] = std::unique(first, last) - first;
  }
  std::partial_sum(out.rowptr.begin(), out.rowptr.end(), out.rowptr.begin());
  out.colidx.resize(out.rowptr.back());
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t r = 0; r < n; ++r)
    std::copy_n(scattered.begin() + start[r], out.row_nnz(r), out.colidx.begin() + out.rowptr[r]);
  out.values.assign(out.nnz(), 1.0f);
  return out;
}

}  // namespace matsamp
