#!/usr/bin/env bash
# The Python package as a user gets it offline: `pip wheel .` builds the extension
# and the matsamp command through the project's CMake (setup.py) against the
# system's torch; the wheel installed into a fresh venv over that torch; the
# installed package and its `matsamp` console script used from outside the repository.
# Usage: pip_wheel_example.sh SOURCE_DIR PYTHON
set -euo pipefail
source=$1
python=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/matsamp_pip.XXXXXX")
trap 'rm -rf "$dir"' EXIT
"$python" -m venv --system-site-packages "$dir/builder"
if ! "$dir/builder/bin/pip" wheel --no-build-isolation --no-index --no-deps -w "$dir/wheels" "$source" \
  > "$dir/pip.log" 2>&1; then
  tail -n 40 "$dir/pip.log"
  exit 1
fi
wheel=$(ls "$dir"/wheels/matsamp-*.whl)
echo "built $(basename "$wheel")"
"$python" -m venv --system-site-packages "$dir/venv"
"$dir/venv/bin/pip" install --no-index --no-deps "$wheel" > "$dir/install.log" 2>&1 || { cat "$dir/install.log"; exit 1; }
cd "$dir"
version=$("$dir/venv/bin/matsamp" --version)
[ "$version" = "matsamp 0.1.0" ] || { echo "the console script printed '$version'" >&2; exit 1; }
echo "console script: $version"
"$dir/venv/bin/python" - "$dir/venv" <<'PY'
import importlib.metadata
import sys

import torch

import matsamp

assert matsamp.__file__.startswith(sys.argv[1]), f"imported {matsamp.__file__}, not the installed package"
print("matsamp", importlib.metadata.version("matsamp"), "installed at", matsamp.__file__)
graph = matsamp.Graph.from_edge_index(torch.randint(0, 500, (2, 4000), generator=torch.Generator().manual_seed(1)),
                                      500)
loader = matsamp.BulkSampler(graph, batch_size=50, input_nodes=torch.arange(200), sampler="graphsage",
                             sizes=[5, 5], seed=1)
batches = list(loader)
assert len(batches) == 4 and all(mb.batch_size == 50 for mb in batches), [mb.batch_size for mb in batches]
assert all(mb.adjs[0][0].shape[1] > 0 for mb in batches)
print("sampled", len(batches), "minibatches through the installed package")
PY
