#!/usr/bin/env bash
# Partitioned training on a minimum-cut and a balanced partition, each rank drawing its
# minibatches from all training vertices or from its own part (--locality-blocks P):
# feature bytes each rank served, steps, epoch time and accuracy (experiments/distributed.md,
# "Drawing from the rank's own part"). A planted graph with a split leaning on 3 of 10
# classes (skewed_split.py), as a split by time leans on its years' topics.
# Usage: experiments/run_partition_training.sh [WORK_DIR]   (graphs and epoch lines; default a
# temporary folder; MATSAMP: the binary; NP: ranks, default 4). The table goes to stdout.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
matsamp=${MATSAMP:-$root/build/csrc/matsamp}
out=${1:-$(mktemp -d)}
np=${NP:-4}
python=${PYTHON:-/usr/bin/python3}
mkdir -p "$out"
cd "$out"

"$matsamp" generate planted --vertices 50000 --classes 10 --degree 12 --features 32 -o graph.msg >/dev/null
PYTHONPATH=${PYTHONPATH:-$root/build/python} "$python" "$root/experiments/skewed_split.py" graph.msg skewed.msg
"$matsamp" partition -g skewed.msg --parts "$np" -o min_cut.msg >min_cut.json
"$matsamp" partition -g skewed.msg --parts "$np" --balance edges,train,valid,test -o balanced.msg >balanced.json

launch=(mpirun --allow-run-as-root --oversubscribe -x OMP_NUM_THREADS=1 -np "$np")
train=(train --distributed partitioned --epochs 3 -b 32 --minibatches-per-step "$np" --seed 1 --torch-threads 1)
for graph in min_cut balanced; do
  for draw in all own; do
    extra=()
    [ "$draw" = own ] && extra=(--locality-blocks "$np")
    "${launch[@]}" "$matsamp" "${train[@]}" -g "$graph.msg" "${extra[@]}" >"${graph}_$draw.jsonl" 2>"${graph}_$draw.log"
    echo "$graph, drawing from $draw: $(grep -c '"epoch"' "${graph}_$draw.jsonl") epochs"
  done
done
"$python" - "$out" "$np" <<'PY'
import json, sys, pathlib
out, np_ = pathlib.Path(sys.argv[1]), int(sys.argv[2])
print("| partition | draws from | steps | feature MB served per rank, epoch 3 | total MB | max / mean | training s | test acc |")
print("|---|---|---|---|---|---|---|---|")
for graph in ("min_cut", "balanced"):
    for draw in ("all", "own"):
        lines = [json.loads(l) for l in open(out / f"{graph}_{draw}.jsonl") if '"epoch"' in l]
        last = lines[-1]
        mb = [b / 1e6 for b in last["feature_fetch_bytes"]]
        mean = sum(mb) / len(mb)
        times = last["time_s"]
        training_s = max(e - v for e, v in zip(times["epoch"], times["evaluation"]))  # the epoch less its evaluation
        print(f"| {graph} | {draw} | {last['steps']} | {', '.join(f'{x:.2f}' for x in mb)} | {sum(mb):.2f} | "
              f"{max(mb) / mean:.2f} | {training_s:.2f} | {last['test_accuracy']:.3f} |")
PY
