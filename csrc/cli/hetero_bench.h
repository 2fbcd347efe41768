// bench on a heterogeneous graph: an epoch of seed-type minibatches sampled
// with a fanout per relation and layer, bulk against per batch, as JSON.
#pragma once
#include <string>

#include "cli/graph_source.h"
#include "cli/sampler_options.h"
#include "util/json.h"

namespace matsamp::cli {

struct HeteroBenchOptions {
  std::string relation_fanouts;  // "rel=15,10;rel2=5,5" (empty: --fanouts for every relation)
  std::string seed_type;         // empty: the type with a training split, else the first labelled one
  bool keep_relations = false;   // true: no reverse relations added
};

void add_hetero_bench_options(CLI::App& command, HeteroBenchOptions& options);

// The epoch's seeds are the seed type's training split (or a --train-fraction of
// its vertices), cut into minibatches of --batch-size, --bulk-size at a time
// (0: as many as --memory-budget holds).
JsonObject run_hetero_bench(const GraphSource& source, SamplerOptions& options, const HeteroBenchOptions& hetero,
                            bool compare_per_batch);

}  // namespace matsamp::cli
