// The program the node-wise and layer-wise samplers share with and without
// link prediction's seed edges: sample() and sample_excluding() are one
// program (sample_layers), run without or with the uploaded edges.
#pragma once
#include "sampling/capabilities.h"

namespace matsamp {

class ExcludingSampler : public Sampler, public EdgeSeedSampler {
 public:
  Bulk sample(Context& ctx, const SeedBatch& seeds, int64_t first_minibatch, uint32_t epoch) const final;
  using Sampler::sample;
  Bulk sample_excluding(Context& ctx, const SeedBatch& seeds, int64_t first_minibatch, uint32_t epoch,
                        const ExcludedInBackend& excluded) const final;
  using EdgeSeedSampler::sample_excluding;
  ExcludedInBackend upload_excluded(Backend& backend, const ExcludedEdges& excluded) const final;

 protected:
  virtual Bulk sample_layers(Context& ctx, const SeedBatch& seeds, int64_t first_minibatch, uint32_t epoch,
                             const ExcludedInBackend* excluded) const = 0;
  // The columns of the graph the excluded edges index (its vertices).
  virtual int64_t graph_columns() const = 0;
};

}  // namespace matsamp
