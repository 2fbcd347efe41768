#!/usr/bin/env bash
# Builds the host unit tests and the matsamp CLI with AddressSanitizer + UBSan
# (and LeakSanitizer) into build-asan/ and runs them through ctest.
# No CUDA, torch, MPI, NCCL or CombBLAS: only what unit_tests and the CLI tests need.
# Environment: MATSAMP_DATA (test graphs, default ../shared/data), MATSAMP_JOBS
# (build and ctest parallelism, default nproc), MATSAMP_SANITIZE_BUILD_TYPE
# (default Debug), MATSAMP_SANITIZE_TESTS (a ctest -R regex to run a subset),
# MATSAMP_SANITIZE_EXCLUDE (a ctest -E regex). The tests of glibc's malloc
# settings skip themselves here: ASan's allocator replaces glibc's.
# Extra arguments go to ctest. ASan/LSan reports of every process (the CLI runs
# of the tests included) are written to build-asan/sanitizer-logs/ and printed at
# the end; UBSan reports go to stderr. A report makes the process exit with 23.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build-asan"
jobs=${MATSAMP_JOBS:-$(nproc)}
type=${MATSAMP_SANITIZE_BUILD_TYPE:-Debug}
flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"

cmake -S "$root" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE="$type" \
  -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DMATSAMP_WITH_CUDA=OFF -DMATSAMP_WITH_TORCH=OFF -DMATSAMP_WITH_MPI=OFF \
  -DMATSAMP_WITH_NCCL=OFF -DMATSAMP_WITH_COMBBLAS=OFF -DMATSAMP_TESTS=ON
# unit_tests depends on matsamp (the CLI tests run it); building it discovers the tests.
cmake --build "$build" -j "$jobs" --target matsamp unit_tests

export MATSAMP_DATA=${MATSAMP_DATA:-$root/../shared/data}
export MATSAMP_CACHE_DIR=${MATSAMP_CACHE_DIR-$build/cache}   # bench's kept memory rates
logs="$build/sanitizer-logs"
rm -rf "$logs" && mkdir -p "$logs"
common="exitcode=23:log_path=$logs/report"
export ASAN_OPTIONS=${ASAN_OPTIONS:-$common:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-exitcode=23:print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/scripts/lsan.supp:print_suppressions=0}
# find_package_example and pip_wheel_example build against this build's sources or install, which link
# without the sanitizer runtime: packaging tests, run by scripts/test.sh and scripts/test-packaging.sh.
exclude=${MATSAMP_SANITIZE_EXCLUDE:-^(find_package_example|pip_wheel_example)$}

cd "$build"
select=()
[ -z "${MATSAMP_SANITIZE_TESTS:-}" ] || select+=(-R "$MATSAMP_SANITIZE_TESTS")
[ -z "$exclude" ] || select+=(-E "$exclude")
status=0
ctest --output-on-failure -j "$jobs" "${select[@]}" "$@" 2>&1 | tee ctest.log || status=$?
reports=$(find "$logs" -type f | sort)
for r in $reports; do echo "==== $r"; cat "$r"; done
summary=$(grep -E "tests passed" ctest.log || true)
echo "matsamp sanitize: ${summary:-no summary}"
grep -qE "out of [1-9]" ctest.log || { echo "matsamp sanitize: no test ran" >&2; exit 1; }
ubsan=$(grep -c "runtime error:" ctest.log || true)
echo "matsamp sanitize: $(echo "$reports" | grep -c . || true) ASan/LSan report(s) in build-asan/sanitizer-logs, $ubsan UBSan report(s) in build-asan/ctest.log"
[ -z "$reports" ] || [ "$status" -ne 0 ] || status=1
exit "$status"
