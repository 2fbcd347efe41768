#!/usr/bin/env bash
# Here, before a GPU session: gathers into .gpu-deps/ (ignored by git, carried
# by the device tool) what the GPU machine lacks: the test graphs of
# ../shared/data and the CLI11 and zlib headers.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
deps=$root/.gpu-deps
data=${MATSAMP_DATA:-$root/../shared/data}
mkdir -p "$deps/data" "$deps/include"
cp "$data"/cora.npz "$data"/email-Eu-core.txt "$data"/karate.mtx "$deps/data/"
cp -r /usr/include/CLI "$deps/include/"
cp /usr/include/zlib.h /usr/include/zconf.h "$deps/include/"
exclude=$(git -C "$root" rev-parse --path-format=absolute --git-path info/exclude)
mkdir -p "$(dirname "$exclude")"
grep -qx '/.gpu-deps/' "$exclude" 2>/dev/null || echo '/.gpu-deps/' >>"$exclude"
du -sh "$deps"
