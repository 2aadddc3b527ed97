#!/usr/bin/env bash
# Runs one Python program (a sample, a benchmark) in a pinned JAX
# environment (scripts/jax-env.sh) against one build's plugins.
#   [PJRTX_JAX_PINS=PIN_FILE] run_with_jax.sh <build's plugins folder> \
#     <program.py> [arguments...]
# PJRTX_JAX_PINS picks the pins (default python/requirements-jax.txt).
# Where the Python those pins need is missing, it prints a SKIP line with
# the reason and exits 77 (CTest's skip code for these tests).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
plugin_dir=$1; shift
pins=${PJRTX_JAX_PINS:-$repo/python/requirements-jax.txt}
env_dir=$("$repo/scripts/jax-env.sh" "$pins") || {
  status=$?
  if [ "$status" -eq 3 ]; then
    echo "SKIP: no Python for the pins in $pins (jax-env says why above)"
    exit 77
  fi
  exit "$status"
}
export PJRTX_PLUGIN_DIR=$plugin_dir
export PYTHONPATH=$repo/python
export PYTHONDONTWRITEBYTECODE=1
unset JAX_PLATFORMS PJRTX_TPUEMU_OPTIONS
exec "$env_dir/bin/python" "$@"
