#!/usr/bin/env bash
# The tests again under sanitizers, in a build of their own, through ctest.
#   scripts/sanitize.sh            AddressSanitizer + UBSan (+ LeakSanitizer), GCC, build-asan/:
#                                  the unit and CLI tests, the trainer's, the MPI tests at np 2 and
#                                  the CLI under mpirun.
#   scripts/sanitize.sh --thread   ThreadSanitizer, clang with LLVM's OpenMP and its Archer tool
#                                  (OpenMP's barriers and tasks seen by TSan), build-tsan/: the
#                                  sampler and trainer tests (the prefetching epochs, the trainer's
#                                  preparation pipeline, explainer and background workers).
# No CUDA, NCCL or CombBLAS; no Python tests (the extension would need the sanitizer runtime
# preloaded into Python) and no packaging tests (they build again, without sanitizers).
# Environment: MATSAMP_DATA (test graphs, default ../shared/data), MATSAMP_JOBS (build and ctest
# parallelism, default nproc), MATSAMP_SANITIZE_BUILD_TYPE (default Debug for ASan, RelWithDebInfo
# for TSan, at -O1: TSan's advice, and half the build of -O2), MATSAMP_SANITIZE_TESTS (a ctest -R regex: a subset),
# MATSAMP_SANITIZE_EXCLUDE (a ctest -E regex, replacing the mode's). Extra arguments go to ctest.
# Reports of every process (the CLI runs and MPI ranks of the tests included) are written to
# <build>/sanitizer-logs/ and printed at the end; a report makes its process exit with 23, and
# the run fails. The tests of glibc's malloc settings skip themselves: the sanitizers' allocators
# replace glibc's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${MATSAMP_JOBS:-$(nproc)}
mode=address
if [ "${1:-}" = --thread ]; then mode=thread; shift; fi

common=(-G Ninja -DMATSAMP_WITH_CUDA=OFF -DMATSAMP_WITH_NCCL=OFF -DMATSAMP_WITH_COMBBLAS=OFF -DMATSAMP_TESTS=ON)
if [ "$mode" = address ]; then
  build="$root/build-asan"
  flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
  # Open MPI unloads its components (dlclose) in MPI_Finalize, and LeakSanitizer then cannot
  # name the library that allocated what they kept: every executable here keeps libraries
  # loaded, so that lsan.supp can name Open MPI's own allocations.
  mkdir -p "$build"
  printf 'int dlclose(void* library) { (void)library; return 0; }\n' > "$build/keep_libraries.c"
  cc -c -O1 -fPIC "$build/keep_libraries.c" -o "$build/keep_libraries.o"
  cmake -S "$root" -B "$build" "${common[@]}" -DCMAKE_BUILD_TYPE="${MATSAMP_SANITIZE_BUILD_TYPE:-Debug}" \
    -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined $build/keep_libraries.o" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined"
  targets=(matsamp matsamp-full unit_tests train_tests mpi_tests train_mpi_tests)
  # The MPI tests at np 2 only (p = 1, 3, 4 run in scripts/test.sh), the 4 x 2 grid's training too.
  # Trainings run through the CLI train with the code the trainer tests run directly (their
  # option and file checks, the BadInput tests, stay).
  default_exclude='^(find_package_example|pip_wheel_example|python_.*|(train_)?mpi_tests_np[134]|cli_distributed_train_np8'
  default_exclude+='|cli_byte_model_np4|(Link|Train)Cli\.(Trains|Checkpoints).*|HeteroTrainer\..*FromTheCli)$'
else
  build="$root/build-tsan"
  flags="-fsanitize=thread -fno-omit-frame-pointer"
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" "${common[@]}" -DMATSAMP_WITH_MPI=OFF \
    -DCMAKE_BUILD_TYPE="${MATSAMP_SANITIZE_BUILD_TYPE:-RelWithDebInfo}" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g -DNDEBUG" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread"
  targets=(matsamp matsamp-full unit_tests train_tests)
  # Without MPI there are no MPI tests; the CLI's option and file checks are single-threaded and
  # already run under ASan, and trainings through the CLI run the trainer tests' code (a TSan
  # process costs 5-15x).
  default_exclude='^(find_package_example|pip_wheel_example|python_.*|[A-Za-z]*Cli[A-Za-z]*\..*|HeteroTrainer\..*FromTheCli)$'
