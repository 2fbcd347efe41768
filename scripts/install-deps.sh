#!/usr/bin/env bash
# Installs the Debian packages matsamp builds, runs and tests with (skips what is there).
# --ci adds CI's other tools: clang-format (scripts/format.sh) and clang with libFuzzer
# (scripts/fuzz.sh); the README's two commands do not need them.
set -euo pipefail
packages=(g++ cmake ninja-build zlib1g-dev libgtest-dev libcli11-dev
          libopenmpi-dev openmpi-bin libcombblas-dev libmetis-dev
          libxxhash-dev libtorch-dev python3-torch python3-numpy python3-pytest pybind11-dev python3-pybind11
          python3-matplotlib    # bench --plot (tests/test_cli.cpp) and the experiments' plots
          python3-xxhash python3-tqdm python3-jinja2 python3-fsspec python3-requests python3-psutil  # PyG (../shared/pyg) as a test client
          python3-scipy         # tests of matsamp.Graph.from_scipy
          python3-venv python3-setuptools python3-wheel)  # tests/pip_wheel_example.sh (pip wheel . offline)
case "${1:-}" in
  "") ;;
  --ci) packages+=(clang-format                          # scripts/format.sh
                   clang libomp-dev libclang-rt-14-dev)  # scripts/fuzz.sh (libFuzzer)
        ;;
  *) echo "install-deps: unknown argument '$1' (none, or --ci)" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}"
