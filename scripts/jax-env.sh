#!/usr/bin/env bash
# Creates, once, a virtual environment the JAX tests and benchmarks run in,
# from a pin file (pinned jax, jaxlib, optax, pytest), and prints its path
# on stdout; progress goes to stderr. Usage:
#   env=$(scripts/jax-env.sh [PIN_FILE]) && "$env/bin/python" -m pytest ...
# PIN_FILE (default python/requirements-jax.txt, JAX 0.10.2 on Python
# 3.11) names the Python it was verified with on a line
# `# requires-python: X.Y`; python/requirements-jax-0.12.txt is JAX 0.12.1
# on Python 3.12 (JAX 0.11 and newer need 3.12+).
#
# The environment lives outside the checkout, in
#   ${PJRTX_JAX_ENV_ROOT:-$HOME/.cache/pjrtx}/jax-env-<12 hex of sha256 of
#   the pin file>
# so every checkout and build with the same pins shares it, and changing a
# pin makes a new one. It is reused only when its marker file says it was
# completed from exactly these pins with the same base Python; an
# interrupted or stale one is removed and made again. Concurrent callers
# wait for each other (flock).
#
# Our own package (python/: the jax_plugins module that registers the
# plugins) is deliberately NOT installed here: the environment is shared
# between checkouts and build trees, and the package finds the plugin
# libraries of the checkout it is imported from. Tests put python/ on
# PYTHONPATH instead (and PJRTX_PLUGIN_DIR for a build other than
# build/release); JAX discovers it through the jax_plugins namespace package.
#
# The base interpreter: $PJRTX_JAX_PYTHON if set, else the first Python
# X.Y among python3, pythonX.Y on PATH, pyenv's installed X.Y versions and
# /usr/bin/python3. Debian's /usr/bin/python3 creates environments only
# with Debian's python3-venv package installed; without it, `python3 -m
# venv` fails, and this script says what to install and exits 1.
# Exit status 3: no Python X.Y on this machine (callers skip with that
# reason); anything else non-zero is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "jax-env: $*" >&2; }

requirements=$(realpath "${1:-python/requirements-jax.txt}")
if [ ! -f "$requirements" ]; then
  say "no pin file '$requirements'"
  exit 1
fi
# What the pins were verified with.
python_version=$(sed -n 's/^# requires-python: *\([0-9.]*\) *$/\1/p' \
                   "$requirements")
if [ -z "$python_version" ]; then
  say "$requirements has no '# requires-python: X.Y' line"
  exit 1
fi

if [ -n "${PJRTX_JAX_PYTHON:-}" ]; then
  candidates=("$PJRTX_JAX_PYTHON")
else
  candidates=(python3 "python$python_version")
  for pyenv_python in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$python_version".*/bin/python"$python_version"; do
    [ -x "$pyenv_python" ] && candidates+=("$pyenv_python")
  done
  candidates+=(/usr/bin/python3)
fi
base_python=""
for candidate in "${candidates[@]}"; do
  if command -v "$candidate" >/dev/null 2>&1 &&
     [ "$("$candidate" -c 'import sys; print("%d.%d" % sys.version_info[:2])' \
            2>/dev/null)" = "$python_version" ]; then
    # The interpreter itself, not a launcher such as a pyenv shim.
    base_python=$("$candidate" -c 'import sys; print(sys.executable)')
    break
  fi
done
if [ -z "$base_python" ]; then
  say "no Python $python_version found (tried ${candidates[*]}); the pins in" \
      "$requirements are for $python_version. Install it (pyenv install" \
      "$python_version, or your distribution's python$python_version with" \
      "venv) or point PJRTX_JAX_PYTHON at one."
  exit 3
fi

hash=$(sha256sum "$requirements" | cut -c1-12)
root=${PJRTX_JAX_ENV_ROOT:-$HOME/.cache/pjrtx}
env_dir=$root/jax-env-$hash
# What the marker must say for the environment to be reused.
identity="requirements=$hash python=$base_python $("$base_python" -V 2>&1)"

mkdir -p "$root"
exec 9>"$env_dir.lock"
flock 9

if [ -f "$env_dir/.pjrtx-complete" ] &&
   [ "$(cat "$env_dir/.pjrtx-complete")" = "$identity" ] &&
   "$env_dir/bin/python" -c '' 2>/dev/null; then
  echo "$env_dir"
  exit 0
fi

start=$(date +%s)
say "creating JAX environment $env_dir from $base_python" \
    "(one time: 20-40 s, 650 MB)"
rm -rf "$env_dir"
if ! "$base_python" -m venv "$env_dir" >&2; then
  rm -rf "$env_dir"
  say "'$base_python -m venv' failed. With Debian's Python, install" \
      "python3-venv (apt-get install python3-venv), or point" \
      "PJRTX_JAX_PYTHON at another Python $python_version."
  exit 1
fi
"$env_dir/bin/python" -m pip install --quiet --no-input \
  --disable-pip-version-check -r "$requirements" </dev/null >&2
"$env_dir/bin/python" -m pip check >&2
echo "$identity" >"$env_dir/.pjrtx-complete"
say "created in $(( $(date +%s) - start )) s"
echo "$env_dir"
