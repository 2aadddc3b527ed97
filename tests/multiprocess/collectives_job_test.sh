#!/usr/bin/env bash
# Runs collectives_job under `pjrtx launch`: every kind of collective over
# 2 processes, the DCN and staging counters for 1 to 4 slices, collectives
# compiled into a program, and ranks that disagree on an all-reduce.
#   collectives_job_test.sh PJRTX_BINARY COLLECTIVES_JOB PLUGIN
set -u
pjrtx=$1 job=$2 plugin=$3
failures=0

run() {  # description, launch arguments...
  local what=$1; shift
  echo "== $what"
  local start=$SECONDS
  if "$pjrtx" launch "$@"; then
    echo "ok: $what ($((SECONDS - start)) s)"
  else
    echo "FAILED: $what"
    failures=$((failures + 1))
  fi
}

run "six kinds of collective over 2 processes of 4 chips" \
  -n 2 -- "$job" --plugin="$plugin" ops
for slices in 1 2 3 4; do
  run "DCN and staging counters, $slices slice(s) of 2 chips" \
    -n "$slices" -- "$job" --plugin="$plugin" --topology=v5e:1x2 counters
done
run "compiled collectives across 2 processes of 4 chips" \
  -n 2 -- "$job" --plugin="$plugin" compiled
run "mismatched all-reduce sizes are named" \
  -n 2 -- "$job" --plugin="$plugin" --k=64 mismatch

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
