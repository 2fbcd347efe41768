#!/usr/bin/env bash
# Here, before a GPU session: gathers into .gpu-deps/ (ignored by git, carried
# by the device tool) what the GPU machine lacks: the test graphs of
# ../shared/data, PyG's source tree (../shared/pyg), and a small install prefix (CMAKE_PREFIX_PATH) with the CLI11,
# zlib, xxHash, METIS and GoogleTest headers, their CMake configs and libraries.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
deps=$root/.gpu-deps
data=${MATSAMP_DATA:-$root/../shared/data}
lib=lib/x86_64-linux-gnu
mkdir -p "$deps/data" "$deps/include" "$deps/$lib/cmake" "$deps/share/cmake"
cp "$data"/cora.npz "$data"/email-Eu-core.txt "$data"/karate.mtx "$deps/data/"
rm -rf "$deps/pyg" && cp -r "$data/../pyg" "$deps/pyg"   # tests/python/test_pyg.py's client
cp -r /usr/include/CLI /usr/include/gtest /usr/include/gmock "$deps/include/"
cp /usr/include/zlib.h /usr/include/zconf.h /usr/include/xxhash.h /usr/include/xxh3.h /usr/include/metis.h "$deps/include/"
cp -P /usr/$lib/libmetis.so* "$deps/$lib/"   # depends on libc and libm only
cp -r /usr/share/cmake/CLI11 "$deps/share/cmake/"
cp -r /usr/$lib/cmake/GTest "$deps/$lib/cmake/"
cp /usr/$lib/libgtest.a /usr/$lib/libgtest_main.a /usr/$lib/libgmock.a /usr/$lib/libgmock_main.a \
   /usr/$lib/libxxhash.a "$deps/$lib/"
exclude=$(git -C "$root" rev-parse --path-format=absolute --git-path info/exclude)
mkdir -p "$(dirname "$exclude")"
grep -qx '/.gpu-deps/' "$exclude" 2>/dev/null || echo '/.gpu-deps/' >>"$exclude"
du -sh "$deps"
