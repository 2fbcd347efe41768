#!/usr/bin/env bash
# The GPU session's one call (experiments/gpu.md): on the lent GPU machine,
# configures the GPU build without CombBLAS, libtorch and MPI, builds, runs the
# GPU tests and the benchmarks of issue 3, then (step torch) a second build
# against the machine's torch (2.11, CUDA) with the trainer and the Python
# extension and their tests (issues 5, 6), and leaves everything in $OUT:
#   summary.txt   one line per step (exit codes, test counts, fingerprints)
#   machine.txt   nvidia-smi, compiler and CMake versions
#   logs.txt      build output, test output, benchmark progress
#   gpu_tests.json  GoogleTest's report of gpu_tests
#   bench.jsonl   one line per benchmark: {"run": NAME, "exit": CODE, "result": <matsamp bench JSON>}
#   pytest.txt, train_tests.json   the torch step's test reports (train_tests_backtrace.txt after a crash)
#   torch_baseline.json  (step torch) plain-torch per-minibatch GraphSAGE sampling vs. the matsamp op
#   accuracy.txt  (step accuracy) Cora test accuracy over 10 splits, trained with --device cuda
#   mpi_bench.jsonl (step mpi) several ranks sharing the GPU, graph replicated and partitioned
#   recent.txt    (step recent) the trainer's CUDA paths through the CLI (link prediction,
#                 R-GCN, the preparation pipeline against itself and against --no-pipeline)
#   frontier.jsonl (step frontier) frontier_bench: the serial walk, the Dashboard, the CUDA walk
#   pipeline.txt  (step pipeline) train_pipeline.sh --device cuda: the pipeline against inline stages
#   partitioned_pipeline.txt  (step partitioned) the same for --distributed partitioned at p = 1
# Usage: scripts/gpu-check.sh [STEP...]   steps: build test bench torch mpi accuracy recent python nccl frontier pipeline
# partitioned dgs samplers (samplers: every sampler against the CPU in the same process, in bench.jsonl), in
# the order given; default all (= the first five, more than one 10-minute call: split them, e.g.
# "build test", then "bench", "torch", "mpi"); accuracy runs only when asked; recent is the
# short check for a short lease (one torch build: gpu_tests, the CLI's trainer on the GPU,
# pytest), python a shorter one (the torch build, gpu_tests, pytest), nccl the CLI's
# --transport nccl on the one GPU (a torch, MPI and NCCL build); a warm
# machine keeps build-gpu/ between calls, so the steps may run in separate calls)
# Needs .gpu-deps/ from scripts/gpu-prepare.sh, carried along.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MATSAMP_GPU_BUILD:-$root/build-gpu}
out=${OUT:-$build/gpu-check-out}   # $OUT: what the device tool brings back
tb=$build-torch                     # the build against the machine's torch
deps=$root/.gpu-deps
export MATSAMP_DATA=$deps/data MATSAMP_CLI=$build-torch/csrc/matsamp
jobs=${MATSAMP_JOBS:-16}
mkdir -p "$out"
summary=$out/summary.txt logs=$out/logs.txt
note() { echo "gpu-check: $*" | tee -a "$summary"; }
started=$SECONDS
# The system compilers, whose libstdc++ torch uses. The image puts /opt/gcc first on
# PATH; nvcc then takes it as host compiler, its library folders enter the link
# line, and the extension gets libstdc++ code of its own beside the shared one:
# iostreams crash (locale facets) in the torch build.
python=$(command -v python3)   # the one with torch (a venv on the GPU machine)
if [ -x /usr/bin/g++ ]; then
  export PATH=/usr/bin:$PATH CC=/usr/bin/gcc CXX=/usr/bin/g++ CUDAHOSTCXX=/usr/bin/g++
fi

# Sets torch_prefix (searched by configure_and_build; callers may make it local)
# to the machine's torch; notes its absence and fails without one.
find_torch() {
  torch_prefix=$("$python" -c 'import torch; print(torch.utils.cmake_prefix_path)') && return 0
  note "no torch"
  return 1
}

