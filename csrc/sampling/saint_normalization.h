// GraphSAINT's aggregator normalization (Zeng et al., ICLR 2020, §3.2): a
// subgraph layer's entry M_vu counts only when u was sampled with v, which
// happens with probability α_uv = P(u ∈ V_g | v ∈ V_g); dividing it by α_uv makes
// the aggregation Σ_u M_vu x_u / α_uv an unbiased estimate of the full one,
// (Mx)_v. M is Â with its rows normalized, the matrix full-neighbourhood
// evaluation of a GCN multiplies with (as GraphSAINT scales its mean aggregator).
// α is estimated by pre-sampling subgraphs: α_uv ≈ C_uv / C_v, C_v the
// subgraphs holding v, C_uv those holding both. (GraphSAINT's loss weights
// λ_v are all 1 here: the loss vertices are each minibatch's roots, which an
// epoch draws once each, so the epoch's loss is the full training loss.)
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/csr.h"

namespace matsamp {

struct SubgraphCounts {
  int64_t subgraphs = 0;
  int64_t sampled_vertices = 0;  // Σ |V_g|
  std::vector<int64_t> vertex;   // C_v, per vertex
  std::vector<int64_t> entry;    // C_uv, per entry of Â in CSR order

  explicit SubgraphCounts(const CsrMatrix& normalized) : vertex(normalized.rows, 0), entry(normalized.nnz(), 0) {}
  // Counts the subgraphs' vertices and the entries of Â inside them (each list
  // holds a subgraph's distinct vertices): ops.h's tallies on the host (the
  // samplers tally in their backend, subgraph.h).
  void add(const CsrMatrix& normalized, const std::vector<std::vector<vid_t>>& lists);
};

// Where pre-sampled counts are kept between runs (a file: sampling/estimate_file.h).
class EstimateStore {
 public:
  virtual ~EstimateStore() = default;
  // Fills `counts` with those kept for `key` (the sampler, its options, batch
  // and seed) over `normalized`; false when none are kept. Counts kept for
  // another key or graph are an error that names both.
  virtual bool load(const std::string& key, const CsrMatrix& normalized, SubgraphCounts& counts) const = 0;
  virtual void save(const std::string& key, const CsrMatrix& normalized, const SubgraphCounts& counts) const = 0;
};

// Â with its rows normalized and entry (v, u) scaled by C_v / C_uv = 1/α_uv (by
// 1 where the pre-sampling never saw v, or never saw u with v).
CsrMatrix aggregator_normalized(const CsrMatrix& normalized, const SubgraphCounts& counts);

}  // namespace matsamp
