#!/usr/bin/env bash
# Distributed bench sweep of experiments/distributed.md: p = 1, 2, 4, 8, every c with c*c | p,
# graph replicated / partitioned sparsity-aware / partitioned oblivious, GraphSAGE and LADIES
# (GraphSAGE also partitioned with --fetch-rows: rows fetched whole and sampled by the asker),
# one JSON line each, appended to $OUT (default experiments/results/distributed_cpu.jsonl).
# Usage: experiments/run_distributed.sh [BUILD_DIR] [SCALE]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
scale=${2:-16}
out=${OUT:-$root/experiments/results/distributed_cpu.jsonl}
matsamp=$build/csrc/matsamp
graph=${GRAPH:-/tmp/matsamp_rmat$scale.msg}
[ -f "$graph" ] || "$matsamp" generate rmat --scale "$scale" -o "$graph"
common=(bench -g "$graph" -b 512 -k 2 --train-fraction 0.25 --seed 1)
samplers=("-s graphsage --fanouts 15,10,5" "-s ladies --samples 512,512")
mkdir -p "$(dirname "$out")"
for p in 1 2 4 8; do
  for c in 1 2; do
    [ $((p % (c * c))) -eq 0 ] || continue
    for sampler in "${samplers[@]}"; do
      modes=("replicated" "partitioned" "partitioned --oblivious")
      [[ $sampler == *graphsage* ]] && modes+=("partitioned --fetch-rows")
      for mode in "${modes[@]}"; do
        echo "p=$p c=$c $sampler $mode" >&2
        # shellcheck disable=SC2086
        mpirun --allow-run-as-root --oversubscribe -np "$p" -x OMP_NUM_THREADS=1 \
          "$matsamp" "${common[@]}" $sampler --distributed $mode --replication "$c" 2>/dev/null >> "$out"
      done
    done
  done
done