# configure_and_build DIR "TARGETS" CMAKE_ARGS...: the GPU machine's configuration
# (CLI11, GoogleTest, xxHash and zlib headers are missing there; .gpu-deps is a
# prefix that carries them; $torch_prefix, when set, is searched too).
configure_and_build() {
  local dir=$1 targets=$2 prefix=$deps extra=()
  shift 2

  if [ ! -e /usr/include/zlib.h ]; then
    local zlib
    zlib=$(ls /usr/lib/x86_64-linux-gnu/libz.so* /lib/x86_64-linux-gnu/libz.so* 2>/dev/null | head -1)
    extra+=(-DZLIB_INCLUDE_DIR="$deps/include" -DZLIB_LIBRARY="$zlib")
  fi
  echo "== configure and build $dir" >>"$logs"
  # shellcheck disable=SC2086  # targets are words
  if ! cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DMATSAMP_WITH_COMBBLAS=OFF -DMATSAMP_WITH_MPI=OFF -DMATSAMP_DATA_DIR="$deps/data" \
        -DCMAKE_PREFIX_PATH="$prefix${torch_prefix:+;$torch_prefix}" "${extra[@]}" "$@" >>"$logs" 2>&1 ||
     ! cmake --build "$dir" -j "$jobs" --target $targets >>"$logs" 2>&1; then
    note "build of $dir FAILED after $((SECONDS - started)) s; the end of logs.txt:"
    tail -40 "$logs"
    exit 1
  fi
  grep -q "CUDA=ON" "$logs" || note "WARNING: configured without CUDA"
  note "built $dir in $((SECONDS - started)) s"
}

# The machine's facts, once per call that builds.
record_machine() {
  { nvidia-smi; nvcc --version; cmake --version | head -1; g++ --version | head -1; } >"$out/machine.txt" 2>&1
}

do_build() {
  record_machine
  configure_and_build "$build" "matsamp gpu_tests unit_tests" -DMATSAMP_WITH_TORCH=OFF
}

# Issues 5 and 6: the trainer and the Python extension against this machine's torch.
do_torch() {
  local torch_prefix
  find_torch || return 0
  note "torch $("$python" -c 'import torch; print(torch.__version__, torch.version.cuda)')"
  configure_and_build "$tb" "matsamp train_tests matsamp_python" -DPython3_EXECUTABLE="$python"
  grep -q "torch=ON" "$logs" || note "WARNING: configured without torch"
  # Line-buffered: a crash must not take the end of the log with it.
  stdbuf -oL "$tb/tests/train_tests" --gtest_output=json:"$out/train_tests.json" >"$tb/train_tests.log" 2>&1
  local rc=$?
  { echo "== train_tests"; cat "$tb/train_tests.log"; } >>"$logs"
  note "train_tests exit $rc: $(grep -E '^\[  (PASSED|SKIPPED|FAILED) *\] [0-9]+ tests?' "$tb/train_tests.log" | tr '\n' ' ')"
  if [ $rc -ge 128 ]; then   # a crash
    local debugger
    # The whole suite again under a debugger: the crashing thread's stack and every thread's top.
    # A jump through a null pointer leaves no frame to unwind from: pop the return address first.
    debugger=$(command -v gdb || command -v cuda-gdb)
    if [ -n "$debugger" ]; then
      "$debugger" -batch -ex run -ex bt -ex 'if $pc == 0' -ex 'set $pc = *(void **)$sp' -ex 'set $sp += 8' \
        -ex end -ex bt -ex 'info threads' -ex 'thread apply all bt 6' \
        --args "$tb/tests/train_tests" >"$out/train_tests_backtrace.txt" 2>&1
      note "train_tests under $(basename "$debugger"): $(grep -m1 -E 'received signal|exited' "$out/train_tests_backtrace.txt")"
      grep -m12 -E '^#[0-9]+ ' "$out/train_tests_backtrace.txt" | cut -c1-200 | tee -a "$summary"
    fi
  fi
  run_pytest
  # The plain-torch per-minibatch GraphSAGE sampler against the matsamp op, on the GPU.
  local graph=$build/rmat_21_32.msg
  mkdir -p "$build"
  [ -e "$graph" ] || "$tb/csrc/matsamp" convert --graph rmat:21:32 -o "$graph" >>"$logs" 2>&1
  PYTHONPATH=$tb/python timeout 400 "$python" "$root/experiments/torch_baseline.py" --graph "$graph" \
    --device cuda --fanouts 15,10,5 -b 1024 --train-fraction 0.095703125 >"$out/torch_baseline.json" 2>>"$logs"
  note "torch_baseline exit $?: $(grep -o '"time_s": [0-9.e+-]*' "$out/torch_baseline.json" | tr '\n' ' ')"
}

