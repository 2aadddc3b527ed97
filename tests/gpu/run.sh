#!/usr/bin/env bash
# The GPU run: builds a release tree, then on this machine's GPUs runs
# `pjrtx info`, the conformance suite, the StableHLO corpus, the tests
# labelled `gpu` and cuda_bench against libpjrt_cuda.so, writes the results
# as markdown and appends them to docs/gpu-results.md.
#
#   tests/gpu/run.sh [--no-append] [--skip-build | --build-only] [--quick]
#
#   --no-append    write the results folder only, never docs/gpu-results.md
#   --skip-build   use build/release as it is (e.g. built by --build-only)
#   --build-only   build, then stop (for machines that limit command time)
#   --quick        cuda_bench --quick: small sizes, to check this script
#                  (never appended)
#
# Needs CMake >= 3.25, Ninja, a C++20 compiler, the CUDA toolkit's headers
# (cuda.h, cudaTypedefs.h: CMake's CUDAToolkit, else /usr/local/cuda/include)
# and an NVIDIA driver (libcuda.so.1); never libcudart.
#
# Build dependencies: the Debian packages of scripts/install-deps.sh, as
# system packages; or, where they cannot be installed, unpacked under a
# prefix, e.g. `dpkg -x PACKAGE.deb /opt/pjrtx-deps` for each package and
#   PJRTX_DEPS_PREFIX=/opt/pjrtx-deps/usr tests/gpu/run.sh
# PJRTX_DEPS_PREFIX (a colon-separated list) is prepended to
# CMAKE_PREFIX_PATH for the build, and its lib folders to LD_LIBRARY_PATH
# for the programs run.
#
# Environment:
#   OUT                          results folder (default build/gpu-results;
#                                relative to the repository root)
#   PJRTX_DEPS_PREFIX            as above
#   PJRTX_JOBS                   build parallelism (default nproc)
#   PJRTX_STABLEHLO_CORPUS_DIR   the corpus (default ../shared/conformance;
#                                its stablehlo-interpret/*.mlir are run)
#   PJRTX_CUDA_DRIVER_PATH       the driver the plugin loads (default
#                                libcuda.so.1); a fake one tests this script
#   PJRTX_NCCL_PATH, PJRTX_CUBLASLT_PATH
#                                NCCL and cuBLASLt for the plugin (default:
#                                the loader's search for libnccl.so.2 and
#                                libcublasLt.so.13)
#   PJRTX_SOURCE_COMMIT          the commit recorded, where the tree run is
#                                a copy without its git history
#
# docs/gpu-results.md is appended to only for a full run on a real GPU:
# when nvidia-smi works, PJRTX_CUDA_DRIVER_PATH is unset, and neither
# --no-append nor --quick is given.
#
# Exit status: 0 when everything ran and passed; 1 when the conformance
# suite, a corpus case, a `gpu` test or the benchmark failed (recorded all
# the same); 2 for bad usage, a failed build, or no usable GPU.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
repo=$(pwd)

append=1 build=1 build_only=0 quick=0
for arg in "$@"; do
  case "$arg" in
    --no-append) append=0 ;;
    --skip-build) build=0 ;;
    --build-only) build_only=1 ;;
    --quick) quick=1 ;;
    *) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
if [ "$build" = 0 ] && [ "$build_only" = 1 ]; then
  echo "run.sh: --skip-build and --build-only exclude each other" >&2
  exit 2
fi

if [ -n "${PJRTX_DEPS_PREFIX:-}" ]; then
  export CMAKE_PREFIX_PATH="$PJRTX_DEPS_PREFIX${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
  IFS=: read -r -a prefixes <<<"$PJRTX_DEPS_PREFIX"
  for p in "${prefixes[@]}"; do
    for lib in "$p/lib" "$p/lib64" "$p/lib/x86_64-linux-gnu" \
               "$p/lib/aarch64-linux-gnu"; do
      [ -d "$lib" ] && LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    done
  done
  export LD_LIBRARY_PATH
fi

build_dir=build/release
if [ "$build" = 1 ]; then
  if ! scripts/build.sh release; then
    echo "run.sh: the release build failed. Missing dependencies: install" \
         "them (scripts/install-deps.sh) or unpack them under a prefix and" \
         "set PJRTX_DEPS_PREFIX (see the header of $0)" >&2
    exit 2
  fi
fi
[ "$build_only" = 1 ] && exit 0

pjrtx=$build_dir/runtime/cli/pjrtx
plugin=$repo/$build_dir/plugins/cuda/libpjrt_cuda.so
conformance=$build_dir/tests/conformance/pjrtx_conformance
bench=$build_dir/tests/bench/cuda_bench
for f in "$pjrtx" "$plugin" "$conformance" "$bench"; do
  if [ ! -x "$f" ] && [ ! -f "$f" ]; then
    echo "run.sh: $f was not built (the CUDA plugin needs the toolkit's" \
         "headers; the tests and benchmarks PJRTX_BUILD_TESTS and" \
         "PJRTX_BUILD_BENCHMARKS)" >&2
    exit 2
  fi
