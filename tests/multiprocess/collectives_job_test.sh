#!/usr/bin/env bash
# Runs collectives_job under `pjrtx launch`: every kind of collective over
# 2 processes, the DCN and staging counters for 1 to 4 slices, collectives
# compiled into a program, a process that never creates the communicator,
# and ranks that disagree on an all-reduce.
# With `hosts` or `processes` last, the CUDA plugin over fake GPUs
# (FAKE_CUDA_GPUS=2 each), the job's processes numbered rather than
# sliced: `hosts` puts each on a machine of its own (a slice: UCX between
# them, shards staged), the counters from 2 processes up (alone, a
# process's GPUs use NCCL), and also machines of 2 processes each;
# `processes` puts them on one machine (one slice: NCCL across the
# processes, nothing staged).
#   collectives_job_test.sh PJRTX_BINARY COLLECTIVES_JOB PLUGIN
#                           [hosts|processes]
set -u
pjrtx=$1 job=$2 plugin=$3 layout=${4:-slices}
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

if [ "$layout" != slices ]; then
  export FAKE_CUDA_GPUS=2
  common=(--plugin="$plugin" --layout="$layout")
  run "six kinds of collective over 2 processes ($layout) of 2 GPUs" \
    -n 2 -- "$job" "${common[@]}" ops
  for processes in 2 3; do
    run "DCN and staging counters, $processes processes ($layout) of 2 GPUs" \
      -n "$processes" -- "$job" "${common[@]}" counters
  done
  if [ "$layout" = hosts ]; then
    # Machines of two processes each: NCCL across a machine's processes,
    # UCX between machines.
    run "six kinds of collective over 2 machines of 2 processes of 2 GPUs" \
      -n 4 -- "$job" "${common[@]}" --processes-per-host=2 ops
    for processes in 4 6; do
      run "DCN and staging counters, $((processes / 2)) machines of 2 processes of 2 GPUs" \
        -n "$processes" -- "$job" "${common[@]}" --processes-per-host=2 counters
    done
  fi
else
  common=(--plugin="$plugin")
  run "six kinds of collective over 2 processes of 4 chips" \
    -n 2 -- "$job" "${common[@]}" ops
  for slices in 1 2 3 4; do
    run "DCN and staging counters, $slices slice(s) of 2 chips" \
      -n "$slices" -- "$job" "${common[@]}" --topology=v5e:1x2 counters
  done
  run "compiled collectives across 2 processes of 4 chips" \
    -n 2 -- "$job" "${common[@]}" compiled
fi
run "a process that never creates the communicator is named" \
  -n 2 -- "$job" "${common[@]}" absent
run "mismatched all-reduce sizes are named" \
  -n 2 -- "$job" "${common[@]}" --k=64 mismatch

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
