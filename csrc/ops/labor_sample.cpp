// LABOR-0 row sampling (Balın & Çatalyürek, "Layer-Neighbor Sampling", 2023):
// Poisson sampling of each row of P = normalize_rows(R·A) in which every
// minibatch draws one uniform number per column, shared by all its rows, so rows
// with common neighbours pick them together and a layer has fewer vertices.
#include <cmath>

#include "ops/build_rows.h"
#include "ops/op_checks.h"
#include "ops/ops.h"

namespace matsamp {

namespace {
constexpr uint32_t kLaborDraw = 0xFFFFFFFFu;   // a draw number no its_sample row reaches
}

double labor_uniform(const SampleKeys& keys, int64_t minibatch, vid_t column) {
  return uniform01(random_bits({keys.seed, keys.epoch, keys.layer, static_cast<uint64_t>(keys.first_minibatch + minibatch),
                                static_cast<uint64_t>(column)},
                               kLaborDraw));
}

CsrMatrix labor_sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s, const SampleKeys& keys) {
  check_sample_rows(static_cast<int64_t>(rows.size()), s, keys, "labor_sample_rows");
  check_row_ids(a, rows, "labor_sample_rows");
  const Offsets& offsets = keys.row_offsets;
  std::vector<int64_t> block_of(rows.size());
  for (size_t g = 0; g + 1 < offsets.size(); ++g)
    std::fill(block_of.begin() + offsets[g], block_of.begin() + offsets[g + 1], static_cast<int64_t>(g));
  const bool pattern = a.values.empty();
  return build_rows_once(static_cast<int64_t>(rows.size()), a.cols, 256, [&] {
    return [&](int64_t i, auto&& emit) {
      const int64_t begin = a.rowptr[rows[i]], end = a.rowptr[rows[i] + 1];
      double sum = 0;   // normalize_rows' arithmetic: a double sum in row order, then float(v / sum)
      for (int64_t e = begin; e < end; ++e) sum += pattern ? 1.0 : a.values[e];
      for (int64_t e = begin; e < end && sum > 0; ++e) {
        const float p = static_cast<float>((pattern ? 1.0 : a.values[e]) / sum);
        const double threshold = static_cast<double>(s) * p;   // u < 1 <= threshold needs no draw
        if (threshold >= 1 || labor_uniform(keys, block_of[i], a.colidx[e]) < threshold) emit(a.colidx[e], p);
      }
    };
  });
}

}  // namespace matsamp
