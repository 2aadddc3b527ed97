#!/usr/bin/env bash
# Packs what tests/gpu/run.sh needs from this machine's build/release into
# one folder, for a GPU machine that lacks the build's Debian packages (or
# a compiler): the programs it runs, the CTest files of the `gpu` tests,
# the shared libraries they load from outside the system's C and C++
# runtimes, the scripts, docs/gpu-results.md and the StableHLO corpus.
#
#   tests/gpu/bundle.sh FOLDER        (after scripts/build.sh release)
#
# PJRTX_BUILD_DIR names another build tree to pack (default build/release);
# in the bundle it is always build/release, where run.sh looks.
#
# On the GPU machine, from inside the copied folder:
#
#   ./run-bundle.sh [run.sh's options]
#
# runs tests/gpu/run.sh --skip-build there (its results in ./results, its
# section appended to the folder's docs/gpu-results.md, to be copied back).
# The machine needs an NVIDIA driver, CTest and the C++ runtime of a
# glibc/libstdc++ at least as new as this machine's.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
if [ $# -ne 1 ]; then
  sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
out=$1
build=${PJRTX_BUILD_DIR:-build/release}
build=$(cd "$build" 2>/dev/null && pwd || echo "$build")
programs=(runtime/cli/pjrtx plugins/cuda/libpjrt_cuda.so
          tests/conformance/pjrtx_conformance tests/bench/cuda_bench
          tests/runtime/pjrt/pjrt_client_replay_test)
for p in "${programs[@]}"; do
  if [ ! -f "$build/$p" ]; then
    echo "bundle.sh: $build/$p is missing; build first: scripts/build.sh release" >&2
    exit 2
  fi
done
corpus=${PJRTX_STABLEHLO_CORPUS_DIR:-$repo/../shared/conformance}
rm -rf "$out"
mkdir -p "$out/lib" "$out/docs" "$out/tests/gpu" "$out/tests/corpus"
for p in "${programs[@]}"; do
  mkdir -p "$out/build/release/$(dirname "$p")"
  cp "$build/$p" "$out/build/release/$p"
done
(cd "$build" && find . -name CTestTestfile.cmake) | while read -r f; do
  mkdir -p "$out/build/release/$(dirname "$f")"
  cp "$build/$f" "$out/build/release/$f"
done
# Libraries from outside the C and C++ runtimes (Abseil, UCX, ...): the
# GPU machine's own runtimes are newer and stay in use.
for p in "${programs[@]}"; do ldd "$build/$p"; done |
  awk '/=> \// {print $3}' | sort -u |
  grep -vE '/(libc|libm|libgcc_s|libstdc\+\+|libpthread|libdl|librt)\.so' |
  while read -r lib; do cp -L "$lib" "$out/lib/"; done
cp tests/gpu/run.sh tests/gpu/require_gpu.sh "$out/tests/gpu/"
cp tests/corpus/run_corpus.sh "$out/tests/corpus/"
# The PJRT client replay (gpu.pjrt_client_replay) reads jaxlib's compile
# options from here.
mkdir -p "$out/tests/runtime/pjrt"
cp -r tests/runtime/pjrt/testdata "$out/tests/runtime/pjrt/"
cp docs/gpu-results.md "$out/docs/"
if [ -d "$corpus/stablehlo-interpret" ]; then
  mkdir -p "$out/conformance"
  cp -r "$corpus/stablehlo-interpret" "$out/conformance/"
fi
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] &&
  commit="$commit with local changes"
cat >"$out/run-bundle.sh" <<SCRIPT
#!/usr/bin/env bash
# Runs tests/gpu/run.sh --skip-build on this bundle (made by
# tests/gpu/bundle.sh from commit $commit).
set -u
cd "\$(dirname "\$0")"
here=\$(pwd)
# The CTest files name the tree they were built in; point them here.
find build/release -name CTestTestfile.cmake -exec sed -i \\
  -e "s|$corpus|\$here/conformance|g" -e "s|$build|\$here/build/release|g" \\
  -e "s|$repo|\$here|g" {} +
export LD_LIBRARY_PATH="\$here/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
export PJRTX_STABLEHLO_CORPUS_DIR=\$here/conformance
export PJRTX_SOURCE_COMMIT="$commit"
# cuBLASLt where the toolkit keeps it, if the loader does not find it.
if [ -z "\${PJRTX_CUBLASLT_PATH:-}" ] &&
   ! ldconfig -p 2>/dev/null | grep -q libcublasLt.so.13; then
  found=\$(ls /usr/local/cuda*/targets/*/lib/libcublasLt.so.1[23] \\
             /usr/local/cuda*/lib64/libcublasLt.so.1[23] 2>/dev/null | head -n 1)
  [ -n "\$found" ] && export PJRTX_CUBLASLT_PATH=\$found
fi
OUT=\${OUT:-\$here/results} exec tests/gpu/run.sh --skip-build "\$@"
SCRIPT
chmod +x "$out/run-bundle.sh"
echo "bundle.sh: $(du -sh "$out" | cut -f1) in $out (commit $commit); on the GPU machine: $out/run-bundle.sh"
