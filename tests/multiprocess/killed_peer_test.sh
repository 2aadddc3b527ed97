#!/usr/bin/env bash
# A process killed in the middle of an all-reduce: every other rank's event
# fails (UNAVAILABLE or DEADLINE_EXCEEDED) within the timeout, the launcher
# exits non-zero, and no process of the job is left.
# With `hosts` or `processes` last, on the CUDA plugin over fake GPUs (2
# each): processes on machines of their own (UCX between them) or on one
# machine (NCCL across them).
#   killed_peer_test.sh PJRTX_BINARY COLLECTIVES_JOB PLUGIN [hosts|processes]
set -u
pjrtx=$1 job=$2 plugin=$3 layout=${4:-slices}
failures=0
if [ "$layout" != slices ]; then export FAKE_CUDA_GPUS=2; fi
check() {  # description, condition
  if eval "$2"; then echo "ok: $1"; else echo "FAILED: $1"; failures=$((failures + 1)); fi
}

out=$(mktemp)
trap 'rm -f "$out"' EXIT
# A marker in the arguments finds this run's processes, and only them.
marker="--layout=$layout --topology=v5e:2x1"
start=$(date +%s%3N)
"$pjrtx" launch -n 3 --grace-seconds 10 -- "$job" --plugin="$plugin" \
  $marker kill >"$out" 2>&1
code=$?
elapsed=$(( $(date +%s%3N) - start ))
cat "$out"

check "the launcher exits non-zero (got $code)" '[ "$code" -ne 0 ]'
check "the job ends within 20 s (took $elapsed ms)" '[ "$elapsed" -lt 20000 ]'
check "the victim was killed in the middle of an all-reduce" \
  'grep -q "killing myself in the middle of all-reduce" "$out"'
survivors=$(grep -c "survivor done" "$out")
check "both survivors saw their all-reduce fail and reported ($survivors)" \
  '[ "$survivors" -eq 2 ]'
check "every failure is UNAVAILABLE or DEADLINE_EXCEEDED within the timeout" \
  '! grep -q "^\[[0-9]*\] FAILED" "$out" && [ "$(grep -c "^\[[0-9]*\] ok: rank" "$out")" -ge 4 ]'
sleep 0.2
check "no process of the job is left" \
  '! pgrep -f -- "collectives_job.*$marker" >/dev/null'

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