# Issue 4 on the GPU machine: the MPI tests, NCCL on its one GPU, and several ranks
# sharing that GPU through the MPI transport (each must give one process's minibatches).
# nccl.h is not in the CUDA toolkit there: it comes with torch's NCCL wheel.
nccl_include_arg() {
  local include
  include=$("$python" -c 'import os, nvidia.nccl; print(os.path.join(list(nvidia.nccl.__path__)[0], "include"))' \
            2>/dev/null)
  [ -z "$include" ] || echo "-DNCCL_INCLUDE_DIR=$include"
}

do_mpi() {
  local mb=$build-mpi
  # shellcheck disable=SC2046  # one word or none
  configure_and_build "$mb" "matsamp mpi_tests" -DMATSAMP_WITH_TORCH=OFF -DMATSAMP_WITH_MPI=ON $(nccl_include_arg)
  grep -q "NCCL=ON" "$logs" || note "WARNING: configured without NCCL"
  local launch=(mpirun --allow-run-as-root --oversubscribe -x OMP_NUM_THREADS=4 -x MATSAMP_DATA="$deps/data")
  for np in 1 2 4; do
    "${launch[@]}" -np $np "$mb/tests/mpi/mpi_tests" --gtest_color=no >"$mb/mpi_tests.log" 2>&1
    local rc=$?
    { echo "== mpi_tests np=$np"; cat "$mb/mpi_tests.log"; } >>"$logs"
    note "mpi_tests np=$np exit $rc: $(grep -E '^\[  (PASSED|SKIPPED|FAILED) *\] [0-9]+ tests?' "$mb/mpi_tests.log" |
                                       sort -u | tr '\n' ' ')"
  done
  local graph=$mb/rmat20.msg
  [ -e "$graph" ] || "$mb/csrc/matsamp" generate rmat --scale 20 -o "$graph" >>"$logs" 2>&1
  # One process on the same graph and options: what p = 1 is held to (issue: replicated
  # within 1.3x, partitioned within 2x of its steps' time).
  local single
  single=$(timeout 300 "$mb/csrc/matsamp" bench -g "$graph" --device cuda --fanouts 15,10,5 -b 1024 \
           --train-fraction 0.1 2>>"$logs")
  echo "${single:-null}" >>"$out/mpi_bench.jsonl"
  note "bench one process cuda: $(echo "$single" | grep -o '"time_s":[0-9.e+-]*\|"fingerprint":[0-9]*' |
                                   head -2 | tr '\n' ' ')"
  for np in 1 2 4; do
    for mode in replicated partitioned; do
      local result
      result=$(timeout 300 "${launch[@]}" -np $np "$mb/csrc/matsamp" bench -g "$graph" --device cuda \
               --distributed $mode --fanouts 15,10,5 -b 1024 --train-fraction 0.1 2>>"$logs")
      echo "${result:-null}" >>"$out/mpi_bench.jsonl"
      note "bench np=$np $mode cuda: $(echo "$result" | grep -o '"epoch_s":[0-9.e+-]*\|"steps_s":[0-9.e+-]*\|"host_copies_in_steps":[0-9]*\|"rank_gpu":[^]]*]\|"minibatch_fingerprint_sum":[0-9]*' |
                                         tr '\n' ' ')"
      [ -n "$result" ] || grep "matsamp: error" "$logs" | tail -1 | tee -a "$summary"
    done
  done
}

