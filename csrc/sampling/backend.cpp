#include "sampling/backend.h"

#include <algorithm>
#include <utility>

#include "sampling/sampler.h"
#include "util/timer.h"

namespace matsamp {

CsrMatrix Backend::select_rows_cols_blocked(const CsrMatrix& a, const std::vector<vid_t>& rows,
                                            const Offsets& row_offsets, const std::vector<vid_t>& cols,
                                            const Offsets& col_offsets, const std::vector<float>& weights) {
  return select_cols_blocked(select_rows(a, rows), row_offsets, cols, col_offsets, weights);
}

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

void Backend::sample_neighbour_layers(const CsrMatrix& adj, const std::vector<int64_t>& fanouts, uint64_t seed,
                                      uint32_t epoch, bool uniform_rows, BulkSample& bulk, StepStats* times) {
  bulk.layers.reserve(bulk.layers.size() + fanouts.size());   // frontier points into the previous layer
  const std::vector<vid_t>* frontier = &bulk.seeds;
  const Offsets* offsets = &bulk.seed_offsets;
  for (size_t l = 0; l < fanouts.size(); ++l) {
    bulk.layers.push_back(sample_neighbour_layer(
        adj, *frontier, *offsets, fanouts[l],
        {seed, epoch, static_cast<uint32_t>(l), bulk.first_minibatch, *offsets}, uniform_rows, times));
    frontier = &bulk.layers.back().vertices;
    offsets = &bulk.layers.back().col_offsets;
  }
}

}  // namespace matsamp
