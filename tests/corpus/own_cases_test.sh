#!/usr/bin/env bash
# Runs one file of the project's own cases (in the corpus runner's format)
# through a plugin and requires every case to pass: unlike the third-party
# corpus, none may skip.
#   own_cases_test.sh PJRTX PLUGIN FILE [--option k=v]...
set -u
pjrtx=$1 plugin=$2 file=$3
shift 3
output=$("$pjrtx" run-mlir "--plugin=$plugin" "$@" "$file")
status=$?
echo "$output"
summary=$(echo "$output" | tail -n 1)
if [ "$status" -ne 0 ] || ! echo "$summary" | grep -q ' 0 failed, 0 skipped$'; then
  echo "FAILED: every case must pass (exit $status, '$summary')"
  exit 1
fi
