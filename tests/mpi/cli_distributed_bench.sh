#!/usr/bin/env bash
# `matsamp bench --distributed` under mpirun: rank 0 alone prints one JSON line, every
# mode samples the same minibatches as one process (also with locality blocks on a
# graph renumbered by `matsamp partition`, and on a heterogeneous graph, generated or read
# in block rows from a .msg), and a bad configuration (c*c not dividing p,
# ranks started with different arguments or given different graph files, fewer
# locality blocks than process rows) ends every rank with one message.
# Usage: cli_distributed_bench.sh MATSAMP MPIEXEC NP
set -euo pipefail
matsamp=$1 mpiexec=$2 np=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
launch() { "$mpiexec" --allow-run-as-root --oversubscribe -x OMP_NUM_THREADS=1 "$@"; }
bench=(bench -b 64 -k 2 --fanouts 5,3 --seed 7)
fingerprint() { grep -o '"minibatch_fingerprint_sum":[0-9]*' "$1" | cut -d: -f2; }

"$matsamp" generate rmat --scale 10 -o "$dir/a.msg" > /dev/null
"$matsamp" generate rmat --scale 10 --seed 2 -o "$dir/b.msg" > /dev/null

launch -np 1 "$matsamp" "${bench[@]}" -g "$dir/a.msg" --distributed replicated > "$dir/one" 2> "$dir/err" ||
  fail "one process: $(cat "$dir/err")"
want=$(fingerprint "$dir/one")
want_fingerprint=$want
[ -n "$want" ] || fail "no fingerprint in $(cat "$dir/one")"
for mode in "replicated" "partitioned" "partitioned --fetch-rows" "partitioned --oblivious"; do
  # shellcheck disable=SC2086
  launch -np "$np" "$matsamp" "${bench[@]}" -g "$dir/a.msg" --distributed $mode > "$dir/out" 2> "$dir/err" ||
    fail "$mode: $(cat "$dir/err")"
  [ "$(wc -l < "$dir/out")" -eq 1 ] || fail "$mode: expected one JSON line, got: $(cat "$dir/out")"
  [ "$(fingerprint "$dir/out")" = "$want" ] || fail "$mode: minibatches differ from one process"
done

# LABOR with the graph partitioned, rows decided at their owners or fetched whole: as one process.
launch -np 1 "$matsamp" "${bench[@]}" -g "$dir/a.msg" --sampler labor --distributed replicated \
  > "$dir/one" 2> "$dir/err" || fail "labor, one process: $(cat "$dir/err")"
for mode in "partitioned" "partitioned --fetch-rows"; do
  # shellcheck disable=SC2086
  launch -np "$np" "$matsamp" "${bench[@]}" -g "$dir/a.msg" --sampler labor --distributed $mode \
    > "$dir/out" 2> "$dir/err" || fail "labor, $mode: $(cat "$dir/err")"
  [ "$(fingerprint "$dir/out")" = "$(fingerprint "$dir/one")" ] || fail "labor, $mode: minibatches differ from one process"
done

# Locality: a graph renumbered by METIS parts (one per process row) has fewer nonzeros
# between the blocks, and minibatches drawn per block are still those of one process.
block_cut() { grep -o '"block_cut_fraction":[0-9.e-]*' "$1" | cut -d: -f2; }
"$matsamp" generate planted --vertices 2000 --classes 4 --features 4 -o "$dir/planted.msg" > /dev/null
local_graph=$dir/planted.msg
if "$matsamp" partition -g "$dir/planted.msg" --parts "$np" -o "$dir/parts.msg" > /dev/null 2> "$dir/err"; then
  local_graph=$dir/parts.msg
else
  grep -q "no METIS" "$dir/err" || fail "partition: $(cat "$dir/err")"
fi
launch -np 1 "$matsamp" "${bench[@]}" -g "$local_graph" --locality-blocks "$np" --bulk-steps 1 --distributed replicated \
  > "$dir/one" 2> "$dir/err" || fail "locality, one process: $(cat "$dir/err")"
launch -np "$np" "$matsamp" "${bench[@]}" -g "$local_graph" --locality-blocks "$np" --bulk-steps 1 --distributed partitioned \
  > "$dir/out" 2> "$dir/err" || fail "locality: $(cat "$dir/err")"
