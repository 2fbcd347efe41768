// `matsamp bench` on a heterogeneous graph under mpirun or srun: one epoch of
// the seed type's minibatches shared by the job's workers, the relations
// replicated on every rank or each A_r partitioned into 1.5D block rows. Rank 0
// prints the JSON: times and bytes per rank, and the sum of the minibatches'
// fingerprints, equal for every p, c and mode when the minibatches are.
#pragma once
#include "cli/distributed_bench.h"
#include "cli/hetero_options.h"

namespace matsamp::cli {

void run_hetero_distributed_bench(const GraphSource& source, SamplerOptions& sampler, const HeteroOptions& hetero,
                                  const DistributedBenchOptions& options);

}  // namespace matsamp::cli
