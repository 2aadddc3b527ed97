#!/usr/bin/env bash
# Configures and builds one flavour of the tree into build/<flavour>.
#   scripts/build.sh release|asan|tsan
set -euo pipefail
cd "$(dirname "$0")/.."

flavour=${1:-release}
jobs=${PJRTX_JOBS:-$(nproc)}
case "$flavour" in
  release) flags="" ;;
  asan) flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" ;;
  tsan) flags="-fsanitize=thread -fno-omit-frame-pointer" ;;
  *) echo "unknown flavour '$flavour'; expected release, asan or tsan" >&2; exit 2 ;;
esac

cmake -S . -B "build/$flavour" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_C_FLAGS=$flags" "-DCMAKE_CXX_FLAGS=$flags" >/dev/null
start=$(date +%s)
echo "== building $flavour ($jobs jobs)"
cmake --build "build/$flavour" -j "$jobs"
echo "== built $flavour in $(( $(date +%s) - start )) s"
