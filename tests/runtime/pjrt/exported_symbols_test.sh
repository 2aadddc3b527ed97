#!/usr/bin/env bash
# Usage: exported_symbols_test.sh <plugin.so>...
#
# Checks that every plugin's dynamic symbol table defines exactly the two
# entry points, GetPjrtApi and GetPjrtxApi (DESIGN.md section 3): anything
# else a plugin exports can clash with the host process or another plugin.
# Symbols of type A (absolute, made by the linker, such as a version
# script's node names) mark no code and are not exports of ours.
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: $0 <plugin.so>..." >&2
  exit 2
fi
expected="GetPjrtApi GetPjrtxApi"
status=0
for library in "$@"; do
  exported=$(nm -D --defined-only "$library" |
             awk 'NF == 3 && $2 != "A" { print $3 }' | sort | xargs)
  if [ "$exported" = "$expected" ]; then
    echo "PASS $library: $exported"
  else
    echo "FAIL $library exports '$exported'; expected '$expected'"
    status=1
  fi
done
exit $status
