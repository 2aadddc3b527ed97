#!/usr/bin/env bash
# Runs the JAX test suite (pytest, real JAX from PyPI) against one build's
# plugins, in the pinned JAX environment (scripts/jax-env.sh).
#   run_jax_tests.sh <build's plugins folder> [pytest arguments...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
plugin_dir=$1; shift
env_dir=$("$repo/scripts/jax-env.sh")
export PJRTX_PLUGIN_DIR=$plugin_dir
export PYTHONPATH=$repo/python
export PYTHONDONTWRITEBYTECODE=1
unset JAX_PLATFORMS PJRTX_TPUEMU_OPTIONS
exec "$env_dir/bin/python" -m pytest -p no:cacheprovider -q -rs "$here" "$@"
