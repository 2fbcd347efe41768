#include "sampling/backend.h"

#include <algorithm>
#include <utility>

#include "sampling/sampler.h"
#include "util/timer.h"

namespace matsamp {

SampledLayer Backend::sample_neighbour_layer(const CsrMatrix& adj, const std::vector<vid_t>& frontier,
                                             const Offsets& offsets, int64_t fanout, const SampleKeys& keys,
                                             bool uniform_rows, StepStats* times) {
  CsrMatrix s;
  {
    ScopedTimer t(times ? &times->sampling : nullptr);
    s = sample_rows(adj, frontier, fanout, keys, uniform_rows);
  }
  ScopedTimer t(times ? &times->extraction : nullptr);
  std::fill(s.values.begin(), s.values.end(), 1.0f);   // mean aggregation weights
  normalize_rows(s, false);
  CompactResult c = compact_columns(std::move(s), offsets, frontier, offsets);
  return {std::move(c.adj), offsets, std::move(c.col_offsets), std::move(c.vertices)};
}

}  // namespace matsamp
