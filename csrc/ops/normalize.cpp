#include "ops/ops.h"
#include "util/parallel.h"

namespace matsamp {

void normalize_rows(CsrMatrix& p, bool square_first) {
  if (p.values.empty()) p.values.assign(p.colidx.size(), 1.0f);
#pragma omp parallel for schedule(dynamic, row_chunk(p.rows, 512)) num_threads(threads_for(p.rows + p.nnz()))
  for (int64_t r = 0; r < p.rows; ++r) {
    double sum = 0;  // sequential per row, so the result does not depend on threads
    for (int64_t e = p.rowptr[r]; e < p.rowptr[r + 1]; ++e) {
      if (square_first) p.values[e] *= p.values[e];
      sum += p.values[e];
    }
    if (sum == 0) continue;
    for (int64_t e = p.rowptr[r]; e < p.rowptr[r + 1]; ++e) p.values[e] = static_cast<float>(p.values[e] / sum);
  }
}

std::vector<float> reciprocals(const std::vector<float>& values, float factor) {
  std::vector<float> out(values.size());
  for (size_t i = 0; i < values.size(); ++i) out[i] = 1.0f / (factor * values[i]);
  return out;
}

}  // namespace matsamp
