#!/usr/bin/env bash
# Installs dependencies, builds, and runs every test (GoogleTest through ctest).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/build.sh"
export MATSAMP_DATA=${MATSAMP_DATA:-$root/../shared/data}
cd "$root/build"
ctest --output-on-failure -j "${MATSAMP_JOBS:-$(nproc)}" 2>&1 | tee ctest.log
summary=$(grep -E "tests passed" ctest.log || true)
echo "matsamp tests: ${summary:-no summary}"
grep -qE "out of [1-9]" ctest.log || { echo "matsamp tests: no test ran" >&2; exit 1; }
