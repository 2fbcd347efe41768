#include <algorithm>

#include "ops/op_checks.h"
#include "ops/ops.h"
#include "util/parallel.h"

namespace matsamp {

std::vector<float> entries_at(const CsrMatrix& p, const std::vector<vid_t>& at, const Offsets& offsets) {
  check_gather(p, at, offsets);
  const int64_t m = static_cast<int64_t>(at.size()), k = static_cast<int64_t>(offsets.size()) - 1;
  std::vector<float> out(m);
  // Many lookups in one shared row (FastGCN's n entries): one dense copy of the
  // row instead of a binary search over it per id.
  std::vector<float> dense;
  if (p.rows == 1 && m * 64 > p.nnz()) {
    dense.assign(p.cols, 0.0f);
    for (int64_t e = 0; e < p.nnz(); ++e) dense[p.colidx[e]] = p.values[e];
  }
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads_for(m))
  for (int64_t g = 0; g < k; ++g) {
    const int64_t r = p.rows == 1 ? 0 : g;
    const auto first = p.colidx.begin() + p.rowptr[r], last = p.colidx.begin() + p.rowptr[r + 1];
    for (int64_t i = offsets[g]; i < offsets[g + 1]; ++i) {
      if (!dense.empty()) {
        out[i] = dense[at[i]];
        continue;
      }
      const auto hit = std::lower_bound(first, last, static_cast<col_t>(at[i]));
      out[i] = hit != last && *hit == at[i] ? p.values[hit - p.colidx.begin()] : 0.0f;
    }
  }
  return out;
}

}  // namespace matsamp
