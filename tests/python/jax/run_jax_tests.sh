#!/usr/bin/env bash
# Runs the JAX test suite (pytest, real JAX from PyPI) against one build's
# plugins, in the pinned JAX environment (run_with_jax.sh).
#   run_jax_tests.sh <build's plugins folder> [pytest arguments...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
plugin_dir=$1; shift
exec "$here/run_with_jax.sh" "$plugin_dir" -m pytest -p no:cacheprovider -q \
  -rs "$here" "$@"
