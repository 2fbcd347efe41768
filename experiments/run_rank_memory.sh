#!/usr/bin/env bash
# Peak resident memory per rank of graph-partitioned runs at p = 1, 2, 4, 8 (c = 1):
# one epoch of `bench --distributed partitioned` (GraphSAGE 15,10,5, LADIES 512,512
# and FastGCN 512,512) on R-MAT SCALE, and one epoch of `train --distributed
# partitioned` on a planted graph with features. One JSON line per run on stdout (and
# appended to $OUT): p, what ran, every rank's peak RSS, and RSS(1)/p for the goal
# RSS(p) <= 1.25 RSS(1)/p + overhead. SAMPLERS (';'-separated sampler options) and
# TRAIN=0 choose fewer runs.
# Usage: experiments/run_rank_memory.sh [BUILD_DIR] [SCALE] [PLANTED_VERTICES]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
scale=${2:-21}
planted=${3:-1000000}
matsamp=$build/csrc/matsamp
out=${OUT:-$root/experiments/results/rank_memory.jsonl}
rmat=${RMAT:-/tmp/matsamp_rmat$scale.msg}
features=${FEATURES:-/tmp/matsamp_planted$planted.msg}
[ -f "$rmat" ] || "$matsamp" generate rmat --scale "$scale" -o "$rmat" >&2
[ -f "$features" ] || "$matsamp" generate planted --vertices "$planted" --classes 8 --features 64 -o "$features" >&2
mkdir -p "$(dirname "$out")"
launch() { mpirun --allow-run-as-root --oversubscribe -np "$1" -x OMP_NUM_THREADS=1 "${@:2}"; }
declare -A one  # RSS(1) of each run
record() {  # record P WHAT PEAKS_JSON_ARRAY
  local p=$1 what=$2 peaks=$3
  [ "$p" -eq 1 ] && one[$what]=$(echo "$peaks" | tr -d '[]')
  echo "{\"p\":$p,\"run\":\"$what\",\"rank_peak_memory_bytes\":$peaks,\"rss1_over_p\":$((${one[$what]} / p))}" | tee -a "$out"
}
IFS=';' read -r -a samplers <<< "${SAMPLERS:-graphsage --fanouts 15,10,5;ladies --samples 512,512;fastgcn --samples 512,512}"
for p in 1 2 4 8; do
  for sampler in "${samplers[@]}"; do
    echo "p=$p bench $sampler" >&2
    # shellcheck disable=SC2086
    json=$(launch "$p" "$matsamp" bench -g "$rmat" --sampler $sampler -b 1024 -k 8 --train-fraction 0.01 --seed 1 \
      --distributed partitioned 2>/dev/null)
    record "$p" "bench ${sampler%% *} rmat$scale" "$(echo "$json" | grep -o '"rank_peak_memory_bytes":\[[0-9,]*\]' | cut -d: -f2)"
  done
  [ "${TRAIN:-1}" = 1 ] || continue
  echo "p=$p train" >&2
  json=$(launch "$p" "$matsamp" train -g "$features" --distributed partitioned --epochs 1 -b 1024 \
    --minibatches-per-step 8 --fanouts 10,5 --split random 2>/dev/null | grep '"epoch"')
  record "$p" "train sage planted$planted" "$(echo "$json" | grep -o '"peak_memory_bytes":\[[0-9,]*\]' | cut -d: -f2)"
done
