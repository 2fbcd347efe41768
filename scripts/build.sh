#!/usr/bin/env bash
# Configures and builds matsamp into build/ (extra arguments go to cmake).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${MATSAMP_JOBS:-$(nproc)}
cmake -S "$root" -B "$root/build" -G Ninja "$@"
cmake --build "$root/build" -j "$jobs"