done

out=${OUT:-build/gpu-results}
mkdir -p "$out"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
results=$out/gpu-results-$stamp.md
echo "== results in $out"

# Runs "$@" with a time limit, its output (stdout and stderr) into $1's log
# and on the terminal; sets $status.
run_logged() {
  local log=$1 limit=$2
  shift 2
  echo "== $*"
  timeout "$limit" "$@" >"$log" 2>&1
  status=$?
  tail -n 5 "$log"
  [ "$status" = 124 ] && echo "   (stopped after $limit s)" | tee -a "$log"
  return 0
}

# 1. What the plugin finds.
run_logged "$out/info.txt" 300 "$pjrtx" info "--plugin=$plugin"
attribute() {  # The value of a plugin attribute in `pjrtx info`'s output.
  sed -n "s/^  $1  *//p" "$out/info.txt" | head -n 1
}
gpus_found=$(attribute cuda.gpus_found)
gpus=$(attribute cuda.gpus)
driver_path=$(attribute cuda.driver_path)
driver_version=$(attribute cuda.driver_version)
if [ "$status" != 0 ] || [ -z "$gpus_found" ] || [ "$gpus_found" = 0 ]; then
  echo "run.sh: no usable GPU: $(attribute pjrtx.unavailable_reason)" >&2
  exit 2
fi
driver_text="CUDA $((driver_version / 1000)).$((driver_version % 1000 / 10)) (cuda.driver_version $driver_version, $driver_path)"
# "0: NVIDIA H100 80GB HBM3 (sm_90, ...); 1: ..." -> the first name.
device_name=$(printf '%s\n' "$gpus" | sed 's/^0: //; s/ (.*//')
smi=""
if command -v nvidia-smi >/dev/null 2>&1; then
  smi=$(nvidia-smi --query-gpu=name,driver_version,memory.total \
          --format=csv,noheader 2>/dev/null | head -n 1)
fi

# 2. The conformance suite.
run_logged "$out/conformance.log" 1800 "$conformance" "--plugin=$plugin"
conformance_status=$status
gtest_count() {  # The count on gtest's "[  PASSED  ] 12 tests." line.
  grep -E "^\[ +$1 +\] [0-9]+ tests?" "$out/conformance.log" | tail -n 1 |
    sed -E 's/^[^]]*\] ([0-9]+).*/\1/'
}
c_passed=$(gtest_count PASSED) c_failed=$(gtest_count FAILED)
c_skipped=$(gtest_count SKIPPED)
conformance_text="${c_passed:-0} passed, ${c_failed:-0} failed, ${c_skipped:-0} skipped (exit status $conformance_status)"
conformance_failures=$(grep -E '^\[  FAILED  \] [A-Za-z_]' "$out/conformance.log" |
                         sed 's/^\[  FAILED  \] //; s/,.*//; s/ (.*//' |
                         sort -u)

# 3. The StableHLO interpreter corpus through the plugin.
corpus=${PJRTX_STABLEHLO_CORPUS_DIR:-$repo/../shared/conformance}/stablehlo-interpret
corpus_failed=0
if ls "$corpus"/*.mlir >/dev/null 2>&1; then
  files=$(find "$corpus" -maxdepth 1 -name "*.mlir" | wc -l)
  run_logged "$out/corpus.log" 1800 tests/corpus/run_corpus.sh "$pjrtx" \
    "$plugin" "$corpus"
  summary=$(grep -E '^cases: ' "$out/corpus.log" | tail -n 1)
  corpus_failed=$(printf '%s\n' "$summary" | sed -nE 's/.* ([0-9]+) failed.*/\1/p')
  if [ -z "$summary" ]; then
    corpus_text="did not finish (exit status $status; see corpus.log)"
    corpus_failed=1
  else
    corpus_text="${summary#cases: } ($files files of $corpus)"
  fi
else
  corpus_text="not run: no corpus at $corpus"
fi

# 4. Tests labelled gpu, among them gpu.pjrt_client_replay: the plugin
# driven through its PJRT C API front door (GetPjrtApi) as JAX drives it
# (tests/runtime/pjrt/client_replay_test.cc).
gpu_tests=$(ctest --test-dir "$build_dir" -N -L gpu 2>/dev/null |
              sed -n 's/^Total Tests: //p')
gpu_tests_failed=0
if [ "${gpu_tests:-0}" = 0 ]; then
  ctest_text="no test is labelled gpu"
