#!/usr/bin/env bash
# Fuzzing of the readers with libFuzzer under ASan and UBSan: builds build-fuzz
# with clang, seeds each target with the real data in ../shared/data and small
# generated files, and runs each for MATSAMP_FUZZ_SECONDS (default 60). A crash,
# a sanitizer report, an exception other than matsamp::Error, or an allocation
# above 1 GiB for an input of at most 64 KiB fails the run; the input is kept in
# build-fuzz/findings/ (make it a regression test of its reader).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MATSAMP_FUZZ_BUILD:-$root/build-fuzz}
seconds=${MATSAMP_FUZZ_SECONDS:-60}
data=${MATSAMP_DATA:-$root/../shared/data}
jobs=${MATSAMP_JOBS:-$(nproc)}
# MATSAMP_FUZZ_TARGETS: some of them only (names as below, space separated).
all_targets=(npz matrix_market edge_list msg hetero_msg ogb_folder estimate partitioned_block checkpoint ogb_link_split
             torch_pickle)
read -r -a targets <<< "${MATSAMP_FUZZ_TARGETS:-${all_targets[*]}}"

# -O1, as libFuzzer's documentation builds its targets (and a shorter build than -O2).
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g -DNDEBUG" \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DMATSAMP_WITH_CUDA=OFF -DMATSAMP_WITH_MPI=OFF -DMATSAMP_WITH_NCCL=OFF -DMATSAMP_WITH_COMBBLAS=OFF \
  -DMATSAMP_WITH_METIS=OFF -DMATSAMP_TESTS=OFF -DMATSAMP_FUZZ=ON > /dev/null
# checkpoint reads through libtorch (found as by the main build; torch itself is not
# instrumented, only what matsamp does around it).
cmake --build "$build" -j "$jobs" --target matsamp "${all_targets[@]/#/fuzz_}"

# Seeds: the real files where they are small, and generated ones of every kind.
corpus=$build/corpus
findings=$build/findings
rm -rf "$corpus" "$findings"
mkdir -p "$findings" "${all_targets[@]/#/$corpus/}"
matsamp=$build/csrc/matsamp
export ASAN_OPTIONS=detect_leaks=0  # the seed generator is not what is measured
cp "$data/karate.mtx" "$data/jagmesh7.mtx" "$corpus/matrix_market/"
gzip -c "$data/karate.mtx" > "$corpus/matrix_market/karate.mtx.gz"
printf '%%%%MatrixMarket matrix coordinate complex hermitian\n2 2 2\n1 1 1 0\n2 1 0.5 -2\n' > "$corpus/matrix_market/c.mtx"
printf '%%%%MatrixMarket matrix coordinate integer symmetric\n3 3 2\n2 1 -4\n3 3 7\n' > "$corpus/matrix_market/i.mtx"
head -300 "$data/email-Eu-core.txt" > "$corpus/edge_list/email.txt"
gzip -c "$corpus/edge_list/email.txt" > "$corpus/edge_list/email.txt.gz"
printf 'source,target,weight\n# c\n0,1,0.5\n1 , 2,3\n2,0,1e3\n' > "$corpus/edge_list/w.csv"
"$matsamp" generate rmat --scale 5 -o "$corpus/msg/rmat.msg" > /dev/null
"$matsamp" generate planted --vertices 40 --classes 3 --features 3 -o "$corpus/msg/planted.msg" > /dev/null
"$matsamp" convert -g mag:100:3 -o "$corpus/hetero_msg/mag.msg" > /dev/null 2>&1
cp "$corpus/msg/planted.msg" "$corpus/hetero_msg/"  # the other kind, refused
# An OGB folder's files cut at NUL bytes (fuzz_ogb_folder.cpp): edges, counts, features, labels,
# edge features, split; and one without features, labels or split.
/usr/bin/python3 - "$corpus/ogb_folder" <<'PY'
import sys
parts = ["0,1\n1,2\n2,0\n3,1\n", "4\n", "4\n", "0.5,1\n1,2\n-1,0\n3,3\n", "1\n0\nnan\n2\n",
         "1.5\n2\n3\n4\n", "0\n1\n", "2\n", "3\n"]
open(sys.argv[1] + "/full", "w").write("\0".join(parts))
open(sys.argv[1] + "/bare", "w").write("\0".join(["0,1\n1,0\n", "2\n", "2\n"]))
PY
for t in estimate checkpoint; do  # each writes a valid file of its kind first
  MATSAMP_FUZZ_SEED_DIR="$corpus/$t" "$build/tests/fuzz/fuzz_$t" -runs=0 "$corpus/$t" > /dev/null 2>&1
