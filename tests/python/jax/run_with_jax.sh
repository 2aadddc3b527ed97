#!/usr/bin/env bash
# Runs one Python program (a sample, a benchmark) in the pinned JAX
# environment (scripts/jax-env.sh) against one build's plugins.
#   run_with_jax.sh <build's plugins folder> <program.py> [arguments...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
plugin_dir=$1; shift
env_dir=$("$repo/scripts/jax-env.sh")
export PJRTX_PLUGIN_DIR=$plugin_dir
export PYTHONPATH=$repo/python
export PYTHONDONTWRITEBYTECODE=1
unset JAX_PLATFORMS PJRTX_TPUEMU_OPTIONS
exec "$env_dir/bin/python" "$@"