else
  run_logged "$out/ctest-gpu.log" 1800 ctest --test-dir "$build_dir" -L gpu \
    --output-on-failure
  [ "$status" != 0 ] && gpu_tests_failed=1
  ctest_text="$(grep -E 'tests passed' "$out/ctest-gpu.log" | tail -n 1) (exit status $status)"
fi

# 5. The benchmark.
bench_args=("--plugin=$plugin" --require-gpu)
[ "$quick" = 1 ] && bench_args+=(--quick)
run_logged "$out/bench.log" 1800 "$bench" "${bench_args[@]}"
bench_status=$status

# The results, as one markdown section.
if [ -n "${PJRTX_SOURCE_COMMIT:-}" ]; then
  commit=$PJRTX_SOURCE_COMMIT
else
  commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
  if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    commit="$commit with local changes"
  fi
fi
section=$out/section.md
{
  echo "## Run of $(date -u '+%Y-%m-%d %H:%M UTC'): $device_name"
  echo
  echo "| | |"
  echo "|---|---|"
  echo "| Devices | $gpus_found: $gpus |"
  echo "| Driver | $driver_text |"
  [ -n "$smi" ] && echo "| nvidia-smi (name, driver, memory) | $smi |"
  echo "| Source | commit $commit |"
  echo "| Command | \`tests/gpu/run.sh $*\` |"
  echo "| Conformance | $conformance_text |"
  echo "| Corpus | $corpus_text |"
  echo "| ctest -L gpu | $ctest_text |"
  echo "| cuda_bench | exit status $bench_status$([ "$quick" = 1 ] && echo ', --quick') |"
  if [ -n "$conformance_failures" ]; then
    echo
    echo "Conformance failures:"
    printf '%s\n' "$conformance_failures" | sed 's/^/- /'
  fi
  if [ "${corpus_failed:-0}" != 0 ] && [ -f "$out/corpus.log" ]; then
    echo
    echo "Corpus failures (first 20):"
    grep -E '^FAIL ' "$out/corpus.log" | head -n 20 | cut -c1-200 |
      sed 's/^/- /'
  fi
  echo
  echo "Benchmark: ratio = raw driver time / plugin time (above 1: the plugin"
  echo "is faster), median of alternating trials, with min and max."
  echo
  echo "| pair | ratio | min | max | figures | bar | met |"
  echo "|---|---|---|---|---|---|---|"
  awk '$1 == "RESULT" {
    name = $2; ratio = ""; lo = ""; hi = ""; bar = ""; rest = ""
    for (i = 3; i <= NF; ++i) {
      split($i, kv, "=")
      if (kv[1] == "ratio") ratio = kv[2]
      else if (kv[1] == "min") lo = kv[2]
      else if (kv[1] == "max") hi = kv[2]
      else if (kv[1] == "bar") bar = kv[2]
      else rest = rest (rest == "" ? "" : " ") $i
    }
    met = bar == "" ? "" : (ratio + 0 >= bar + 0 ? "yes" : "**no**")
    printf "| %s | %s | %s | %s | %s | %s | %s |\n", name, ratio, lo, hi,
           rest, bar, met
  }' "$out/bench.log"
  other=$(grep -E '^(UNSUPPORTED|SKIP|FAIL) |^error: ' "$out/bench.log")
  if [ -n "$other" ]; then
    echo
    printf '%s\n' "$other" | sed 's/^/- /'
  fi
} >"$section"
{
  echo "# pjrtx GPU results"
  echo
  cat "$section"
} >"$results"
echo "== wrote $results"

# Only real GPUs go into the project's record.
why_not=""
if [ "$append" = 0 ]; then
  why_not="--no-append"
elif [ "$quick" = 1 ]; then
  why_not="--quick runs check the script, they are not results"
elif [ -n "${PJRTX_CUDA_DRIVER_PATH:-}" ]; then
  why_not="PJRTX_CUDA_DRIVER_PATH is set ($PJRTX_CUDA_DRIVER_PATH)"
elif [ -z "$smi" ]; then
  why_not="nvidia-smi does not work here"
fi
if [ -z "$why_not" ]; then
  { echo; cat "$section"; } >>docs/gpu-results.md
  echo "== appended to docs/gpu-results.md"
else
  echo "== not appended to docs/gpu-results.md: $why_not"
fi
rm -f "$section"

echo "== conformance: $conformance_text"
echo "== corpus: $corpus_text"
echo "== ctest -L gpu: $ctest_text"
echo "== cuda_bench: exit status $bench_status"
if [ "$conformance_status" != 0 ] || [ "${corpus_failed:-0}" != 0 ] ||
   [ "$gpu_tests_failed" != 0 ] || [ "$bench_status" != 0 ]; then
  exit 1
fi
exit 0
