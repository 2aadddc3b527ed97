#!/usr/bin/env bash
# Runs a test on one of the CPU engine's narrower vector paths (CTest sets
# PJRTX_CPU_MAX_ISA and the other limits; see pjrtx_add_test's
# ISA_VARIANTS), unless this machine's engine runs that path anyway: then
# the test's plain run already covers it, and this prints SKIP with the
# reason and exits 77. The engine says which path it runs (the plugin's
# tpu_emu.cpu_isa attribute), so this asks no CPU-feature question itself.
#   isa_variant.sh PJRTX_BINARY TPU_EMU_PLUGIN COMMAND [ARGUMENTS...]
set -u
pjrtx=$1
plugin=$2
shift 2
info=$("$pjrtx" info "--plugin=$plugin" 2>&1)
line=$(grep -E '^ +tpu_emu\.cpu_isa ' <<<"$info")
# e.g. "tpu_emu.cpu_isa  avx2 (PJRTX_CPU_MAX_ISA=avx2; the CPU has avx512)"
pattern='cpu_isa +([a-z0-9]+) \(PJRTX_CPU_MAX_ISA=[a-z0-9]+; the CPU has ([a-z0-9]+)\)'
if [[ ! $line =~ $pattern ]]; then
  echo "FAILED: the plugin does not report a capped vector ISA" \
       "(PJRTX_CPU_MAX_ISA=${PJRTX_CPU_MAX_ISA:-unset}):"
  echo "$info"
  exit 1
fi
if [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ]; then
  echo "SKIP: this CPU's widest path is ${BASH_REMATCH[2]}: the plain run" \
       "of this test already runs it"
  exit 77
fi
echo "== on the ${BASH_REMATCH[1]} path (the CPU has ${BASH_REMATCH[2]})"
exec "$@"
