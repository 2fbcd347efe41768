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
#   dgs_dims   the same, remote rows fetched with the top FRACTION of the feature dimensions
#
#   experiments/dgs_bytes.sh [settings...]     (default: all five)
#
# Last, each setting's test accuracy against uniform's and locality's on the same
# splits (the mean paired difference and its standard error; their runs are read
# from UNIFORM_DIR and LOCALITY_DIR, default LOG_DIR/uniform and LOG_DIR/locality):
# at each run's best validation epoch and, when every run trained as many epochs
# (PATIENCE=0), at the last epoch and averaged over the last 10 (less noisy than
# one epoch: Cora's test accuracy moves by about half a point from epoch to epoch).
#
# Environment: MATSAMP, CORA, SPLITS, EPOCHS, PATIENCE as for train_accuracy.sh; PARTS (default 4),
# EVERY (T, default 20 steps), FLOOR (--importance-floor, default 0.1), FRACTION
# (--remote-feature-fraction of dgs_dims, default 0.5), DGS_OPTIONS (more options for
# labor0, dgs and dgs_dims, e.g. --explainer-steps 200), LOG_DIR (default /tmp/matsamp_dgs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
matsamp=${MATSAMP:-$root/build/csrc/matsamp}
parts=${PARTS:-4}
every=${EVERY:-20}
floor=${FLOOR:-0.1}
fraction=${FRACTION:-0.5}
log_dir=${LOG_DIR:-/tmp/matsamp_dgs}
mkdir -p "$log_dir"
graph="$log_dir/cora$parts.msg"
"$matsamp" partition -g "${CORA:-$root/../shared/data/cora.npz}" --symmetrize --largest-component -p "$parts" \
  -o "$graph" 2>/dev/null | tail -1
settings=("$@")
[ ${#settings[@]} -gt 0 ] || settings=(uniform locality labor0 dgs dgs_dims)
common=(--feature-replication 1 --minibatches-per-step "$parts")
read -r -a dgs_options <<<"${DGS_OPTIONS:-}"
for setting in "${settings[@]}"; do
  case $setting in
    uniform) model=graphsage extra=() ;;
    locality) model=graphsage extra=(--locality-blocks "$parts") ;;
    labor0) model=dgs extra=(--locality-blocks "$parts" "${dgs_options[@]}") ;;
    dgs) model=dgs extra=(--explain-every "$every" --importance-floor "$floor" "${dgs_options[@]}") ;;
    dgs_dims)
      model=dgs extra=(--explain-every "$every" --importance-floor "$floor" --remote-feature-fraction "$fraction"
        "${dgs_options[@]}") ;;
    *) echo "unknown setting '$setting' (expected uniform locality labor0 dgs dgs_dims)" >&2; exit 1 ;;
  esac
  echo "== $setting"
  CORA=$graph MODELS=$model LOG_DIR="$log_dir/$setting" MATSAMP=$matsamp \
    LAUNCH="mpirun --allow-run-as-root --oversubscribe -np $parts -x OMP_NUM_THREADS=1" \
    "$root/experiments/train_accuracy.sh" "${common[@]}" "${extra[@]}"
  cat "$log_dir/$setting"/*.jsonl | sed -n 's/.*"explanation_fetch_bytes":\([0-9]*\).*/\1/p' |
    awk '{ s += $1; n++ } END { if (n) printf "  explanation fetch bytes per run, all ranks: %.0f\n", s / n }'
done
UNIFORM_DIR=${UNIFORM_DIR:-$log_dir/uniform} LOCALITY_DIR=${LOCALITY_DIR:-$log_dir/locality} LOG_DIR=$log_dir \
  python3 - "${settings[@]}" <<'PY'
import glob, json, math, os, re, sys
def accuracies(folder):
    """split -> (test accuracy at the best validation epoch, at the last epoch, epochs run,
    mean over the last 10 epochs)"""
    out = {}
    for path in glob.glob(folder + "/*_split*.jsonl"):
        split = int(re.search(r"_split(\d+)\.jsonl$", path).group(1))
        lines = [json.loads(line) for line in open(path)]
        epochs = [e for e in lines if "epoch" in e]
        summary = [e for e in lines if e.get("summary")]
        if summary and epochs:
            last = [e["test_accuracy"] for e in epochs[-10:]]
            out[split] = (summary[0]["test_accuracy"], epochs[-1]["test_accuracy"], len(epochs), sum(last) / len(last))
    return out
baselines = {"uniform": accuracies(os.environ["UNIFORM_DIR"]), "locality": accuracies(os.environ["LOCALITY_DIR"])}
for setting in sys.argv[1:]:
    got = accuracies(os.path.join(os.environ["LOG_DIR"], setting))
    for name, baseline in baselines.items():
        splits = [i for i in sorted(got) if i in baseline]
        if setting == name or len(splits) < 2:
            continue
        same_epochs = len({got[i][2] for i in splits} | {baseline[i][2] for i in splits}) == 1
        columns = [("its best validation epoch", 0)]
        if same_epochs:
            columns += [("the last epoch", 1), ("the mean of the last 10 epochs", 3)]
        for at, column in columns:
            d = [100 * (got[i][column] - baseline[i][column]) for i in splits]
            mean = sum(d) / len(d)
            se = math.sqrt(sum((x - mean) ** 2 for x in d) / (len(d) - 1) / len(d))
            print("%s: test accuracy %+.2f +- %.2f points against %s on the same %d splits, at %s"
                  % (setting, mean, se, name, len(d), at))
PY
