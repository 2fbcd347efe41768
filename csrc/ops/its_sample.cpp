// Inverse transform sampling of distinct entries per row.
//
// Values are quantized to integers relative to the row maximum, so the prefix
// sums are exact and order-independent: every backend that follows the same
// steps picks bit-identical samples.
#include <algorithm>
#include <cmath>

#include "core/philox.h"
#include "ops/its_sample_row.h"
#include "ops/ops.h"

namespace matsamp {

CsrMatrix its_sample(const CsrMatrix& p, int64_t s, const SampleKeys& keys) {
  MATSAMP_CHECK(s > 0, "its_sample: sample count must be positive, got ", s);
  const Offsets& offsets = keys.row_offsets;
  MATSAMP_CHECK(offsets.size() >= 2 && offsets.front() == 0, "its_sample: row offsets must start at 0");
  const int64_t rows = offsets.back();
  const bool shared_row = p.rows == 1 && rows != 1;
  MATSAMP_CHECK(shared_row || p.rows == rows, "its_sample: P is ", p.shape(), " but the keys name ",
                rows, " rows");
  const int64_t blocks = static_cast<int64_t>(offsets.size()) - 1;

  // Pass 1: the sample size of every row; pass 2 samples into place.
  CsrMatrix out(rows, p.cols);
  auto source_row = [&](int64_t r) { return shared_row ? 0 : r; };
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t src = source_row(r);
    int64_t positive = 0;
    for (int64_t e = p.rowptr[src]; e < p.rowptr[src + 1]; ++e) positive += p.values[e] > 0;
    out.rowptr[r + 1] = std::min(s, positive);
  }
  for (int64_t r = 0; r < rows; ++r) out.rowptr[r + 1] += out.rowptr[r];
  out.colidx.resize(out.rowptr.back());
  out.values.resize(out.rowptr.back());

#pragma omp parallel
  {
    RowSampler sampler;
#pragma omp for schedule(dynamic, 1)
    for (int64_t g = 0; g < blocks; ++g) {
      RandomKey key{keys.seed, keys.epoch, keys.layer,
                    static_cast<uint64_t>(keys.first_minibatch + g), 0};
      for (int64_t r = offsets[g]; r < offsets[g + 1]; ++r) {
        key.row = static_cast<uint64_t>(r - offsets[g]);
        const int64_t src = source_row(r);
        const int64_t begin = p.rowptr[src], len = p.rowptr[src + 1] - begin;
        const int64_t chosen = sampler.sample(p.values.data() + begin, len, s, key);
        MATSAMP_CHECK(chosen == out.row_nnz(r), "its_sample: internal count mismatch in row ", r);
        for (int64_t i = 0; i < chosen; ++i) {
          const int64_t e = begin + sampler.picked()[i];
          out.colidx[out.rowptr[r] + i] = p.colidx[e];
          out.values[out.rowptr[r] + i] = p.values[e];
        }
      }
    }
  }
  return out;
}

}  // namespace matsamp
