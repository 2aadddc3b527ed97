#!/usr/bin/env bash
# Configures and builds one flavour of the tree into build/<flavour>.
#   scripts/build.sh release|asan|tsan
set -euo pipefail
cd "$(dirname "$0")/.."

flavour=${1:-release}
jobs=${PJRTX_JOBS:-$(nproc)}
# Sanitizer builds use -O1 and line tables only (-g1): enough for reports
# with file:line, at a fraction of the compile time of full debug info.
# GCC 12 reports -Wmaybe-uninitialized inside libstdc++'s <regex> once
# sanitizers instrument it (a false positive); the release flavour keeps
# that warning as an error.
# UBSan's pointer checks are left to ASan: it reports null and
# out-of-bounds accesses itself (null, bounds, object-size), and the two
# it does not cover (alignment, pointer-overflow) are rare on x86-64 and,
# with the other three, at -O1 made GCC take 2-2.5x as long on each
# instrumented file (the flavour's build went from 937 s to 649 s on 2
# cores).
ubsan_pointer_checks=null,bounds,object-size,alignment,pointer-overflow
case "$flavour" in
  release) build_type=Release; flags="" ;;
  asan) build_type=Release
        flags="-O1 -g1 -fsanitize=address,undefined -fno-sanitize=$ubsan_pointer_checks -fno-omit-frame-pointer -fno-sanitize-recover=undefined -Wno-maybe-uninitialized" ;;
  tsan) build_type=Release; flags="-O1 -g1 -fsanitize=thread -fno-omit-frame-pointer -Wno-maybe-uninitialized" ;;
  *) echo "unknown flavour '$flavour'; expected release, asan or tsan" >&2; exit 2 ;;
esac

# Sanitizer flavours keep assertions and their own -O1 (the Release
# defaults, -O3 -DNDEBUG, would override both).
# They also skip the benchmarks, which only the release flavour runs.
release_flags=()
if [ "$flavour" != release ]; then
  release_flags=(-DCMAKE_C_FLAGS_RELEASE= -DCMAKE_CXX_FLAGS_RELEASE=
                 -DPJRTX_BUILD_BENCHMARKS=OFF)
fi
cmake -S . -B "build/$flavour" -G Ninja -DCMAKE_BUILD_TYPE=$build_type \
  "${release_flags[@]}" "-DCMAKE_C_FLAGS=$flags" "-DCMAKE_CXX_FLAGS=$flags" >/dev/null
start=$(date +%s)
echo "== building $flavour ($jobs jobs)"
cmake --build "build/$flavour" -j "$jobs"
echo "== built $flavour in $(( $(date +%s) - start )) s"
