#include "sampling/excluding_sampler.h"

namespace matsamp {

Bulk ExcludingSampler::sample(Context& ctx, const SeedBatch& seeds, int64_t first_minibatch, uint32_t epoch) const {
  return sample_layers(ctx, seeds, first_minibatch, epoch, nullptr);
}

Bulk ExcludingSampler::sample_excluding(Context& ctx, const SeedBatch& seeds, int64_t first_minibatch, uint32_t epoch,
                                        const ExcludedInBackend& excluded) const {
  return sample_layers(ctx, seeds, first_minibatch, epoch, &excluded);
}

ExcludedInBackend ExcludingSampler::upload_excluded(Backend& backend, const ExcludedEdges& excluded) const {
  return matsamp::upload_excluded(backend, excluded, graph_columns());
}

}  // namespace matsamp