# --transport nccl through the CLI (a torch, MPI and NCCL build): the communicator's
# tests on device and host buffers, then bench and partitioned training with one rank
# on the one GPU against --transport mpi (same minibatches, same losses), and two
# ranks on it refused in one line (NCCL needs one GPU per rank).
do_nccl() {
  find_torch || return 0
  record_machine
  local mb=$build-nccl dir=$build-nccl/run log=$out/nccl.txt
  # shellcheck disable=SC2046  # one word or none
  configure_and_build "$mb" "matsamp mpi_tests" -DPython3_EXECUTABLE="$python" -DMATSAMP_WITH_MPI=ON \
    $(nccl_include_arg)
  grep -q "NCCL=ON" "$logs" || { note "configured without NCCL: nccl step not run"; return; }
  local launch=(mpirun --allow-run-as-root --oversubscribe -x OMP_NUM_THREADS=4 -x MATSAMP_DATA="$deps/data")
  for np in 1 2; do
    "${launch[@]}" -np $np "$mb/tests/mpi/mpi_tests" --gtest_filter='NcclCommunicator*' >"$mb/nccl_tests.log" 2>&1
    note "mpi_tests NcclCommunicator* np=$np exit $?: $(sed 's/\x1b\[[0-9;]*m//g' "$mb/nccl_tests.log" |
                                                         grep -E '^\[  (PASSED|SKIPPED|FAILED) *\] [0-9]+ tests?' |
                                                         sort -u | tr '\n' ' ')"
    cat "$mb/nccl_tests.log" >>"$log"
  done
  mkdir -p "$dir"
  "$mb/csrc/matsamp" generate planted --vertices 3000 --classes 4 --features 16 -o "$dir/g.msg" >>"$log" 2>&1
  local bench=(bench -g "$dir/g.msg" --device cuda --distributed partitioned --fanouts "10,5" -b 64)
  local train=(train -g "$dir/g.msg" --epochs 3 -b 8 --minibatches-per-step 8 --seed 3 --device cuda)
  for transport in mpi nccl; do
    timeout 120 "${launch[@]}" -np 1 "$mb/csrc/matsamp" "${bench[@]}" --transport $transport >"$dir/bench_$transport" 2>>"$log"
    note "bench --transport $transport: exit $?, $(grep -o '"transport":"[a-z]*"\|"minibatch_fingerprint_sum":[0-9]*' \
                                                   "$dir/bench_$transport" | tr '\n' ' ')"
    for mode in partitioned replicated; do
      timeout 120 "${launch[@]}" -np 1 "$mb/csrc/matsamp" "${train[@]}" --distributed $mode --transport $transport \
        >"$dir/train_${mode}_$transport" 2>>"$log"
      note "train --distributed $mode --transport $transport: exit $?, $(grep -c '"epoch"' "$dir/train_${mode}_$transport") epochs"
      grep -o '"loss":[0-9.e+-]*' "$dir/train_${mode}_$transport" >"$dir/losses_${mode}_$transport"
    done
  done
  for mode in partitioned replicated; do
    cmp -s "$dir/losses_${mode}_mpi" "$dir/losses_${mode}_nccl" &&
      note "train $mode: nccl losses equal to mpi's ($(tr '\n' ' ' <"$dir/losses_${mode}_nccl"))" ||
      note "train $mode: nccl losses DIFFER from mpi's: $(paste -sd' ' "$dir/losses_${mode}_mpi") vs $(paste -sd' ' "$dir/losses_${mode}_nccl")"
  done
  timeout 120 "${launch[@]}" -np 2 "$mb/csrc/matsamp" "${train[@]}" --distributed partitioned --transport nccl \
    >/dev/null 2>"$dir/two_ranks_err"
  note "two ranks on one GPU with nccl: exit $?, $(grep -c 'matsamp: error' "$dir/two_ranks_err") error line(s):" \
       "$(grep -m1 'matsamp: error' "$dir/two_ranks_err" | cut -c1-200)"
}

# Issue 5 on the GPU: Cora over 10 splits, models and sampling on the GPU.
# The CLI against the machine's torch, built when missing.
need_torch_cli() {
  [ -x "$tb/csrc/matsamp" ] && return 0
  local torch_prefix
  find_torch || return
  record_machine
  configure_and_build "$tb" "matsamp" -DPython3_EXECUTABLE="$python"
}

