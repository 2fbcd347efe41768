#!/usr/bin/env bash
# --collective-timeout under mpirun: with rank 1 stopped (SIGSTOP) once both ranks
# have their graph, rank 0 waits in the epoch's next collective; after the bound
# the job ends (not hangs) with one line naming the collective and rank 1.
# Usage: cli_collective_timeout.sh MATSAMP MPIEXEC
set -uo pipefail
matsamp=$1 mpiexec=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Each rank generates the graph and says "graph ready" (a .msg is read by block rows silently).
bench=(bench -g rmat:17 --seed 31 --fanouts 15,10,5 -b 256 --train-fraction 1 --distributed partitioned)
started=$SECONDS
"$mpiexec" --allow-run-as-root --oversubscribe -x OMP_NUM_THREADS=1 -np 2 "$matsamp" "${bench[@]}" \
  --collective-timeout 2 > "$dir/out" 2> "$dir/err" &
job=$!
for _ in $(seq 600); do
  [ "$(grep -c 'graph ready' "$dir/err")" -ge 2 ] && break
  sleep 0.1
done
[ "$(grep -c 'graph ready' "$dir/err")" -ge 2 ] || fail "the ranks did not load the graph: $(cat "$dir/err")"
stopped=
for pid in $(pgrep -f "$matsamp ${bench[*]}"); do
  if tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null | grep -qxE 'OMPI_COMM_WORLD_RANK=1|PMI_RANK=1|PMIX_RANK=1'; then
    kill -STOP "$pid" && stopped=$pid
  fi
done
[ -n "$stopped" ] || { kill "$job"; fail "rank 1's process not found"; }
wait "$job"
rc=$?
took=$((SECONDS - started))
[ "$rc" -ne 0 ] || fail "the job succeeded with rank 1 stopped (it ended before the stop?): $(cat "$dir/out")"
grep -qE "matsamp: rank 0: error: MPI_[A-Za-z_]+ waited [0-9]+ s for rank 1 \(--collective-timeout 2 s\): it died or stopped; ending the job" \
  "$dir/err" || fail "no line naming the wait: $(cat "$dir/err")"
[ "$took" -lt 60 ] || fail "the job took $took s to end"
# The launcher's signal to the stopped rank is delivered once it runs again.
kill -CONT "$stopped" 2>/dev/null
for _ in $(seq 100); do kill -0 "$stopped" 2>/dev/null || break; sleep 0.1; done
! kill -0 "$stopped" 2>/dev/null || { kill -KILL "$stopped"; fail "the stopped rank outlived the job"; }
echo "ok: the job ended after $took s: $(grep -o 'MPI_[A-Za-z_]* waited.*' "$dir/err")"
