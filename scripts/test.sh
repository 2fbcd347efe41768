#!/usr/bin/env bash
# Installs dependencies, builds, and runs every test (GoogleTest through ctest) but
# the packaging examples, which build the bindings again (scripts/test-packaging.sh; CI runs both).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/build.sh"
export MATSAMP_DATA=${MATSAMP_DATA:-$root/../shared/data}
# bench keeps the machine's measured memory rates (README, bench): here, not in the home folder.
export MATSAMP_CACHE_DIR=${MATSAMP_CACHE_DIR-$root/build/cache}
cd "$root/build"
ctest --output-on-failure -j "${MATSAMP_JOBS:-$(nproc)}" -LE packaging 2>&1 | tee ctest.log
summary=$(grep -E "tests passed" ctest.log || true)
skipped=$(grep -cE "\(Skipped\)$" ctest.log || true)
echo "matsamp tests: ${summary:-no summary}; $skipped of them skipped"
# Why, grouped: GoogleTest's GTEST_SKIP reason is the line after "Skipped" in ctest's log.
grep -A1 -E ": Skipped$" Testing/Temporary/LastTest.log 2>/dev/null | grep -vE -- "^--$|: Skipped$" |
  sort | uniq -c | sed -E 's/^ *([0-9]+) /matsamp tests: skipped \1: /' || true
# pytest runs as one ctest test per file (python_<file>): their counts summed, and the skip reasons (-rs).
grep -hE "^[0-9]+ (passed|failed).* in [0-9.]+s" Testing/Temporary/LastTest.log 2>/dev/null |
  grep -oE "[0-9]+ (passed|failed|skipped)" | awk '{n[$2] += $1} END {for (k in n) printf "matsamp tests: pytest: %d %s\n", n[k], k}' || true
grep -hE "^SKIPPED \[" Testing/Temporary/LastTest.log 2>/dev/null | sed -E 's/^/matsamp tests: pytest: /' || true
grep -qE "out of [1-9]" ctest.log || { echo "matsamp tests: no test ran" >&2; exit 1; }
