#!/usr/bin/env bash
# Installs dependencies, builds, and bulk-samples one GraphSAGE epoch on a
# generated R-MAT graph (scale 16), printing the benchmark JSON. Arguments
# replace the default bench options, e.g. scripts/run.sh --graph rmat:18 -k 8.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/build.sh"
if [ $# -eq 0 ]; then
  set -- --graph rmat:16 --fanouts 15,10,5 --batch-size 1024 --train-fraction 0.25 --compare-per-batch
fi
"$root/build/csrc/matsamp" bench "$@"