# MODELS (train_accuracy.sh's) picks the models.
do_accuracy() {
  need_torch_cli || return
  MATSAMP=$tb/csrc/matsamp CORA=$deps/data/cora.npz LOG_DIR=$out/accuracy \
    timeout 550 "$root/experiments/train_accuracy.sh" --device cuda >"$out/accuracy.txt" 2>&1
  note "accuracy exit $?: $(grep 'mean test accuracy' "$out/accuracy.txt" | tr '\n' ' ')"
}

# One torch build for a short lease: gpu_tests, then the trainer's CUDA paths
# through the CLI (each must exit 0; the pipeline must give the losses of
# --no-pipeline), partitioned training, then pytest.
do_recent() {
  recent_build || return
  recent_cli
  recent_partitioned
  run_pytest
}

# Shorter still: the torch build, gpu_tests and pytest (the Python ops on the GPU).
do_python() {
  recent_build || return
  run_pytest
}

recent_build() {
  find_torch || return   # global: recent_partitioned builds with it too
  record_machine
  configure_and_build "$tb" "matsamp gpu_tests matsamp_python" -DPython3_EXECUTABLE="$python"
  grep "Python CUDA ops" "$logs" | tail -1 | tee -a "$summary"
  run_gpu_tests "$tb"
  return 0   # a failing test is reported, not a reason to stop
}

recent_cli() {
  local cli=$tb/csrc/matsamp log=$out/recent.txt
  # train_check NAME ARGS...: one training run, its epoch lines kept; the losses to $tb/NAME.losses.
  train_check() {
    local name=$1 rc
    shift
    echo "== $name: matsamp train $*" >>"$log"
    timeout 150 "$cli" train "$@" >"$tb/$name.out" 2>>"$log"
    rc=$?
    cat "$tb/$name.out" >>"$log"
    grep -o '"loss":[0-9.e+-]*' "$tb/$name.out" >"$tb/$name.losses"
    note "$name: exit $rc, $(grep -c '"epoch"' "$tb/$name.out") epochs, $(tail -1 "$tb/$name.out" | cut -c1-160)"
  }
  train_check link --task link -g "$deps/data/cora.npz" --device cuda --epochs 3
  train_check link_ladies --task link -g "$deps/data/cora.npz" --device cuda --epochs 2 --sampler ladies
  train_check rgcn -g mag:3000:4 --model rgcn --add-reverse --device cuda --epochs 3
  train_check pipeline -g planted:20000:8 --device cuda --epochs 3
  train_check pipeline_again -g planted:20000:8 --device cuda --epochs 3
  train_check no_pipeline -g planted:20000:8 --device cuda --epochs 3 --no-pipeline
  local same=no again=no
  cmp -s "$tb/pipeline.losses" "$tb/no_pipeline.losses" && same=yes
  cmp -s "$tb/pipeline.losses" "$tb/pipeline_again.losses" && again=yes
  note "pipeline losses equal to --no-pipeline: $same; equal on a second run: $again ($(tr '\n' ' ' <"$tb/pipeline.losses"))"
}

# tests/python against the torch build ($tb), with PyG's tree carried in .gpu-deps.
run_pytest() {
  if "$python" -c 'import pytest' 2>/dev/null; then
    MATSAMP_PYG=$deps/pyg PYTHONPATH=$tb/python timeout 240 "$python" -m pytest "$root/tests/python" -q -rs \
      -p no:cacheprovider >"$out/pytest.txt" 2>&1
    note "pytest exit $?: $(tail -1 "$out/pytest.txt")"
  else
    note "pytest is not installed: tests/python not run"
  fi
}