[ "$(fingerprint "$dir/out")" = "$(fingerprint "$dir/one")" ] || fail "locality: minibatches differ from one process"
if [ "$local_graph" = "$dir/parts.msg" ] && [ "$np" -ge 2 ]; then
  launch -np "$np" "$matsamp" "${bench[@]}" -g "$dir/planted.msg" --distributed partitioned > "$dir/given" 2> "$dir/err" ||
    fail "planted graph as given: $(cat "$dir/err")"
  awk -v a="$(block_cut "$dir/out")" -v b="$(block_cut "$dir/given")" 'BEGIN { exit !(a < b / 2) }' ||
    fail "renumbered block cut $(block_cut "$dir/out") not below half of $(block_cut "$dir/given") as given"
fi

# --device cuda: each rank samples on the GPU of its local rank, modulo the GPUs it sees
# (one node here); without a GPU, every rank stops with one message.
if launch -np "$np" "$matsamp" "${bench[@]}" -g "$dir/a.msg" --distributed replicated --device cuda \
     > "$dir/out" 2> "$dir/err"; then
  gpus=$(nvidia-smi -L | wc -l)
  want="\"rank_gpu\":[$(for ((r = 0; r < np; r++)); do echo $((r % gpus)); done | paste -sd,)]"
  grep -qF "$want" "$dir/out" || fail "--device cuda: expected $want in $(cat "$dir/out")"
  [ "$(fingerprint "$dir/out")" = "$want_fingerprint" ] || fail "--device cuda: minibatches differ from one process"
else
  [ "$(grep -c -- "--device cuda" "$dir/err")" -eq 1 ] || fail "--device cuda without a GPU: $(cat "$dir/err")"
fi

# --transport nccl: the same minibatches when every rank has a GPU of its own; otherwise
# (no GPU, or ranks sharing one, or a build without NCCL) every rank stops with one message that
# names NCCL.
if launch -np "$np" "$matsamp" "${bench[@]}" -g "$dir/a.msg" --distributed partitioned --transport nccl \
     > "$dir/out" 2> "$dir/err"; then
  grep -q '"transport":"nccl"' "$dir/out" || fail "--transport nccl: not in $(cat "$dir/out")"
  [ "$(fingerprint "$dir/out")" = "$want_fingerprint" ] || fail "--transport nccl: minibatches differ from one process"
else
  [ "$(grep -c "NCCL" "$dir/err")" -eq 1 ] || fail "--transport nccl without a GPU per rank: $(cat "$dir/err")"
fi

# A heterogeneous graph, every relation partitioned (and the layer-wise sampler's stacked
# relations): node-wise and layer-wise minibatches are those of one process.
for sampling in "" "--type-budgets 40,20"; do
  # shellcheck disable=SC2086
  launch -np 1 "$matsamp" "${bench[@]}" -g mag:1500 $sampling --distributed replicated > "$dir/one" 2> "$dir/err" ||
    fail "heterogeneous $sampling, one process: $(cat "$dir/err")"
  grep -q '"heterogeneous":true' "$dir/one" || fail "not a heterogeneous bench: $(cat "$dir/one")"
  for mode in "replicated" "partitioned" "partitioned --oblivious"; do
    # shellcheck disable=SC2086
    launch -np "$np" "$matsamp" "${bench[@]}" -g mag:1500 $sampling --distributed $mode > "$dir/out" 2> "$dir/err" ||
      fail "heterogeneous $sampling, $mode: $(cat "$dir/err")"
    [ "$(fingerprint "$dir/out")" = "$(fingerprint "$dir/one")" ] ||
      fail "heterogeneous $sampling, $mode: minibatches differ from one process"
  done
  [ -n "$sampling" ] || cp "$dir/one" "$dir/mag_one"
done
fingerprint_of_mag() { fingerprint "$dir/mag_one"; }

# The same heterogeneous graph as a .msg, partitioned: each rank reads only its block
# rows (the reverses made by a distributed transpose), minibatches as one process.
"$matsamp" convert -g mag:1500 -o "$dir/mag.msg" > /dev/null 2>&1 || fail "convert mag:1500"
launch -np 1 "$matsamp" "${bench[@]}" -g "$dir/mag.msg" --distributed replicated > "$dir/one" 2> "$dir/err" ||
  fail "heterogeneous .msg, one process: $(cat "$dir/err")"
