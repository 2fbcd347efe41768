#include "sampling/capabilities.h"

#include "sampling/registry.h"

namespace matsamp {

Bulk EdgeSeedSampler::sample_excluding(Context& ctx, const std::vector<vid_t>& seeds, const Offsets& seed_offsets,
                                       int64_t first_minibatch, uint32_t epoch, const ExcludedEdges& excluded) const {
  const ExcludedInBackend uploaded = upload_excluded(ctx.backend, excluded);
  return sample_excluding(ctx, upload_seeds(ctx.backend, seeds, seed_offsets), first_minibatch, epoch, uploaded);
}

void lacks_capability(const Sampler& sampler, Capability capability, const char* lacking) {
  fail("the ", sampler.name(), " sampler ", lacking, " (", samplers_that(capability), " can)");
}

}  // namespace matsamp