# Partitioned training with the model on the GPU (a torch and MPI build): ranks
# sharing the one GPU, their epochs against one process's.
recent_partitioned() {
  local mb=$build-torch-mpi dir=$build-torch-mpi/run log=$out/recent.txt
  configure_and_build "$mb" "matsamp" -DPython3_EXECUTABLE="$python" -DMATSAMP_WITH_MPI=ON
  mkdir -p "$dir"
  "$mb/csrc/matsamp" generate planted --vertices 1500 --classes 4 --features 16 -o "$dir/g.msg" >>"$log" 2>&1
  local train=(train -g "$dir/g.msg" --epochs 3 -b 8 --minibatches-per-step 8 --seed 3 --device cuda
               --distributed partitioned)
  local runs=("1 1" "2 1" "4 2") np c
  for run in "${runs[@]}"; do
    read -r np c <<<"$run"
    echo "== partitioned np=$np c=$c" >>"$log"
    timeout 120 mpirun --allow-run-as-root --oversubscribe -x OMP_NUM_THREADS=2 -np "$np" "$mb/csrc/matsamp" \
      "${train[@]}" --replication "$c" >"$dir/out_$np" 2>>"$log"
    note "partitioned --device cuda np=$np c=$c: exit $?, $(grep -c '"epoch"' "$dir/out_$np") epochs"
    grep '"epoch"' "$dir/out_$np" | sed -E 's/,"feature_fetch_bytes".*//' >"$dir/scores_$np"
    cat "$dir/out_$np" >>"$log"
  done
  for np in 2 4; do
    cmp -s "$dir/scores_1" "$dir/scores_$np" && note "partitioned np=$np: epochs equal to one process's" ||
      note "partitioned np=$np: epochs DIFFER from one process's: $(diff "$dir/scores_1" "$dir/scores_$np" | head -4)"
  done
}

# run_gpu_tests BUILD: that build's gpu_tests; counts and failed tests to the summary.
run_gpu_tests() {
  local log=$1/gpu_tests.log rc
  "$1/tests/gpu_tests" --gtest_output=json:"$out/gpu_tests.json" >"$log" 2>&1
  rc=$?
  { echo "== gpu_tests"; cat "$log"; } >>"$logs"
  note "gpu_tests exit $rc: $(grep -E '^\[  (PASSED|SKIPPED|FAILED) *\] [0-9]+ tests?' "$log" | tr '\n' ' ')"
  grep -E '^\[  FAILED  \] [A-Za-z].*\)$' "$log" | head -20 | tee -a "$summary"
}

# A machine released between calls (idle too long) comes back bare: build first.
need_build() { [ -x "$build/tests/gpu_tests" ] && [ -x "$build/csrc/matsamp" ] || do_build; }

do_test() {
  need_build
  local log=$build/gpu_tests.log rc
  run_gpu_tests "$build"
  "$build/tests/unit_tests" --gtest_filter='CliDevice*:GpuMemoryPlan*:CudaBackendEntry*:GpuRowSampler*' >"$log" 2>&1
  rc=$?
  { echo "== unit_tests (the device parts)"; cat "$log"; } >>"$logs"
  note "unit_tests (CliDevice, GpuMemoryPlan, CudaBackendEntry, GpuRowSampler) exit $rc:" \
       "$(grep -E '^\[  (PASSED|SKIPPED|FAILED) *\] [0-9]+ tests?' "$log" | tr '\n' ' ')"
}

# bench NAME ARGS...: one matsamp bench run, appended to bench.jsonl.
bench() {
  local name=$1 result rc
  shift
  echo "== bench $name: $*" >>"$logs"
  result=$(timeout 400 "$build/csrc/matsamp" bench --graph "$graph" "$@" 2>>"$logs")
  rc=$?
  echo "{\"run\":\"$name\",\"exit\":$rc,\"result\":${result:-null}}" >>"$out/bench.jsonl"
  note "$name: exit $rc, bulk $(echo "$result" | grep -o '"bulk":{"bulk_size":[0-9]*,"time_s":[0-9.e+-]*' | head -1)," \
       "$(echo "$result" | grep -o '"bulk_time_without_copies_s":[0-9.e+-]*' | head -1)," \
       "fingerprint $(echo "$result" | grep -o '"fingerprint":[0-9]*' | head -1 | cut -d: -f2)"
  [ $rc -eq 0 ] || tail -3 "$logs" | tee -a "$summary"
}

