#!/usr/bin/env bash
# Link prediction on Cora (experiments/link_prediction.md): test ROC-AUC, MRR and
# Hits@K of `matsamp train --task link` over 5 random 85/5/10 edge splits.
#   experiments/link_accuracy.sh [extra matsamp train options]
# Environment: MATSAMP (the binary, default build/csrc/matsamp), CORA (default
# ../shared/data/cora.npz), SEEDS (default 5), LOG_DIR (default /tmp/matsamp_link_accuracy).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
matsamp=${MATSAMP:-$root/build/csrc/matsamp}
cora=${CORA:-$root/../shared/data/cora.npz}
seeds=${SEEDS:-5}
log_dir=${LOG_DIR:-/tmp/matsamp_link_accuracy}
mkdir -p "$log_dir"
for ((i = 0; i < seeds; i++)); do
  log=$log_dir/split$i.jsonl
  "$matsamp" train --task link --graph "$cora" --edge-split 0.05,0.10 --fanouts 10,10 -b 256 --hidden 128 \
    --dropout 0.5 --lr 0.01 --epochs 100 --patience 20 --torch-threads 2 --split-seed "$i" --seed $((i + 1)) "$@" \
    >"$log" 2>"$log_dir/split$i.err"
  grep '"summary":true' "$log" | python3 -c '
import json, sys
s = json.loads(sys.stdin.read())
t = s["test"]
print("split %s: test AUC %.4f  MRR %.4f  Hits@10/50/100 %.4f %.4f %.4f  (best epoch %d)" % (sys.argv[1],
      t["auc"], t["mrr"], t["hits"]["10"], t["hits"]["50"], t["hits"]["100"], s["best_epoch"]))' "$i"
done | tee "$log_dir/summary.txt"
python3 - "$log_dir/summary.txt" <<'PY'
import re, statistics, sys
rows = [line for line in open(sys.argv[1]) if line.startswith("split")]
for name, pattern in [("test AUC", r"AUC ([0-9.]+)"), ("MRR", r"MRR ([0-9.]+)")]:
    values = [float(re.search(pattern, r).group(1)) for r in rows]
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    print("%s: %.4f +- %.4f over %d splits" % (name, statistics.mean(values), sd, len(values)))
PY
