#!/usr/bin/env bash
# Ingestion benchmark of experiments/ingestion.md: a generated dataset of
# ogbn-products' shape (scaled to fit one small machine) written in OGB's CSV
# layout with gzip, then converted to .msg. Reports the uncompressed text rate
# against the floor measured in the same run (zcat of the same files to
# /dev/null), with all threads and with one (the serial alternative).
# One JSON line per run, appended to $OUT (default experiments/results/ingestion.jsonl).
# Usage: experiments/run_ingestion.sh [BUILD_DIR] [VERTICES] [DEGREE] [FEATURES]
#        (default 2000000 vertices, degree 30: 60M directed edges, 100 features)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
vertices=${2:-2000000}
degree=${3:-30}
features=${4:-100}
out=${OUT:-$root/experiments/results/ingestion.jsonl}
matsamp=$build/csrc/matsamp
work=${WORK:-/tmp/matsamp_ingestion}
dataset=$work/ogbn_synthetic_${vertices}_${degree}_${features}
mkdir -p "$work" "$(dirname "$out")"

if [ ! -f "$dataset/raw/edge.csv.gz" ]; then
  echo "ingestion: generating $dataset" >&2
  "$matsamp" generate planted --vertices "$vertices" --degree "$degree" --features "$features" --classes 47 \
    -o "$work/source.msg" >&2
  "$matsamp" convert -g "$work/source.msg" --format ogb -o "$dataset" >&2
  rm -f "$work/source.msg"
fi
files=$(find "$dataset" -name '*.csv.gz' | sort)

seconds() { python3 -c 'import sys, time; print(f"{time.time():.3f}")'; }
# shellcheck disable=SC2086
text_bytes=$(zcat $files | wc -c)
# shellcheck disable=SC2086
gz_bytes=$(cat $files | wc -c)
t0=$(seconds)
# shellcheck disable=SC2086
zcat $files > /dev/null
floor_s=$(python3 -c "print(round($(seconds) - $t0, 3))")

for threads in "$(nproc)" 1; do
  log=$work/convert_$threads.log
  OMP_NUM_THREADS=$threads /usr/bin/time -f 'peak_rss_kb=%M wall_s=%e' \
    "$matsamp" convert -g "$dataset" -o "$work/out.msg" 2> "$log" >/dev/null
  read_s=$(sed -n 's/.*graph ready: .*(\([0-9.]*\) s)$/\1/p' "$log")
  peak_kb=$(sed -n 's/.*peak_rss_kb=\([0-9]*\).*/\1/p' "$log")
  wall_s=$(sed -n 's/.*wall_s=\([0-9.]*\).*/\1/p' "$log")
  python3 - "$@" <<PY >> "$out"
import json, platform
text, gz, floor, read = $text_bytes, $gz_bytes, $floor_s, $read_s
print(json.dumps({
    "benchmark": "ingest_ogb_csv_gzip", "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
    "machine": platform.node(), "cores": $(nproc), "threads": $threads,
    "vertices": $vertices, "directed_edges": $(zcat "$dataset/raw/num-edge-list.csv.gz"), "features": $features,
    "text_bytes": text, "gzip_bytes": gz,
    "zcat_floor_s": floor, "zcat_floor_mb_s": round(text / floor / 1e6, 1),
    "read_s": read, "read_mb_s": round(text / read / 1e6, 1), "ratio_to_floor": round(read / floor, 2),
    "convert_wall_s": $wall_s, "peak_rss_bytes": $peak_kb * 1024,
}))
PY
  tail -1 "$out"
done
rm -f "$work/out.msg"
