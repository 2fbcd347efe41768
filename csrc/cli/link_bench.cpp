#include "cli/link_bench.h"

#include <algorithm>

#include "sampling/edge_seeds.h"
#include "sampling/epoch_plan.h"
#include "sampling/fingerprint.h"
#include "util/progress.h"
#include "util/timer.h"

namespace matsamp::cli {

namespace {

struct LinkRun {
  double seconds = 0;
  int64_t minibatches = 0, bulk_size = 0, seeds = 0, sampled_edges = 0, excluded = 0;
  uint64_t fingerprint = 0;
};

LinkRun run_epoch(const Sampler& sampler, Context ctx, const CsrMatrix& adj, const std::vector<vid_t>& edges,
                  const NegativeSampler& negatives, const EpochOptions& epoch, bool exclude, const char* label) {
  const EpochOrder order = shuffled_order(edges, epoch.batch_size, epoch.seed, epoch.epoch);
  LinkRun run;
  run.minibatches = order.num_minibatches();
  run.bulk_size = epoch.bulk_size > 0
                      ? std::min(epoch.bulk_size, run.minibatches)
                      : bulk_size_for_budget(sampler, epoch.batch_size * (2 + negatives.options().per_positive),
                                             run.minibatches, epoch.memory_budget);
  Fingerprint fingerprint;
  Progress progress(label, run.minibatches, "minibatches");
  for (int64_t first = 0; first < run.minibatches; first += run.bulk_size) {
    const int64_t end = std::min(run.minibatches, first + run.bulk_size);
    EdgeBulk b;
    BulkSample bulk;
    {
      ScopedTimer timer(&run.seconds);
      auto [ids, offsets] = order.seeds(first, end);
      std::vector<vid_t> sources(ids.size()), destinations(ids.size());  // edge id = stored entry
      for (size_t i = 0; i < ids.size(); ++i) {
        sources[i] = adj.row_of_entry(ids[i]);
        destinations[i] = adj.colidx[ids[i]];
      }
      b = make_edge_bulk(std::move(sources), std::move(destinations), std::move(offsets), first, &negatives,
                         {epoch.seed, epoch.epoch, exclude, false});
      bulk = to_host(ctx.backend, sample_edge_bulk(sampler, ctx, b, epoch.epoch));
    }
    run.seeds += static_cast<int64_t>(b.seeds.size());
    run.excluded += static_cast<int64_t>(b.excluded.edges.size());
    run.sampled_edges += bulk.sampled_edges();
    fingerprint.add(bulk);
    progress.update(end);
  }
  run.fingerprint = fingerprint.value();
  return run;
}

JsonObject describe(const LinkRun& r) {
  return JsonObject()
      .add("bulk_size", r.bulk_size)
      .add("time_s", r.seconds)
      .add("minibatches_per_s", r.minibatches / r.seconds)
      .add("seed_vertices", r.seeds)
      .add("excluded_edges", r.excluded)
      .add("sampled_edges", r.sampled_edges)
      .add("sampled_edges_per_s", r.sampled_edges / r.seconds)
      .add("fingerprint", r.fingerprint);
}

}  // namespace

void add_link_bench_options(CLI::App& command, LinkBenchOptions& options) {
  const char* group = "Edge seeds (link prediction)";
  command
      .add_flag("--edge-seeds", options.edge_seeds,
                "seed minibatches with edges: --train-fraction of the stored edges, --batch-size positives per "
                "minibatch, each with --negatives uniform negatives; sampled with and without the positives "
                "masked out of their layers")
      ->group(group);
  command.add_option("--negatives", options.negatives, "--edge-seeds: negatives per positive")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 20))
      ->group(group)
      ->capture_default_str();
}

JsonObject run_link_bench(const Graph& g, const Sampler& sampler, Backend& backend, SamplerOptions& options,
                          const LinkBenchOptions& link) {
  const std::vector<vid_t> edges = training_vertices(g.num_edges(), options.train_fraction, options.epoch.seed);
  const NegativeSampler negatives(g.adj, {link.negatives, NegativeDistribution::uniform, false});
  const Context ctx = make_context(options, backend);
  const LinkRun excluding = run_epoch(sampler, ctx, g.adj, edges, negatives, options.epoch, true, "excluding");
  const LinkRun plain = run_epoch(sampler, ctx, g.adj, edges, negatives, options.epoch, false, "without exclusion");
  JsonObject json;
  json.add("edge_seeds", true)
      .add("positives", static_cast<int64_t>(edges.size()))
      .add("negatives_per_positive", link.negatives)
      .add("minibatches", excluding.minibatches)
      .add("bulk", describe(excluding))
      .add("bulk_without_exclusion", describe(plain))
      .add("exclusion_cost", excluding.seconds / plain.seconds);
  if (link.compare_per_batch) {
    EpochOptions single = options.epoch;
    single.bulk_size = 1;
    const LinkRun per_batch = run_epoch(sampler, ctx, g.adj, edges, negatives, single, true, "per-batch");
    json.add("per_batch", describe(per_batch))
        .add("bulk_speedup", per_batch.seconds / excluding.seconds)
        .add("identical_minibatches", per_batch.fingerprint == excluding.fingerprint);
  }
  return json;
}

}  // namespace matsamp::cli
