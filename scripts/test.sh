#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite: a normal
# build, then an ASan+UBSan build. With --tsan, runs the concurrency tests
# under ThreadSanitizer instead.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-deps.sh
./scripts/check-format.sh
# The JAX test environment (pinned jax, jaxlib, optax, pytest from PyPI),
# made once outside the checkout and reused while the pins are the same.
./scripts/jax-env.sh >/dev/null
# JAX 0.12 needs Python 3.12: where there is none (status 3), its half of
# the JAX suite is skipped, saying so.
./scripts/jax-env.sh python/requirements-jax-0.12.txt >/dev/null || [ $? -eq 3 ]
jobs=${PJRTX_JOBS:-$(nproc)}

run_ctest() {
  local flavour=$1; shift
  echo "== testing $flavour"
  (cd "build/$flavour" && ctest --output-on-failure -j "$jobs" "$@")
}

if [ "${1:-}" = "--tsan" ]; then
  ./scripts/build.sh tsan
  # UCX intercepts mmap unless told not to, which TSan cannot follow.
  UCX_MEM_MMAP_HOOK_MODE=none \
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/tests/tsan.supp" \
    run_ctest tsan -L "unit|conformance|multiprocess"
  exit 0
fi

./scripts/build.sh release
./scripts/build.sh asan
# GCC 12's sanitizer runtime mistakes some dynamic TLS blocks of libraries
# loaded with dlopen (the plugins, the fake driver) for an old glibc layout
# and reads a bogus range from them, so the leak checker's tracer
# intermittently crashes at exit after every test passed. Not following
# __tls_get_addr avoids that; the plugins keep no heap memory reachable
# only from dynamic TLS, so leak reports lose nothing.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}intercept_tls_get_addr=0" \
  run_ctest asan
run_ctest release
