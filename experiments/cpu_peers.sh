#!/usr/bin/env bash
# matsamp against pyg-lib's CPU neighbour sampler, each system a fresh process, interleaved
# over rounds: the same R-MAT graph (matsamp reads its .msg, pyg-lib its CSR from a .npz, each
# what its users load), the same seeds (matsamp's --train-fraction set), GraphSAGE fanouts and
# batch size, at each thread count. Per process: the warm epoch (the sampler's own timer),
# the cold run (the whole process: start, imports, load, epoch; bash's clock) and peak RSS
# (/usr/bin/time).
# Writes OUT/cpu_peers.jsonl (one line per process), OUT/cpu_peers.json (medians, matsamp's
# speed-ups over pyg-lib) and OUT/cpu_peers.png.
#
#   bash ../shared/tools/setup_pyg.sh /tmp/pygenv     # PyG + pyg-lib from the fetched snapshots
#   source /tmp/pygenv/env.sh
#   bash experiments/cpu_peers.sh OUT [SCALE=20] [ROUNDS=3] [THREADS="1 2"]
#
# Environment: MATSAMP_CLI (default build/csrc/matsamp), FANOUTS (15,10,5), BATCH (1024),
# FRACTION (0.4), EXPAND (new: matsamp expands each hop's new vertices only, as pyg-lib, so
# both sample the same counts; all: every frontier vertex draws, matsamp's default). matsamp's measured memory rates are kept beforehand (README, bench), so its
# runs time the epoch and the load, not the rates' measurement.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: cpu_peers.sh OUT [SCALE] [ROUNDS] [THREADS]}
scale=${2:-20}
rounds=${3:-3}
threads=${4:-"1 2"}
cli=${MATSAMP_CLI:-$root/build/csrc/matsamp}
fanouts=${FANOUTS:-15,10,5}
batch=${BATCH:-1024}
fraction=${FRACTION:-0.4}
case ${EXPAND:-new} in
  new) expand=(--expand-new-only) ;;
  all) expand=() ;;
  *) echo "cpu_peers: EXPAND is new or all, not ${EXPAND}" >&2; exit 2 ;;
esac
python=/usr/bin/python3
mkdir -p "$out"
export PYTHONPATH="$root/build/python${PYTHONPATH:+:$PYTHONPATH}"
"$python" -c "import pyg_lib" 2>/dev/null ||
  { echo "cpu_peers: pyg_lib does not import; build it with ../shared/tools/setup_pyg.sh and source its env.sh" >&2; exit 1; }

graph=$out/rmat$scale.msg
[ -e "$graph" ] || "$cli" generate rmat --scale "$scale" -o "$graph" >&2
"$python" "$root/experiments/cpu_peers.py" prepare "$graph" "$out" "$fraction"
for t in $threads; do  # the rates of each thread count, kept before the timed runs
  "$cli" bench -g "$graph" --fanouts "$fanouts" -b "$batch" --train-fraction "$fraction" --threads "$t" "${expand[@]}" \
    >/dev/null 2>&1
done

jsonl=$out/cpu_peers.jsonl
: >"$jsonl"
timed=$out/time.txt
for round in $(seq "$rounds"); do
  for t in $threads; do
    start=$EPOCHREALTIME
    /usr/bin/time -f "%M" -o "$timed" "$cli" bench -g "$graph" --fanouts "$fanouts" -b "$batch" \
      --train-fraction "$fraction" --threads "$t" "${expand[@]}" 2>/dev/null >"$out/matsamp.json"
    wall=$(awk "BEGIN { print $EPOCHREALTIME - $start }")
    read -r rss <"$timed"
    "$python" - "$out/matsamp.json" "$wall" "$rss" "$t" "$round" "rmat$scale" >>"$jsonl" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
bulk = j["bulk"]
print(json.dumps(dict(system="matsamp", threads=int(sys.argv[4]), round=int(sys.argv[5]), graph=sys.argv[6],
                      epoch_s=bulk["time_s"], wall_s=float(sys.argv[2]), peak_rss_bytes=int(sys.argv[3]) * 1024,
                      minibatches=j["minibatches"], sampled_edges=bulk["sampled_edges"])))
EOF
    start=$EPOCHREALTIME
    OMP_NUM_THREADS=$t /usr/bin/time -f "%M" -o "$timed" "$python" "$root/experiments/cpu_peers.py" pyglib \
      "$out" "$fanouts" "$batch" "$t" >"$out/pyglib.json"
    wall=$(awk "BEGIN { print $EPOCHREALTIME - $start }")
    read -r rss <"$timed"
    "$python" - "$out/pyglib.json" "$wall" "$rss" "$round" "rmat$scale" >>"$jsonl" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
j.update(round=int(sys.argv[4]), graph=sys.argv[5], wall_s=float(sys.argv[2]), peak_rss_bytes=int(sys.argv[3]) * 1024)
print(json.dumps(j))
EOF
    echo "cpu_peers: round $round, $t thread(s) done" >&2
  done
done
"$python" "$root/experiments/cpu_peers.py" report "$jsonl" "$out/cpu_peers.png" | tee "$out/cpu_peers.json"
