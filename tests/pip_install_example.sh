#!/usr/bin/env bash
# `pip install` of the Python package as a user does it offline: a venv over the
# system's torch, pip building the extension through the project's CMake
# (bindings/setup.py), then the installed package used from outside the repository.
# Usage: pip_install_example.sh SOURCE_DIR PYTHON
set -euo pipefail
source=$1
python=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/matsamp_pip.XXXXXX")
trap 'rm -rf "$dir"' EXIT
"$python" -m venv --system-site-packages "$dir/venv"
if ! "$dir/venv/bin/pip" install --no-build-isolation --no-index "$source/bindings" \
  > "$dir/pip.log" 2>&1; then
  tail -n 40 "$dir/pip.log"
  exit 1
fi
cd "$dir"
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
