// bench on a heterogeneous graph: an epoch of seed-type minibatches sampled
// with a fanout per relation and layer, bulk against per batch, as JSON.
#pragma once
#include <string>

#include "cli/hetero_options.h"
#include "cli/temporal_options.h"
#include "util/json.h"

namespace matsamp::cli {

// The epoch's seeds are the seed type's training split (or a --train-fraction of
// its vertices), cut into minibatches of --batch-size, --bulk-size at a time
// (0: as many as --memory-budget holds).
// With --temporal, each seed is a tree of its own sampled as of its time.
JsonObject run_hetero_bench(const GraphSource& source, SamplerOptions& options, const HeteroOptions& hetero,
                            const TemporalOptions& temporal, bool compare_per_batch);

}  // namespace matsamp::cli
