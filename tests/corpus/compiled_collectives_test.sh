#!/usr/bin/env bash
# Runs the project's own run_parallel cases (compiled_collectives.mlir) and
# requires every one to pass: unlike the third-party corpus, none may skip.
#   compiled_collectives_test.sh PJRTX PLUGIN
set -u
pjrtx=$1 plugin=$2
here=$(cd "$(dirname "$0")" && pwd)
output=$("$pjrtx" run-mlir "--plugin=$plugin" --option topology=v5e:2x4 \
  "$here/compiled_collectives.mlir")
status=$?
echo "$output"
summary=$(echo "$output" | tail -n 1)
if [ "$status" -ne 0 ] || ! echo "$summary" | grep -q ' 0 failed, 0 skipped$'; then
  echo "FAILED: every case must pass (exit $status, '$summary')"
  exit 1
fi
