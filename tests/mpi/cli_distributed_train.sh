#!/usr/bin/env bash
# `matsamp train --distributed partitioned` under mpirun: every rank reads only its
# blocks of a .msg file, and the epochs' losses and accuracies are those of one
# process (same seed and global batch), for c = 1 and, where c*c divides p, c = 2
# (the process rows' work shared or split), as are those by time on a replicated graph,
# as are the minibatches `bench` samples from that file; DGS fetches fewer bytes than
# drawing from each rank's own part alone; misuse ends every rank
# with one message.
# Usage: cli_distributed_train.sh MATSAMP MPIEXEC NP
set -euo pipefail
matsamp=$1 mpiexec=$2 np=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
launch() { "$mpiexec" --allow-run-as-root --oversubscribe -x OMP_NUM_THREADS=1 "$@"; }
train=(train --epochs 3 -b 8 --minibatches-per-step 8 --seed 3 --torch-threads 1)
# The epoch lines without their times and byte counts (which depend on p).
scores() { grep '"epoch"' "$1" | sed -E 's/,"feature_fetch_bytes".*//'; }

"$matsamp" generate planted --vertices 1500 --classes 4 --features 16 -o "$dir/g.msg" > /dev/null
launch -np 1 "$matsamp" "${train[@]}" -g "$dir/g.msg" --distributed partitioned > "$dir/one" 2> "$dir/err" ||
  fail "one process: $(cat "$dir/err")"
[ "$(scores "$dir/one" | wc -l)" -eq 3 ] || fail "expected 3 epoch lines: $(cat "$dir/one")"
for run in "1 shared" "2 shared" "2 split"; do  # split: each rank of a process row samples its own minibatches
  read -r c work <<< "$run"
  (( np % (c * c) == 0 )) || continue
  launch -np "$np" "$matsamp" "${train[@]}" -g "$dir/g.msg" --distributed partitioned --replication "$c" \
    --row-work "$work" > "$dir/out" 2> "$dir/err" || fail "c = $c $work: $(cat "$dir/err")"
  [ "$(scores "$dir/out")" = "$(scores "$dir/one")" ] ||
    fail "c = $c $work: epochs differ from one process:"$'\n'"$(scores "$dir/out")"$'\n'"$(scores "$dir/one")"
  grep -q "partitioned over $((np / c)) x $c processes" "$dir/err" || fail "c = $c: no grid line in $(cat "$dir/err")"
done

# --transport nccl: the epochs of one process when every rank has a GPU of its own;
# otherwise (no GPU, or ranks sharing one, or a build without NCCL) one line that names NCCL.
if launch -np "$np" "$matsamp" "${train[@]}" -g "$dir/g.msg" --distributed partitioned --transport nccl \
     > "$dir/out" 2> "$dir/err"; then
  [ "$(scores "$dir/out")" = "$(scores "$dir/one")" ] || fail "--transport nccl: epochs differ from one process"
else
  [ "$(grep -cE "matsamp: error: (NCCL transport|--transport nccl: this matsamp was built without it)" "$dir/err")" -eq 1 ] ||
    fail "--transport nccl without a GPU per rank: expected one error line in $(cat "$dir/err")"
fi

# Each rank drawing from its own part of a METIS partition (--locality-blocks P): the
# minibatches stay near their rank, so fewer feature rows cross ranks than drawing from all
# (1500 vertices, p = 2: 0.64 of the bytes).
served() { grep '"epoch"' "$1" | tail -1 | grep -o '"feature_fetch_bytes":\[[0-9,]*\]' | grep -o '[0-9][0-9,]*' |
           tr ',' '\n' | awk '{ s += $1 } END { print s + 0 }'; }
if (( np > 1 )) && "$matsamp" partition -g "$dir/g.msg" --parts "$np" -o "$dir/parts.msg" > /dev/null 2> "$dir/err"; then
  for blocks in 0 "$np"; do
    launch -np "$np" "$matsamp" "${train[@]}" -g "$dir/parts.msg" --distributed partitioned --locality-blocks "$blocks" \
      > "$dir/blocks_$blocks" 2> "$dir/err" || fail "--locality-blocks $blocks: $(cat "$dir/err")"
  done
  all=$(served "$dir/blocks_0") own=$(served "$dir/blocks_$np")
  (( own * 5 < all * 4 )) || fail "drawing from the own part served $own bytes, not a fifth below $all drawing from all"
  # DGS: explanations after every step steer the draws of the next epochs, and remote
  # rows come with half their dimensions: fewer bytes than drawing from the own part
  # alone, and the explained rows' one fetch in the summary.
  launch -np "$np" "$matsamp" "${train[@]}" -g "$dir/parts.msg" --distributed partitioned --sampler dgs \
    --explain-every 1 --explainer-steps 10 --remote-feature-fraction 0.5 > "$dir/dgs" 2> "$dir/err" ||
    fail "--sampler dgs --explain-every 1: $(cat "$dir/err")"
  guided=$(served "$dir/dgs")
  (( guided * 4 < own * 3 )) || fail "explanation-guided sampling served $guided bytes, not a quarter below $own"
  grep -q '"explanation_fetch_bytes":[1-9]' "$dir/dgs" || fail "no explanation fetch in $(tail -1 "$dir/dgs")"
