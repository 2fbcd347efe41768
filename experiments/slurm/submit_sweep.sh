#!/bin/bash
# Submits bench_distributed.sbatch for 1, 2, 4, … MAX_NODES nodes (4 GPUs each): graph
# replicated, and partitioned (sparsity-aware and oblivious) for every c with c*c | p.
# Usage (from the repository root): GRAPH=/shared/g.msg experiments/slurm/submit_sweep.sh MAX_NODES
set -euo pipefail
max_nodes=${1:?usage: GRAPH=... submit_sweep.sh MAX_NODES}
: "${GRAPH:?set GRAPH to a .msg file on a shared file system}"
script=experiments/slurm/bench_distributed.sbatch
for (( nodes = 1; nodes <= max_nodes; nodes *= 2 )); do
  p=$((4 * nodes))
  MODE=replicated REPLICATION=1 sbatch -N "$nodes" --export=ALL "$script"
  for (( c = 1; c * c <= p; c *= 2 )); do
    (( p % (c * c) == 0 )) || continue
    for exchange in aware oblivious; do
      MODE=partitioned REPLICATION=$c EXCHANGE=$exchange sbatch -N "$nodes" --export=ALL "$script"
    done
  done
done
