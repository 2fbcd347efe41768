#!/usr/bin/env bash
# The cost of a weighted epoch against the uniform one: R-MAT SCALE (edge factor 16)
# as generated, and the same graph with a random weight in (0.001, 1.001] per
# stored edge (an OGB folder's edge-feat column, --edge-weights 0); `bench`
# GraphSAGE 15,10,5, b = 1024 on 40% of the vertices, each binary given, interleaved
# over rounds, at each thread count. One JSON line per run (the bench's bulk
# fields, plus binary, weighted, threads, round) on stdout.
# Usage: experiments/weighted_cost.sh [--scale S] [--rounds R] [--threads "1 2"] MATSAMP [MATSAMP ...]
set -euo pipefail
scale=18 rounds=3 threads="1 2"
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
    --scale) scale=$2 ;;
    --rounds) rounds=$2 ;;
    --threads) threads=$2 ;;
    *) echo "weighted_cost.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done
[[ $# -ge 1 ]] || { echo "usage: $0 [--scale S] [--rounds R] [--threads \"1 2\"] MATSAMP [MATSAMP ...]" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$1" convert -g "rmat:$scale" --format ogb --no-gzip -o "$dir/ogb" > /dev/null 2>&1
awk 'BEGIN { srand(7) } { printf "%.6f\n", 0.001 + rand() }' "$dir/ogb/raw/edge.csv" > "$dir/ogb/raw/edge-feat.csv"
"$1" convert -g "$dir/ogb" -o "$dir/uniform.msg" > /dev/null 2>&1
"$1" convert -g "$dir/ogb" --edge-weights 0 -o "$dir/weighted.msg" > /dev/null 2>&1
for round in $(seq "$rounds"); do
  for t in $threads; do
    for binary in "$@"; do
      for weighted in false true; do
        graph=("$dir/uniform.msg")
        [[ $weighted == true ]] && graph=("$dir/weighted.msg" --edge-weights 0)
        "$binary" bench -g "${graph[@]}" --fanouts 15,10,5 -b 1024 --train-fraction 0.4 --threads "$t" 2> /dev/null |
          tail -1 | python3 -c "
import json, sys
run = json.loads(sys.stdin.read())
print(json.dumps({'binary': '$binary', 'weighted': $([[ $weighted == true ]] && echo True || echo False),
                  'threads': $t, 'round': $round, 'peak_memory_bytes': run['peak_memory_bytes'], **run['bulk']}))"
      done
    done
  done
done
