#!/usr/bin/env bash
# Runs the JAX test suite (pytest, real JAX from PyPI) against one build's
# plugins, in a pinned JAX environment (run_with_jax.sh; PJRTX_JAX_PINS
# picks the pins).
#   run_jax_tests.sh <build's plugins folder> [test files] [pytest options]
# Without test files, the whole suite.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
plugin_dir=$1; shift
targets=()
options=()
for arg in "$@"; do
  case "$arg" in
    *.py|*.py::*) targets+=("$arg") ;;
    *) options+=("$arg") ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=("$here")
exec "$here/run_with_jax.sh" "$plugin_dir" -m pytest -p no:cacheprovider -q \
  -rs "${targets[@]}" "${options[@]}"
