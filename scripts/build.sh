#!/usr/bin/env bash
# Configures and builds matsamp into build/ (extra arguments go to cmake).
# The CUDA kernels are built for this machine's GPUs ("native"); on a machine without
# one, for one architecture only (sm_90: they compile, nothing here runs them), which
# halves their build. -DCMAKE_CUDA_ARCHITECTURES=... (or an earlier configure) decides instead;
# CMakeLists.txt's default for other builds is "80;90".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${MATSAMP_JOBS:-$(nproc)}
arch=()
if [[ " $* " != *CMAKE_CUDA_ARCHITECTURES* ]] && ! grep -qs "^CMAKE_CUDA_ARCHITECTURES:" "$root/build/CMakeCache.txt"; then
  if nvidia-smi -L > /dev/null 2>&1; then arch=(-DCMAKE_CUDA_ARCHITECTURES=native); else arch=(-DCMAKE_CUDA_ARCHITECTURES=90); fi
fi
cmake -S "$root" -B "$root/build" -G Ninja "${arch[@]}" "$@"
cmake --build "$root/build" -j "$jobs"