fi
# Building the test executables discovers their tests.
cmake --build "$build" -j "$jobs" --target "${targets[@]}"

export MATSAMP_DATA=${MATSAMP_DATA:-$root/../shared/data}
export MATSAMP_CACHE_DIR=${MATSAMP_CACHE_DIR-$build/cache}   # bench's kept memory rates
logs="$build/sanitizer-logs"
rm -rf "$logs" && mkdir -p "$logs"
log="exitcode=23:log_path=$logs/report"
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-exitcode=23:print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/scripts/lsan.supp:print_suppressions=0}
if [ "$mode" = address ]; then
  export ASAN_OPTIONS=${ASAN_OPTIONS:-$log:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1}
else
  # Archer makes libomp's synchronisation visible to TSan; libtorch and libgomp are not
  # instrumented, so what happens inside them is not checked (ignore_noninstrumented_modules).
  archer=$(clang -print-file-name=libarcher.so)
  [ -f "$archer" ] || archer=$(find /usr/lib/llvm-*/lib -name libarcher.so 2>/dev/null | head -1)
  [ -f "$archer" ] || { echo "matsamp sanitize: libarcher.so not found (libomp-dev)" >&2; exit 2; }
  export OMP_TOOL_LIBRARIES=$archer
  export TSAN_OPTIONS=${TSAN_OPTIONS:-$log:halt_on_error=0:second_deadlock_stack=1:ignore_noninstrumented_modules=1:suppressions=$root/scripts/tsan.supp}
  # Zero reports mean something only if TSan reports a race here, with Archer loaded.
  printf '%s\n' 'int main() { long racy = 0;' '#pragma omp parallel for num_threads(2)' \
    'for (int i = 0; i < 1000; ++i) racy += i;' 'return racy > 0 ? 0 : 1; }' > "$build/race_check.cpp"
  clang++ -fsanitize=thread -fopenmp=libomp -g "$build/race_check.cpp" -o "$build/race_check"
  ARCHER_OPTIONS=verbose=1 TSAN_OPTIONS=exitcode=23:ignore_noninstrumented_modules=1 "$build/race_check" \
    > "$build/race_check.log" 2>&1 || true
  grep -q "Archer detected OpenMP application" "$build/race_check.log" &&
    grep -q "WARNING: ThreadSanitizer: data race" "$build/race_check.log" ||
    { echo "matsamp sanitize: TSan with Archer did not report race_check.cpp's race (${build}/race_check.log)" >&2; exit 1; }
fi
exclude=${MATSAMP_SANITIZE_EXCLUDE-$default_exclude}

cd "$build"
select=()
[ -z "${MATSAMP_SANITIZE_TESTS:-}" ] || select+=(-R "$MATSAMP_SANITIZE_TESTS")
[ -z "$exclude" ] || select+=(-E "$exclude")
status=0
ctest --output-on-failure -j "$jobs" "${select[@]}" "$@" 2>&1 | tee ctest.log || status=$?
reports=$(find "$logs" -type f | sort)
for r in $reports; do echo "==== $r"; cat "$r"; done
summary=$(grep -E "tests passed" ctest.log || true)
echo "matsamp sanitize ($mode): ${summary:-no summary}"
grep -qE "out of [1-9]" ctest.log || { echo "matsamp sanitize: no test ran" >&2; exit 1; }
ubsan=$(grep -c "runtime error:" ctest.log || true)
echo "matsamp sanitize ($mode): $(echo "$reports" | grep -c . || true) report(s) in ${build#"$root"/}/sanitizer-logs, $ubsan UBSan report(s) in ${build#"$root"/}/ctest.log"
[ -z "$reports" ] || [ "$status" -ne 0 ] || status=1
exit "$status"
