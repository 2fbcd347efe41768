#!/usr/bin/env bash
# The packaging examples that scripts/test.sh leaves out: `pip wheel .`, the
# wheel installed into a scratch venv, a sample through the installed package and
# its `matsamp` console script. Needs the
# build scripts/test.sh made (build/).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export MATSAMP_DATA=${MATSAMP_DATA:-$root/../shared/data}
cd "$root/build"
ctest --output-on-failure -L packaging 2>&1 | tee ctest-packaging.log
grep -qE "out of [1-9]" ctest-packaging.log || { echo "matsamp packaging tests: no test ran" >&2; exit 1; }
