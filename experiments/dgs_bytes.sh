#!/usr/bin/env bash
# DGS (explanation-guided sampling) on a partitioned run: Cora renumbered by METIS
# into p parts, p processes each holding one part's feature rows (--feature-
# replication 1), 10 random splits per setting (experiments/train_accuracy.sh).
# Bytes per epoch are the feature rows fetched while training, over all ranks;
# DGS's explanations also fetch their remote rows once (the summary's
# explanation_fetch_bytes). Settings:
#   uniform    GraphSAGE's uniform neighbour draw, minibatches from all vertices
#   locality   the same, each process's minibatches from its own part (--locality-blocks p)
#   labor0     dgs with importance 1 (LABOR-0's draw) from its own part
#   dgs        explanations every T steps steering the remote neighbours drawn
#   dgs_half   the same, remote rows fetched with the top half of the feature dimensions
#
#   experiments/dgs_bytes.sh [settings...]     (default: all five)
#
# Environment: MATSAMP, CORA, SPLITS as for train_accuracy.sh; PARTS (default 4),
# EVERY (T, default 20 steps), LOG_DIR (default /tmp/matsamp_dgs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
matsamp=${MATSAMP:-$root/build/csrc/matsamp}
parts=${PARTS:-4}
every=${EVERY:-20}
log_dir=${LOG_DIR:-/tmp/matsamp_dgs}
mkdir -p "$log_dir"
graph="$log_dir/cora$parts.msg"
"$matsamp" partition -g "${CORA:-$root/../shared/data/cora.npz}" --symmetrize --largest-component -p "$parts" \
  -o "$graph" 2>/dev/null | tail -1
settings=("$@")
[ ${#settings[@]} -gt 0 ] || settings=(uniform locality labor0 dgs dgs_half)
common=(--feature-replication 1 --minibatches-per-step "$parts")
for setting in "${settings[@]}"; do
  case $setting in
    uniform) model=graphsage extra=() ;;
    locality) model=graphsage extra=(--locality-blocks "$parts") ;;
    labor0) model=dgs extra=(--locality-blocks "$parts") ;;
    dgs) model=dgs extra=(--explain-every "$every") ;;
    dgs_half) model=dgs extra=(--explain-every "$every" --remote-feature-fraction 0.5) ;;
    *) echo "unknown setting '$setting' (expected uniform locality labor0 dgs dgs_half)" >&2; exit 1 ;;
  esac
  echo "== $setting"
  CORA=$graph MODELS=$model LOG_DIR="$log_dir/$setting" MATSAMP=$matsamp \
    LAUNCH="mpirun --allow-run-as-root --oversubscribe -np $parts -x OMP_NUM_THREADS=1" \
    "$root/experiments/train_accuracy.sh" "${common[@]}" "${extra[@]}"
  cat "$log_dir/$setting"/*.jsonl | sed -n 's/.*"explanation_fetch_bytes":\([0-9]*\).*/\1/p' |
    awk '{ s += $1; n++ } END { if (n) printf "  explanation fetch bytes per run, all ranks: %.0f\n", s / n }'
done
