#!/usr/bin/env bash
# Runs the StableHLO interpreter test corpus through a plugin: its op tests
# and those of the chlo ops (the chlo/ folder).
#   run_corpus.sh PJRTX PLUGIN CORPUS_DIR [--option k=v]...
# Exits 77 (CTest's skip code) with the reason when the corpus is absent.
set -u
pjrtx=$1 plugin=$2 corpus=$3
shift 3
if ! ls "$corpus"/*.mlir >/dev/null 2>&1; then
  echo "SKIP: no StableHLO corpus at '$corpus' (set PJRTX_STABLEHLO_CORPUS_DIR)"
  exit 77
fi
files=("$corpus"/*.mlir)
if ls "$corpus"/chlo/*.mlir >/dev/null 2>&1; then files+=("$corpus"/chlo/*.mlir); fi
exec "$pjrtx" run-mlir "--plugin=$plugin" "$@" "${files[@]}"
