#!/usr/bin/env bash
# tests/gpu/bundle.sh end to end on the fake driver: packs the build tree
# given, moves the bundle (so every path in it must follow), runs it with
# --quick and checks that each part ran and passed.
#   bundle_test.sh BUILD_DIR      (PJRTX_CUDA_DRIVER_PATH etc. set: a fake)
set -euo pipefail
build=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
PJRTX_BUILD_DIR=$build "$(dirname "$0")/bundle.sh" "$work/packed"
mv "$work/packed" "$work/moved"
if ! "$work/moved/run-bundle.sh" --quick >"$work/log" 2>&1; then
  cat "$work/log"
  echo "FAIL: run-bundle.sh failed"
  exit 1
fi
expected=("conformance: [0-9]+ passed, 0 failed" "cuda_bench: exit status 0")
[ -d "$work/moved/conformance" ] &&
  expected+=("corpus: [0-9]+ passed, 0 failed")
for part in "${expected[@]}"; do
  if ! grep -qE "^== $part" "$work/log"; then
    cat "$work/log"
    echo "FAIL: no '$part' in the run's summary"
    exit 1
  fi
done
if ! ls "$work/moved/results"/gpu-results-*.md >/dev/null 2>&1; then
  echo "FAIL: no results file in $work/moved/results"
  exit 1
fi
echo "bundle packed, moved and run: ${expected[*]}"
