#!/usr/bin/env bash
# The byte model of the partitioned bench (`first_product` in its JSON) against
# the bytes the first product of each bulk really sent, for every sampler that
# runs partitioned, at c = 1 and 2: sampled rows of A (GraphSAGE, LABOR,
# GraphSAINT's walks) and whole rows of Â (LADIES, FastGCN, GraphSAINT's node
# sampler). The model is an expectation over random seeds: within 8%; a reduce
# the model bounds from above (one row of Q per minibatch) must stay below it. At
# c = 2 also with the process rows' work split (--row-work split: no reduce), whose
# minibatches must be those of the shared run.
# Usage: cli_byte_model.sh MATSAMP MPIEXEC NP (NP a multiple of 4: c = 2 fits)
set -euo pipefail
matsamp=$1 mpiexec=$2 np=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python=${MATSAMP_PYTHON:-python3}
"$matsamp" generate rmat --scale 13 -o "$dir/g.msg" > /dev/null
failed=0
fingerprint() { grep -o '"minibatch_fingerprint_sum":[0-9]*' "$1" | cut -d: -f2; }
for sampler in graphsage labor saint ladies fastgcn saint_node; do
  for run in "1 shared" "2 shared" "2 split"; do
    read -r c work <<< "$run"
    "$mpiexec" --allow-run-as-root --oversubscribe -x OMP_NUM_THREADS=1 -np "$np" "$matsamp" bench -g "$dir/g.msg" \
      --distributed partitioned --replication "$c" --row-work "$work" --sampler "$sampler" -b 128 \
      > "$dir/out" 2> "$dir/err" || { echo "FAIL: $sampler c = $c $work: $(cat "$dir/err")" >&2; exit 1; }
    if [ "$work" = shared ]; then
      cp "$dir/out" "$dir/shared"
    elif [ "$(fingerprint "$dir/out")" != "$(fingerprint "$dir/shared")" ]; then
      echo "FAIL: $sampler c = $c: the split rows' minibatches differ from the shared rows'" >&2
      failed=1
    fi
    "$python" - "$sampler" "$c $work" "$dir/out" <<'PY' || failed=1
import json, sys
sampler, c, path = sys.argv[1], sys.argv[2], sys.argv[3]
f = json.load(open(path))["first_product"]
checks = [("fetch", f["measured_fetch_bytes_per_step"], f["model_fetch_bytes_per_step"], False),
          ("reduce", f["measured_reduce_bytes_per_step"], f["model_reduce_bytes_per_step"],
           f["model_reduce_is_upper_bound"])]
ok = True
for what, measured, model, upper in checks:
    good = measured <= 1.02 * model if upper else abs(measured - model) <= 0.08 * max(model, 1.0)
    print(f"{sampler} c = {c} {what}: measured {measured:.0f}, model {model:.0f}"
          f"{' (upper bound)' if upper else ''}: {'ok' if good else 'FAIL'}")
    ok = ok and good
sys.exit(0 if ok else 1)
PY
  done
done
[ "$failed" -eq 0 ] || { echo "FAIL: the byte model is off (above)" >&2; exit 1; }