[ "$(fingerprint "$dir/one")" = "$(fingerprint_of_mag)" ] || fail "heterogeneous .msg: not the graph it was converted from"
launch -np "$np" "$matsamp" "${bench[@]}" -g "$dir/mag.msg" --distributed partitioned > "$dir/out" 2> "$dir/err" ||
  fail "heterogeneous .msg, partitioned: $(cat "$dir/err")"
grep -q '"graph_read":"block_rows"' "$dir/out" || fail "heterogeneous .msg read whole: $(cat "$dir/out")"
[ "$(fingerprint "$dir/out")" = "$(fingerprint "$dir/one")" ] ||
  fail "heterogeneous .msg, partitioned: minibatches differ from one process"

# Bad configurations: non-zero exit, the message once (from rank 0), no hang.
expect_one_error() {   # pattern, then the launch arguments
  local pattern=$1
  shift
  if timeout 120 "$mpiexec" --allow-run-as-root --oversubscribe -x OMP_NUM_THREADS=1 "$@" > "$dir/out" 2> "$dir/err"; then
    fail "accepted: $*"
  fi
  [ "$(grep -c "$pattern" "$dir/err")" -eq 1 ] || fail "expected '$pattern' once in: $(cat "$dir/err")"
}
expect_one_error "fetch-rows applies to the samplers that sample rows of A where they live (graphsage, labor)" -np "$np" "$matsamp" "${bench[@]}" -g "$dir/a.msg" \
  --distributed replicated --fetch-rows
expect_one_error "fetch-rows applies to node-wise sampling" -np "$np" "$matsamp" "${bench[@]}" -g mag:1500 \
  --type-budgets 8 --distributed partitioned --fetch-rows
expect_one_error "type-budgets with --distributed partitioned stacks" -np "$np" "$matsamp" "${bench[@]}" \
  -g "$dir/mag.msg" --type-budgets 8 --distributed partitioned
expect_one_error "replication factor c = 3" -np "$np" "$matsamp" "${bench[@]}" -g "$dir/a.msg" \
  --distributed partitioned --replication 3
if [ "$np" -ge 2 ]; then
  expect_one_error "minibatches per step (1) must be a multiple of the $np workers" -np "$np" "$matsamp" \
    "${bench[@]}" -g "$dir/a.msg" --distributed partitioned --locality-blocks 1 --minibatches-per-step 1
  expect_one_error "locality blocks (3) must divide the minibatches per step ($np)" -np "$np" "$matsamp" \
    "${bench[@]}" -g "$dir/a.msg" --distributed partitioned --locality-blocks 3 --minibatches-per-step "$np"
  expect_one_error "ranks were started with different arguments: rank 1 has '$dir/b.msg' where rank 0 has '$dir/a.msg'" \
    -np 1 "$matsamp" "${bench[@]}" -g "$dir/a.msg" --distributed partitioned : \
    -np $((np - 1)) "$matsamp" "${bench[@]}" -g "$dir/b.msg" --distributed partitioned
  expect_one_error "rank 1 has 'ladies' where rank 0 has 'graphsage'" \
    -np 1 "$matsamp" "${bench[@]}" -g "$dir/a.msg" --sampler graphsage --distributed replicated : \
    -np $((np - 1)) "$matsamp" "${bench[@]}" -g "$dir/a.msg" --sampler ladies --distributed replicated
  # Same arguments, different files behind them (as on nodes with their own copies).
  mkdir -p "$dir/n1" "$dir/n2" && cp "$dir/a.msg" "$dir/n1/g.msg" && cp "$dir/b.msg" "$dir/n2/g.msg"
  expect_one_error "different graph files" \
    -np 1 --wdir "$dir/n1" "$matsamp" "${bench[@]}" -g g.msg --distributed partitioned : \
    -np $((np - 1)) --wdir "$dir/n2" "$matsamp" "${bench[@]}" -g g.msg --distributed partitioned
fi
echo "PASS"