do_bench() {
  need_build
  local spec=${MATSAMP_BENCH_GRAPH:-rmat:21:32}   # another spec only to try the script on a small graph
  graph=$build/${spec//:/_}.msg
  if [ ! -e "$graph" ]; then
    echo "== convert $spec" >>"$logs"
    "$build/csrc/matsamp" convert --graph "$spec" -o "$graph" >>"$logs" 2>&1 || { note "graph generation FAILED"; exit 1; }
  fi
  # n = 2^21: 196 minibatches of 1024 (GraphSAGE), 392 of 512 (LADIES), as in issue 3.
  local fraction=0.095703125
  local sage=(--fanouts 15,10,5 -b 1024 --train-fraction $fraction)
  # GraphSAGE's layers stay on the GPU by default (fetched after the steps for
  # the fingerprint); the first of the repeats includes the graph's upload.
  bench graphsage_cuda_k196 --device cuda "${sage[@]}" -k 196 --compare-per-batch --repeat 5
  bench graphsage_cuda_auto_k --device cuda "${sage[@]}" --repeat 3
  bench graphsage_cuda_to_host --device cuda "${sage[@]}" -k 196 --results-to-host --repeat 3
  bench graphsage_cpu --device cpu "${sage[@]}" -k 196 --repeat 3
  local ladies=(--sampler ladies -b 512 --train-fraction $fraction -k 392 --repeat 3)
  bench ladies1_cuda --device cuda "${ladies[@]}" --samples 512
  bench ladies2_cuda --device cuda "${ladies[@]}" --samples 512,512
  bench ladies2_cpu --device cpu "${ladies[@]}" --samples 512,512
  # Layer-wise layers held on the GPU (the default) against copied inside the steps.
  bench ladies2_cuda_to_host --device cuda "${ladies[@]}" --samples 512,512 --results-to-host
  local saint=(--sampler saint --walk-length 2 --layers 2 -b 1024 --train-fraction $fraction -k 196 --repeat 3)
  bench saint_cuda --device cuda "${saint[@]}" --compare-per-batch
  bench saint_cpu --device cpu "${saint[@]}"
  bench saint_node_cuda --device cuda --sampler saint_node --budget 2048 --layers 2 -b 1024 \
    --train-fraction $fraction -k 196 --repeat 3
  note "benchmarks done after $((SECONDS - started)) s (same fingerprint on cpu and cuda = same minibatches)"
}

# Every sampler on R-MAT 20 (b = 1024, 103 minibatches, as experiments/gpu.md's
# "Other samplers" and issue 39's item 2): on the GPU, and in the same process on
# the CPU's threads (--compare-device cpu): time_ratio, both fingerprints, the floor.
do_samplers() {
  need_build
  local spec=${MATSAMP_SAMPLERS_GRAPH:-rmat:20}
  graph=$build/${spec//:/_}.msg
  if [ ! -e "$graph" ]; then
    "$build/csrc/matsamp" convert --graph "$spec" -o "$graph" >>"$logs" 2>&1 || { note "graph generation FAILED"; return 1; }
  fi
  local common=(--device cuda --compare-device cpu --threads "$jobs" -b 1024 --train-fraction 0.1 --repeat 3)
  bench graphsage_vs_cpu "${common[@]}" --sampler graphsage --fanouts 15,10,5
  bench labor_vs_cpu "${common[@]}" --sampler labor --fanouts 15,10,5
  bench dgs_vs_cpu "${common[@]}" --sampler dgs --fanouts 15,10,5
  bench ladies_vs_cpu "${common[@]}" --sampler ladies --samples 512,512
  bench fastgcn_vs_cpu "${common[@]}" --sampler fastgcn --samples 512,512
  bench saint_vs_cpu "${common[@]}" --sampler saint --walk-length 2 --layers 2
  bench saint_node_vs_cpu "${common[@]}" --sampler saint_node --budget 2048 --layers 2
  bench saint_edge_vs_cpu "${common[@]}" --sampler saint_edge --budget 2048 --layers 2
  bench frontier_vs_cpu "${common[@]}" --sampler frontier --budget 2048 --layers 2
  bench graphsage_temporal_vs_cpu "${common[@]}" --sampler graphsage --fanouts 15,10,5 --temporal uniform \
    --vertex-times random:1000
  note "samplers: $(grep -c '_vs_cpu' "$out/bench.jsonl") runs; time_ratio and identical_minibatches:" \
    "$(grep -o '"run":"[a-z_]*_vs_cpu"\|"time_ratio":[0-9.e+-]*\|"identical_minibatches":[a-z]*' "$out/bench.jsonl" |
      cut -d: -f2 | tr '\n' ' ')"
}

# The training pipeline with --device cuda against preparing and sampling inline
# (PIPELINE_OPTIONS: more train options).
do_pipeline() {
  need_torch_cli || return
  local extra
  read -r -a extra <<<"${PIPELINE_OPTIONS:-}"   # e.g. --threads 4
  MATSAMP=$tb/csrc/matsamp WORK=$build/pipeline timeout 400 "$root/experiments/train_pipeline.sh" --device cuda \
    "${extra[@]}" >"$tb/pipeline.txt" 2>>"$logs"
  note "pipeline${PIPELINE_OPTIONS:+ ($PIPELINE_OPTIONS)} exit $?:"
  tee -a "$summary" <"$tb/pipeline.txt" >>"$out/pipeline.txt"
}

# The cluster path on the one GPU (a torch and MPI build): partitioned training
# sampling on the device, ahead of the steps, at p = 1, 2, 4 (ranks sharing the GPU;
# epochs equal to one process's), then its pipeline against inline sampling at p = 1.
do_partitioned() {
  local torch_prefix
  find_torch || return 0
  record_machine
  recent_partitioned
  LAUNCH="mpirun --allow-run-as-root --bind-to none -np 1" SETTINGS="|--no-prefetch|--no-pipeline --no-prefetch"     MATSAMP=$build-torch-mpi/csrc/matsamp WORK=$build/pipeline timeout 300 "$root/experiments/train_pipeline.sh"     --distributed partitioned --device cuda >"$out/partitioned_pipeline.txt" 2>>"$logs"
  note "partitioned pipeline exit $?:"
  tee -a "$summary" <"$out/partitioned_pipeline.txt"
}

# The frontier walk on the device: gpu_tests, then frontier_bench (the serial walk,
# the Dashboard on one and on all cores, the CUDA walk) on R-MAT 18 and 20.
do_frontier() {
  record_machine
  configure_and_build "$build" "gpu_tests frontier_bench" -DMATSAMP_WITH_TORCH=OFF
  run_gpu_tests "$build"
  local graph
  for graph in rmat:18 rmat:20; do
    timeout 200 "$build/experiments/frontier_bench" "$graph" >>"$out/frontier.jsonl" 2>>"$logs"
    note "frontier_bench $graph exit $?: $(tail -1 "$out/frontier.jsonl" |
      grep -o '"\(serial_s\|dashboard_s\|cuda_s\|cuda_matches_cpu\)":[^,}]*' | tr '\n' ' ')"
  done
}

