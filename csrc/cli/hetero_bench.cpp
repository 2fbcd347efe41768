#include "cli/hetero_bench.h"

#include <algorithm>

#include "sampling/epoch_plan.h"
#include "sampling/fingerprint.h"
#include "sampling/hetero_neighbor.h"
#include "util/memory.h"
#include "util/progress.h"
#include "util/timer.h"

namespace matsamp::cli {

namespace {

struct HeteroRun {
  double seconds = 0;
  int64_t minibatches = 0, bulk_size = 0, sampled_edges = 0, vertices = 0;
  uint64_t fingerprint = 0;
  StepStats steps;  // probability, sampling, extraction (in the ops' timers)
};

HeteroRun run_epoch(const HeteroSampler& sampler, Context ctx, int seed_type, const std::vector<vid_t>& seeds,
                    const EpochOptions& epoch, int64_t bulk_size, const HeteroTemporalEpoch* times, const char* label) {
  const EpochOrder order = shuffled_order(seeds, epoch.batch_size, epoch.seed, epoch.epoch);
  HeteroRun run;
  ctx.stats = &run.steps;
  run.minibatches = order.num_minibatches();
  run.bulk_size = std::min(bulk_size, run.minibatches);
  Fingerprint fingerprint;
  Progress progress(label, run.minibatches, "minibatches");
  for (int64_t first = 0; first < run.minibatches; first += run.bulk_size) {
    const int64_t end = std::min(run.minibatches, first + run.bulk_size);
    HeteroBulkSample bulk;
    {
      ScopedTimer timer(&run.seconds);
      if (times) {
        bulk = to_host(ctx.backend, sample_hetero_minibatches_by_time(sampler, ctx, seed_type, order, first, end,
                                                                      epoch.epoch, *times));
      } else {
        const auto [ids, offsets] = order.seeds(first, end);
        bulk = to_host(ctx.backend, sampler.sample(ctx, seed_type, ids, offsets, first, epoch.epoch));
      }
    }
    for (const HeteroSampledLayer& layer : bulk.layers) {
      for (const CsrMatrix& a : layer.adj) run.sampled_edges += a.nnz();
      for (const std::vector<vid_t>& v : layer.vertices) run.vertices += static_cast<int64_t>(v.size());
    }
    fingerprint.add(bulk);
    progress.update(end);
  }
  run.fingerprint = fingerprint.value();
  return run;
}

JsonObject describe(const HeteroRun& r) {
  return JsonObject()
      .add("bulk_size", r.bulk_size)
      .add("time_s", r.seconds)
      .add("minibatches_per_s", r.minibatches / r.seconds)
      .add("sampled_edges", r.sampled_edges)
      .add("sampled_edges_per_s", r.sampled_edges / r.seconds)
      .add("layer_vertices", r.vertices)
      .add("steps", JsonObject()
                        .add("probability_s", r.steps.probability)
                        .add("sampling_s", r.steps.sampling)
                        .add("extraction_s", r.steps.extraction))
      .add("fingerprint", r.fingerprint);
}

}  // namespace

JsonObject run_hetero_bench(const GraphSource& source, SamplerOptions& options, const HeteroOptions& hetero,
                            const TemporalOptions& temporal, bool compare_per_batch) {
  const HeteroSetup setup = prepare_hetero(source, options, hetero);
  const HeteroGraph& g = setup.graph;
  const int seed_type = setup.seed_type;
  const VertexType& type = g.types[seed_type];
  const auto given = type.splits.find("train");
  const std::vector<vid_t> seeds = given != type.splits.end() && options.train_fraction == 1.0
                                       ? given->second
                                       : training_vertices(type.count, options.train_fraction, options.epoch.seed);
  MATSAMP_CHECK(!seeds.empty(), "no seeds: vertex type ", type.name, " has no training vertices");
  Backend& backend = *setup.backend;
  const std::unique_ptr<HeteroSampler> made = make_hetero_sampler(backend, setup);
  const HeteroSampler& sampler = *made;
  const Context ctx = make_context(options, backend);
  const auto times = make_hetero_epoch_times(temporal, g, backend, options.epoch.seed);
  const int64_t minibatches = minibatch_count(static_cast<int64_t>(seeds.size()), options.epoch.batch_size);
  const int64_t per_minibatch =
      bulk_bytes_per_minibatch(sampler.bytes_per_minibatch(options.epoch.batch_size), times != nullptr);
  const int64_t bulk_size = options.epoch.bulk_size > 0
                                ? options.epoch.bulk_size
                                : std::clamp<int64_t>(options.epoch.memory_budget / per_minibatch, 1, minibatches);
  const HeteroRun bulk = run_epoch(sampler, ctx, seed_type, seeds, options.epoch, bulk_size, times.get(), "bulk");

  JsonObject types, relations;
  const auto counts = [](const std::vector<int64_t>& list) {
    std::string text;
    for (int64_t n : list) text += (text.empty() ? "" : ",") + std::to_string(n);
    return text;
  };
  for (size_t t = 0; t < g.types.size(); ++t) {
    JsonObject type_json = JsonObject().add("vertices", g.types[t].count);
    if (!setup.budgets.empty()) type_json.add("budgets", counts(setup.budgets[t]));
    types.add(g.types[t].name, type_json);
  }
  for (size_t r = 0; r < g.relations.size(); ++r) {
    JsonObject relation = JsonObject().add("edges", g.relations[r].adj.nnz());
    if (!setup.fanouts.empty()) relation.add("fanouts", counts(setup.fanouts[r]));
    relations.add(g.relations[r].key(), relation);
  }
  JsonObject json;
  json.add("command", "bench").add("backend", backend.name()).add("graph", source.spec);
  json.add("heterogeneous", true).add("sampler", sampler.name());
  json.add("vertex_types", types).add("relations", relations);
  json.add("seed_type", type.name).add("seeds", static_cast<int64_t>(seeds.size()));
  json.add("batch_size", options.epoch.batch_size).add("seed", options.epoch.seed);
  describe(temporal, json);
  json.add("minibatches", bulk.minibatches).add("bulk", describe(bulk));
  if (compare_per_batch) {
    const HeteroRun per_batch = run_epoch(sampler, ctx, seed_type, seeds, options.epoch, 1, times.get(), "per-batch");
    json.add("per_batch", describe(per_batch))
        .add("bulk_speedup", per_batch.seconds / bulk.seconds)
        .add("identical_minibatches", per_batch.fingerprint == bulk.fingerprint);
  }
  json.add("peak_memory_bytes", peak_resident_bytes());
  return json;
}

}  // namespace matsamp::cli
