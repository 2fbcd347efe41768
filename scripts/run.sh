#!/usr/bin/env bash
# Installs dependencies, builds, and bulk-samples one GraphSAGE epoch on a
# generated R-MAT graph (scale 16). Only the benchmark JSON goes to stdout (so
# `scripts/run.sh | python3 -m json.tool` works); installing, building and a
# one-line summary go to stderr. Arguments replace the default bench options,
# e.g. scripts/run.sh --graph rmat:18 -k 8.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install-deps.sh" >&2
bash "$root/scripts/build.sh" >&2
if [ $# -eq 0 ]; then
  set -- --graph rmat:16 --fanouts 15,10,5 --batch-size 1024 --train-fraction 0.25 --compare-per-batch
fi
json=$("$root/build/csrc/matsamp" bench "$@")
printf '%s\n' "$json"
printf '%s\n' "$json" | /usr/bin/python3 -c '
import json, sys
r = json.load(sys.stdin)
bulk = r.get("bulk", {})
line = "matsamp: %s minibatches of %s in %.3f s (%.0f minibatches/s, bulk size %s)" % (
    r.get("minibatches"), r.get("graph"), bulk.get("time_s", 0), bulk.get("minibatches_per_s", 0),
    bulk.get("bulk_size"))
if "bulk_speedup" in r:
    line += ", %.1fx per-batch sampling" % r["bulk_speedup"]
print(line + ", peak memory %.0f MiB" % (r.get("peak_memory_bytes", 0) / 2**20))' >&2
