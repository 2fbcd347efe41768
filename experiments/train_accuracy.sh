#!/usr/bin/env bash
# Test accuracy of `matsamp train` on Cora over 10 random splits (Shchur et al.:
# largest connected component, 20 training and 30 validation vertices per
# class, the rest test), for GraphSAGE with sampled neighbourhoods, for
# LADIES-GCN and for GraphSAGE on GraphSAINT random-walk subgraphs. Split i uses --split-seed i and --seed i+1. The test accuracy of
# a run is that of its best validation epoch (early stopping on validation only;
# PATIENCE=0 trains every one of EPOCHS epochs, for accuracy at the same epoch count).
#
#   experiments/train_accuracy.sh [extra matsamp train options for both models]
#
# Environment: MATSAMP (the binary, default build/csrc/matsamp), CORA (the
# graph, default ../shared/data/cora.npz), SPLITS (default 10), MODELS (default
# "graphsage ladies saint"; labor, dgs, saint_node, saint_edge and frontier are the other choices), LOG_DIR (the JSON lines of every run, default
# /tmp/matsamp_train_accuracy), LAUNCH (a launcher put before the binary, e.g.
# "mpirun -np 2" for data-parallel runs; default none), EPOCHS (default 300) and PATIENCE
# (default 50; 0: no early stopping).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
matsamp=${MATSAMP:-$root/build/csrc/matsamp}
cora=${CORA:-$root/../shared/data/cora.npz}
splits=${SPLITS:-10}
read -r -a names <<<"${MODELS:-graphsage ladies saint}"
log_dir=${LOG_DIR:-/tmp/matsamp_train_accuracy}
read -r -a launch <<<"${LAUNCH:-}"
mkdir -p "$log_dir"

common=(--graph "$cora" --epochs "${EPOCHS:-300}" --patience "${PATIENCE:-50}" --hidden 64 --dropout 0.5 --lr 0.01
        --weight-decay 5e-4 --batch-size 32 --torch-threads 1)
declare -A models=(
  [graphsage]="--sampler graphsage --fanouts 10,10"
  [labor]="--sampler labor --fanouts 10,10"
  [dgs]="--sampler dgs --fanouts 10,10"   # uniform importance: LABOR-0's draws, unbiased weights
  [ladies]="--sampler ladies --samples 256,256"
  [saint]="--sampler saint"   # walk length 2, 2 layers (the defaults)
  [saint_node]="--sampler saint_node"   # --budget 1024 (the default), 2 layers
  [saint_edge]="--sampler saint_edge"   # --budget 1024 edges, 2 layers
  [frontier]="--sampler frontier --budget 256"   # the batch is the frontier; 256 pops, 2 layers
)

for name in "${names[@]}"; do
  [ -n "${models[$name]:-}" ] || { echo "unknown model '$name' (expected ${!models[*]})" >&2; exit 1; }
  accuracies=()
  for ((i = 0; i < splits; i++)); do
    log="$log_dir/${name}_split$i.jsonl"
    # shellcheck disable=SC2086  # the model options are words
    "${launch[@]}" "$matsamp" train "${common[@]}" ${models[$name]} --split-seed "$i" --seed $((i + 1)) "$@" \
      >"$log" 2>"$log_dir/${name}_split$i.err"
    accuracy=$(grep '"summary":true' "$log" | sed 's/.*"test_accuracy":\([0-9.e-]*\).*/\1/')
    epochs=$(grep -c '"epoch":' "$log")
    echo "$name split $i: test accuracy $accuracy ($epochs epochs)"
    accuracies+=("$accuracy")
  done
  printf '%s\n' "${accuracies[@]}" | awk -v name="$name" '
    { sum += $1; squares += $1 * $1; n++ }
    END { mean = sum / n; std = n > 1 ? sqrt((squares - n * mean * mean) / (n - 1)) : 0;
          printf "%s: mean test accuracy %.2f%% +- %.2f%% over %d splits\n", name, 100 * mean, 100 * std, n }'
  # Mean seconds per epoch of each part, over all epochs of all splits (one rank).
  for ((i = 0; i < splits; i++)); do cat "$log_dir/${name}_split$i.jsonl"; done | python3 -c '
import json, sys
epochs = [json.loads(line) for line in sys.stdin if "\"time_s\"" in line]
parts = epochs[0]["time_s"].keys()
print("  seconds per epoch: " + ", ".join(
    "%s %.4f" % (p, sum(e["time_s"][p][0] for e in epochs) / len(epochs)) for p in parts))
print("  feature fetch bytes per epoch, all ranks: %.0f" % (
    sum(sum(e["feature_fetch_bytes"]) for e in epochs) / len(epochs)))'
done
