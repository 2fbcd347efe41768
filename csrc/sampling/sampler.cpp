#include "sampling/sampler.h"

namespace matsamp {

void check_layer_sizes(const std::vector<int64_t>& sizes, const char* what) {
  MATSAMP_CHECK(!sizes.empty(), what, ": at least one layer is needed");
  for (size_t l = 0; l < sizes.size(); ++l)
    MATSAMP_CHECK(sizes[l] > 0, what, ": layer ", l, " has ", sizes[l], " samples; every layer needs at least 1");
}

SeedBatch upload_seeds(Backend& backend, std::vector<vid_t> seeds, Offsets offsets) {
  Ids resident = backend.upload_ids(seeds);
  return {std::move(seeds), {std::move(resident), std::move(offsets)}};
}

Bulk Sampler::sample(Context& ctx, const std::vector<vid_t>& seeds, const Offsets& seed_offsets,
                     int64_t first_minibatch, uint32_t epoch) const {
  return sample(ctx, upload_seeds(ctx.backend, seeds, seed_offsets), first_minibatch, epoch);
}

Bulk Sampler::sample_excluding(Context& ctx, const std::vector<vid_t>& seeds, const Offsets& seed_offsets,
                               int64_t first_minibatch, uint32_t epoch, const ExcludedEdges& excluded) const {
  return sample_excluding(ctx, upload_seeds(ctx.backend, seeds, seed_offsets), first_minibatch, epoch, excluded);
}

Bulk Sampler::sample_excluding(Context&, const SeedBatch&, int64_t, uint32_t, const ExcludedEdges&) const {
  fail("the ", name(), " sampler cannot take seed edges out of its layers (link prediction samples with ",
       "graphsage, labor, dgs, ladies or fastgcn)");
}

void Sampler::keep_estimates(std::shared_ptr<const EstimateStore>, std::string) {
  fail("the ", name(), " sampler pre-samples nothing to keep (GraphSAINT's samplers do, with saint_norm)");
}

void Sampler::set_column_importance(std::shared_ptr<const ColumnImportance>) const {
  fail("the ", name(), " sampler draws by no column importance (the dgs sampler does)");
}

const std::vector<vid_t>& frontier_of(const BulkSample& bulk, size_t l) {
  return l == 0 ? bulk.seeds : bulk.layers[l - 1].vertices;
}

}  // namespace matsamp