done
# A partitioned rank's reads: .msg files with features, labels and (from an OGB folder) a split.
cp "$corpus/msg/planted.msg" "$corpus/partitioned_block/"
ogb=$build/ogb_seed
rm -rf "$ogb" && mkdir -p "$ogb/raw" "$ogb/split/s"
printf '0,1\n1,2\n2,3\n3,0\n4,5\n' > "$ogb/raw/edge.csv"
printf '6\n' > "$ogb/raw/num-node-list.csv"
printf '5\n' > "$ogb/raw/num-edge-list.csv"
printf '0.5,1\n1,2\n-1,0\n3,3\n2,2\n0,1\n' > "$ogb/raw/node-feat.csv"
printf '1\n0\n2\n1\n0\n2\n' > "$ogb/raw/node-label.csv"
printf '0\n1\n2\n' > "$ogb/split/s/train.csv"
printf '3\n' > "$ogb/split/s/valid.csv"
printf '4\n5\n' > "$ogb/split/s/test.csv"
"$matsamp" convert -g "$ogb" -o "$corpus/partitioned_block/ogb.msg" > /dev/null
# OGB link splits as torch.save writes them, in both layouts.
/usr/bin/python3 - "$corpus/ogb_link_split" <<'PY'
import sys, torch
torch.save({"edge": torch.tensor([[0, 1], [2, 3]]), "edge_neg": torch.tensor([[4, 5], [6, 7]])}, sys.argv[1] + "/pool.pt")
torch.save({"source_node": torch.tensor([0, 1]), "target_node": torch.tensor([2, 3]),
            "target_node_neg": torch.tensor([[4, 5, 6], [7, 8, 9]])}, sys.argv[1] + "/per_source.pt")
torch.save({"t": torch.arange(12).view(3, 4).t(), "s": torch.arange(10, dtype=torch.int32)[2:5],
            "f": torch.ones(2), "n": 3}, sys.argv[1] + "/views.pt")
PY
# The pickles inside them.
/usr/bin/python3 - "$corpus/ogb_link_split" "$corpus/torch_pickle" <<'PY'
import sys, zipfile, glob
for path in glob.glob(sys.argv[1] + "/*.pt"):
    with zipfile.ZipFile(path) as z:
        name = [n for n in z.namelist() if n.endswith("/data.pkl")][0]
        open(sys.argv[2] + "/" + path.split("/")[-1] + ".pkl", "wb").write(z.read(name))
PY
"$matsamp" sample -g rmat:5 -b 8 --fanouts 2,2 -o "$build/minibatches" > /dev/null 2>&1
cp "$build"/minibatches/minibatch_00000[0-3].npz "$corpus/npz/"
/usr/bin/python3 - "$corpus/npz/graph.npz" <<'PY'
import sys, numpy as np
np.savez(sys.argv[1], adj_indptr=np.array([0, 2, 3, 3]), adj_indices=np.array([1, 2, 0]),
         adj_data=np.array([1.0, 0.5, 2.0], dtype=np.float32), adj_shape=np.array([3, 3]),
         attr_indptr=np.array([0, 1, 1, 2]), attr_indices=np.array([0, 1]), attr_data=np.array([1.0, 2.0]),
         attr_shape=np.array([3, 2]), labels=np.array([0, 1, -1]))
np.savez_compressed(sys.argv[1].replace(".npz", "_deflated.npz"), adj_indptr=np.array([0, 1, 1]),
                    adj_indices=np.array([1]), adj_shape=np.array([2, 2]))
PY
unset ASAN_OPTIONS

status=0
export OMP_NUM_THREADS=1  # more inputs per second; the readers' threads are tested by the unit tests
for t in "${targets[@]}"; do
  log=$build/fuzz_$t.log
  # A checkpoint's reader checks its own header and an XXH3-64 of torch's archive before torch
  # reads a byte. libFuzzer's comparison tracing would copy the computed sum into the input and
  # so hand torch forged archives; its reader is torch's to harden (it leaks on its error paths),
  # and what matsamp does with the errors of an intact file is CheckpointReads' test.
  extra=()
  if [ "$t" = checkpoint ]; then extra=(-use_cmp=0); fi
  if "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 \
       -malloc_limit_mb=1024 -artifact_prefix="$findings/$t-" -print_final_stats=1 "${extra[@]}" "$corpus/$t" > "$log" 2>&1; then
    echo "matsamp fuzz: $t: no finding ($(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$') inputs in ${seconds} s)"
  else
    status=1
    echo "matsamp fuzz: $t: FINDING (input in $findings/):"
    grep -E "ERROR|runtime error|Exception|malloc limit|out-of-memory" "$log" | head -5
  fi
done
exit "$status"
