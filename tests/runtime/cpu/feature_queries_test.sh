#!/usr/bin/env bash
# Every CPU-feature question is answered by runtime/cpu/cpu_features.cc,
# which honours PJRTX_CPU_MAX_ISA: a query anywhere else (compiler
# built-ins, cpuid, oneDNN's or the kernel's feature calls) would pick a
# path that setting cannot reach, untested on CPUs unlike the CI's. Fails
# naming each such line.
#   feature_queries_test.sh SOURCE_DIR
set -u
cd "$1" || exit 1
pattern='__builtin_cpu_(supports|is|init)|__get_cpuid|cpuid\.h|_may_i_use_cpu_feature|getauxval|xgetbv|get_effective_cpu_isa|dnnl_get_effective_cpu_isa|mkl_cbwr|openblas_get_corename'
allowed='^(runtime/cpu/cpu_features\.cc|tests/runtime/cpu/cpu_features_test\.cc|tests/runtime/cpu/feature_queries_test\.sh):'
found=$(grep -rnE "$pattern" --include='*.c' --include='*.cc' --include='*.h' \
          --include='*.cpp' --include='*.sh' --include='*.py' \
          api support runtime plugins compiler_stub samples tests python |
        grep -vE "$allowed")
# The check must be able to see a query: it finds the one it allows.
if ! grep -qE "$pattern" runtime/cpu/cpu_features.cc; then
  echo "FAILED: the pattern no longer finds cpu_features.cc's own queries"
  exit 1
fi
if [ -n "$found" ]; then
  echo "FAILED: CPU-feature queries outside runtime/cpu/cpu_features.cc" \
       "(ask HostCpuFeatures() instead):"
  echo "$found"
  echo "0 passed, 1 failed"
  exit 1
fi
echo "1 passed, 0 failed"
