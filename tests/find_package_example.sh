#!/usr/bin/env bash
# Installs the built engine into a scratch prefix and builds and runs
# experiments/find_package against it, as another project would.
# Usage: find_package_example.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
source=$2
prefix=$(mktemp -d "${TMPDIR:-/tmp}/matsamp_install.XXXXXX")
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" --component Unspecified > /dev/null
test -x "$prefix/bin/matsamp"
test -f "$prefix/include/matsamp/sampling/registry.h"
generator=()
command -v ninja > /dev/null && generator=(-G Ninja)
cmake -S "$source/experiments/find_package" -B "$prefix/example" "${generator[@]}" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$prefix/example" > /dev/null
out=$("$prefix/example/sample_rmat")
echo "$out"
# 4096 vertices in minibatches of 256; the GraphSAGE layers sample some edges.
echo "$out" | grep -q '"vertices":4096,"minibatches":16,"sampled_edges":[1-9]'
# The backends registered themselves in the installed library too.
if ! "$prefix/example/sample_rmat" cuda > /dev/null 2> "$prefix/err"; then
  grep -q "^sample_rmat: cuda:" "$prefix/err"
fi
"$prefix/bin/matsamp" --help > /dev/null