# DGS on the device (issue 22), one torch and MPI build: gpu_tests (the guided-draw
# kernel against the CPU op), then dgs_bytes.sh's dgs_dims setting with --device
# cuda on two Cora splits, four ranks sharing the GPU.
do_dgs() {
  local torch_prefix mb=$build-torch-mpi
  find_torch || return 0
  record_machine
  configure_and_build "$mb" "matsamp gpu_tests" -DPython3_EXECUTABLE="$python" -DMATSAMP_WITH_MPI=ON
  run_gpu_tests "$mb"
  MATSAMP=$mb/csrc/matsamp CORA=$deps/data/cora.npz SPLITS=2 EVERY=20 FLOOR=0.3 FRACTION=0.5 \
    DGS_OPTIONS="--device cuda" LOG_DIR=$out/dgs timeout 240 "$root/experiments/dgs_bytes.sh" dgs_dims \
    >"$out/dgs.txt" 2>&1
  note "dgs_dims --device cuda exit $?: $(grep -E 'split [0-9]+:|fetch bytes' "$out/dgs.txt" | tr '\n' ' ')"
}

usage="usage: $0 [STEP...], steps: all (= build test bench torch mpi), build, test, bench, torch, mpi, accuracy, recent, python, nccl, frontier, pipeline, partitioned, dgs, samplers"
steps=("${@:-all}")
for step in "${steps[@]}"; do   # checked before anything runs
  case $step in all | build | test | bench | torch | mpi | accuracy | recent | python | nccl | frontier | pipeline | partitioned | dgs | samplers) ;; *) echo "$usage" >&2; exit 2 ;; esac
done
for step in "${steps[@]}"; do
  case $step in
    all) do_build; do_test; do_bench; do_torch; do_mpi ;;
    *) "do_$step" ;;
  esac
done
