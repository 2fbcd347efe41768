// bench --edge-seeds: an epoch of link prediction's edge-seeded minibatches
// (positives, negatives, exclusion), bulk against per batch and with against
// without exclusion, as JSON.
#pragma once
#include "cli/sampler_options.h"
#include "graph/graph.h"
#include "util/json.h"

namespace matsamp::cli {

struct LinkBenchOptions {
  bool edge_seeds = false;
  int64_t negatives = 1;
  bool compare_per_batch = false;
};

void add_link_bench_options(CLI::App& command, LinkBenchOptions& options);

// The epoch's seeds are a --train-fraction of the stored edges, cut into
// minibatches of --batch-size positives, sampled --bulk-size at a time.
JsonObject run_link_bench(const Graph& g, const Sampler& sampler, Backend& backend, SamplerOptions& options,
                          const LinkBenchOptions& link);

}  // namespace matsamp::cli
