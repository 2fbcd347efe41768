#!/usr/bin/env bash
# The training pipeline against preparing inline and sampling inline
# (experiments/training.md, "The training pipeline"): a planted-partition graph
# of 200,000 vertices, LADIES 2048,2048, b = 256, k = 8, two epochs per setting;
# one line per setting from the second epoch ("epoch":1): the training loop (epoch less
# evaluation), each stage's busy time, the loop over the slowest stage, the
# training thread's waits and the final loss (equal in every setting).
#
#   experiments/train_pipeline.sh [extra matsamp train options, e.g. --device cuda]
#   LAUNCH="mpirun -np 2" experiments/train_pipeline.sh --distributed partitioned
#
# Environment: MATSAMP (default build/csrc/matsamp), WORK (default /tmp/matsamp_pipeline),
# REPEAT (runs per setting, default 2), LAUNCH (words before the command: a launcher;
# rank 0's times are shown), SETTINGS (the settings compared, separated by '|').
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
matsamp=${MATSAMP:-$root/build/csrc/matsamp}
work=${WORK:-/tmp/matsamp_pipeline}
mkdir -p "$work"
graph=$work/planted200k.msg
[ -e "$graph" ] || "$matsamp" generate planted --vertices 200000 --classes 8 -o "$graph" >&2
common=(train -g "$graph" --sampler ladies --samples 2048,2048 -b 256 -k 8 --hidden 8 --epochs 2
        --patience 0 --split random --train-per-class 6000 --torch-threads 1 --seed 1)
for ((r = 0; r < ${REPEAT:-2}; r++)); do
  IFS='|' read -r -a settings <<< "${SETTINGS:-|--no-pipeline|--no-pipeline --no-prefetch}"
  for setting in "${settings[@]}"; do
    # shellcheck disable=SC2086  # the setting and the launcher are words
    ${LAUNCH:-} "$matsamp" "${common[@]}" $setting "$@" | grep '"epoch":1,' | SETTING="[$setting]" python3 -c '
import json, os, sys
e = json.loads(sys.stdin.read()); t = {k: v[0] for k, v in e["time_s"].items()}
loop = t["epoch"] - t["evaluation"]
stages = {"sampling": t["sampling"], "preparation": t["block_conversion"] + t["feature_fetch"],
          "training": t["propagation"] + t["gradient_reduction"] + t["optimizer"]}
print(os.environ["SETTING"], e["steps"], "loop %.3f" % loop, {k: round(v, 3) for k, v in stages.items()},
      "loop/slowest %.2f" % (loop / max(stages.values())),
      "waits %.3f %.3f" % (t["sampling_wait"], t["preparation_wait"]), e["loss"])'
  done
done
