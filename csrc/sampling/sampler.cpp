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

ExcludedInBackend upload_excluded(Backend& backend, const ExcludedEdges& excluded, int64_t cols) {
  ExcludedBySource keyed = excluded.by_source(cols);
  Matrix targets = backend.upload(std::move(keyed.targets));
  return {std::move(targets), {backend.upload_ids(std::move(keyed.keys)), std::move(keyed.key_offsets)}};
}

const std::vector<vid_t>& frontier_of(const BulkSample& bulk, size_t l) {
  return l == 0 ? bulk.seeds : bulk.layers[l - 1].vertices;
}

}  // namespace matsamp