else
  grep -q "no METIS" "$dir/err" 2> /dev/null || (( np == 1 )) || fail "partition: $(cat "$dir/err")"
fi

# By time (every seed sampled as of its vertex's time) on the graph each rank holds whole:
# the epochs of one process.
timed=(train --epochs 2 -b 8 --minibatches-per-step 8 --seed 3 --torch-threads 1 -g "$dir/g.msg"
       --temporal uniform --vertex-times random:100 --time-split 50,75)
"$matsamp" "${timed[@]}" > "$dir/timed_one" 2> "$dir/err" || fail "by time, one process: $(cat "$dir/err")"
[ "$(scores "$dir/timed_one" | wc -l)" -eq 2 ] || fail "by time: expected 2 epoch lines: $(cat "$dir/timed_one")"
launch -np "$np" "$matsamp" "${timed[@]}" --distributed replicated > "$dir/out" 2> "$dir/err" ||
  fail "by time, replicated: $(cat "$dir/err")"
[ "$(scores "$dir/out")" = "$(scores "$dir/timed_one")" ] ||
  fail "by time, replicated: epochs differ from one process:"$'\n'"$(scores "$dir/out")"$'\n'"$(scores "$dir/timed_one")"

# The minibatches themselves, sampled from the same partitioned file: those of one process.
fingerprint() { grep -o '"minibatch_fingerprint_sum":[0-9]*' "$1" | cut -d: -f2; }
bench=(bench -g "$dir/g.msg" -b 32 -k 2 --fanouts 5,3 --seed 3)
launch -np 1 "$matsamp" "${bench[@]}" --distributed partitioned > "$dir/one" 2> "$dir/err" ||
  fail "bench, one process: $(cat "$dir/err")"
for c in 1 2; do
  (( np % (c * c) == 0 )) || continue
  launch -np "$np" "$matsamp" "${bench[@]}" --distributed partitioned --replication "$c" > "$dir/out" 2> "$dir/err" ||
    fail "bench, c = $c: $(cat "$dir/err")"
  [ "$(fingerprint "$dir/out")" = "$(fingerprint "$dir/one")" ] || fail "bench, c = $c: minibatches differ from one process"
done

# A grid that does not fit: every rank stops, one line says why.
if (( np % 4 != 0 )); then
  if launch -np "$np" "$matsamp" "${train[@]}" -g "$dir/g.msg" --distributed partitioned --replication 2        > "$dir/out" 2> "$dir/err"; then fail "c = 2 at p = $np succeeded"; fi
  [ "$(grep -c "matsamp: error: replication factor c = 2 does not fit" "$dir/err")" -eq 1 ] ||
    fail "c = 2 at p = $np: expected one error line in $(cat "$dir/err")"
fi

# Misuse: one line each, on every path.
expect_error() {  # expect_error MESSAGE ARGS...
  local message=$1
  shift
  if launch -np 1 "$matsamp" "$@" > "$dir/out" 2> "$dir/err"; then fail "$* succeeded"; fi
  grep -qF -- "$message" "$dir/err" || fail "$*: expected '$message' in $(cat "$dir/err")"
}
expect_error "reads its blocks from a .msg file" train -g planted:300:3 --distributed partitioned
expect_error "evaluates sampled minibatches" train -g "$dir/g.msg" --distributed partitioned --evaluation full
expect_error "--replication applies to --distributed partitioned" train -g "$dir/g.msg" --replication 2
expect_error "--transport and --collective-timeout apply to --distributed runs" train -g "$dir/g.msg" --transport nccl
expect_error "--row-work applies to --distributed partitioned" train -g "$dir/g.msg" --row-work split
expect_error "draws by a column importance, which graphsage does not take" train -g "$dir/g.msg" --feature-replication 1 --explain-every 2
expect_error "needs partitioned features" train -g "$dir/g.msg" --sampler dgs --explain-every 2
expect_error "--temporal trains on a graph each process holds whole" train -g "$dir/g.msg" --distributed partitioned \
  --temporal uniform --vertex-times random:100
expect_error "(--explain-every T)" train -g "$dir/g.msg" --sampler dgs --feature-replication 1 \
  --remote-feature-fraction 0.5
if "$matsamp" train -g "$dir/g.msg" --distributed partitioned > "$dir/out" 2> "$dir/err"; then
  fail "--distributed without a launcher succeeded"
fi
grep -q "not started by mpirun or srun" "$dir/err" || fail "no launcher: $(cat "$dir/err")"
echo "cli_distributed_train: np $np ok"
