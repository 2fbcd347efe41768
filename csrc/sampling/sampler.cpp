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

Bulk Sampler::sample_excluding(Context& ctx, const std::vector<vid_t>& seeds, const Offsets& seed_offsets,
                               int64_t first_minibatch, uint32_t epoch, const ExcludedEdges& excluded) const {
  const ExcludedInBackend uploaded = upload_excluded(ctx.backend, excluded);
  return sample_excluding(ctx, upload_seeds(ctx.backend, seeds, seed_offsets), first_minibatch, epoch, uploaded);
}

namespace {
[[noreturn]] void cannot_exclude(const std::string& sampler) {
  fail("the ", sampler, " sampler cannot take seed edges out of its layers (link prediction samples with ",
       "graphsage, labor, dgs, ladies or fastgcn)");
}
}  // namespace

ExcludedInBackend Sampler::upload_excluded(Backend&, const ExcludedEdges&) const { cannot_exclude(name()); }

Bulk Sampler::sample_excluding(Context&, const SeedBatch&, int64_t, uint32_t, const ExcludedInBackend&) const {
  cannot_exclude(name());
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
