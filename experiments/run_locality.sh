#!/usr/bin/env bash
# Locality sweep of experiments/locality.md: the partitioned 1.5D mode on a graph as
# generated and renumbered by `matsamp partition` into one part per process row, with
# minibatches from all training vertices and from one block each (--locality-blocks),
# GraphSAGE and LADIES, p = 4 with c = 1 and c = 2. One JSON line each, with the
# partition's own JSON line first, appended to $OUT
# (default experiments/results/locality_cpu.jsonl).
# Usage: experiments/run_locality.sh [BUILD_DIR] [GRAPH_SPEC]   (default planted:200000:64)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
spec=${2:-planted:200000:64}
out=${OUT:-$root/experiments/results/locality_cpu.jsonl}
matsamp=$build/csrc/matsamp
work=${WORK:-/tmp/matsamp_locality}
mkdir -p "$work" "$(dirname "$out")"
name=$(echo "$spec" | tr ':/' '__')
[ -f "$work/$name.msg" ] || "$matsamp" convert -g "$spec" -o "$work/$name.msg" >&2
samplers=("-s graphsage --fanouts 15,10,5" "-s ladies --samples 512,512")
for c in 1 2; do
  rows=$((4 / c))
  renumbered=$work/${name}_parts$rows.msg
  [ -f "$renumbered" ] || "$matsamp" partition -g "$work/$name.msg" --parts "$rows" -o "$renumbered" >> "$out"
  for graph in "$work/$name.msg" "$renumbered"; do
    for sampler in "${samplers[@]}"; do
      for blocks in 0 "$rows"; do
        echo "c=$c $(basename "$graph") $sampler --locality-blocks $blocks" >&2
        # shellcheck disable=SC2086
        mpirun --allow-run-as-root --oversubscribe -np 4 -x OMP_NUM_THREADS=1 \
          "$matsamp" bench -g "$graph" -b 1024 --seed 1 $sampler --locality-blocks "$blocks" \
          --distributed partitioned --replication "$c" 2>/dev/null >> "$out"
      done
    done
  done
done
