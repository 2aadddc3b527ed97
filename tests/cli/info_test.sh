#!/usr/bin/env bash
# pjrtx info: lists devices with coordinates; bad options exit 2 naming the
# value and the valid forms.
#   info_test.sh PJRTX_BINARY TPU_EMU_PLUGIN
set -u
pjrtx=$1
plugin=$2
failures=0
checks=0

check() {  # description, condition
  checks=$((checks + 1))
  if eval "$2"; then echo "ok: $1"; else echo "FAILED: $1"; failures=$((failures + 1)); fi
}

out=$("$pjrtx" info "--plugin=$plugin" --option topology=v5e:2x2 2>&1); rc=$?
check "v5e:2x2 exits 0" "[ $rc -eq 0 ]"
check "v5e:2x2 lists 4 devices" "grep -q 'Devices (4, 4 addressable)' <<<\"\$out\""
for c in 0,0,0 1,0,0 0,1,0 1,1,0; do
  check "device at $c" "grep -Eq 'TPU v5 lite \(emulated\) +$c ' <<<\"\$out\""
done
check "header has the columns" "grep -Eq 'id +kind +coords +core_on_chip +slice_index +process_index' <<<\"\$out\""

out=$("$pjrtx" info "--plugin=$plugin" --option topology=v5e:2x3x 2>&1); rc=$?
check "bad topology exits 2" "[ $rc -eq 2 ]"
check "bad topology is named" "grep -q \"'v5e:2x3x'\" <<<\"\$out\""
check "valid forms are listed" "grep -q 'v4:2x2x2' <<<\"\$out\""

out=$("$pjrtx" info "--plugin=$plugin" --option num_slices=two 2>&1); rc=$?
check "mistyped option exits 2" "[ $rc -eq 2 ]"
check "mistyped option is named" "grep -q \"'num_slices'\" <<<\"\$out\""

out=$("$pjrtx" info "--plugin=$plugin" --option topo=v5e:2x2 2>&1); rc=$?
check "unknown option exits 2" "[ $rc -eq 2 ]"

out=$("$pjrtx" info "--plugin=$plugin" 2>&1)
check "the engine's vector ISA is shown" \
  "grep -Eq 'tpu_emu.cpu_isa +(avx512|avx2|baseline)' <<<\"\$out\""
out=$(PJRTX_CPU_MAX_ISA=baseline "$pjrtx" info "--plugin=$plugin" 2>&1)
check "PJRTX_CPU_MAX_ISA=baseline caps it" \
  "grep -Eq 'tpu_emu.cpu_isa +baseline \(PJRTX_CPU_MAX_ISA=baseline' <<<\"\$out\""
out=$(PJRTX_CPU_MAX_ISA=avx3 "$pjrtx" info "--plugin=$plugin" 2>&1); rc=$?
check "a bad PJRTX_CPU_MAX_ISA exits 2" "[ $rc -eq 2 ]"
check "a bad PJRTX_CPU_MAX_ISA is named with the valid values" \
  "grep -q \"PJRTX_CPU_MAX_ISA is 'avx3'; expected 'avx512', 'avx2' or 'baseline'\" <<<\"\$out\""

out=$("$pjrtx" info --plugin=/nonexistent.so 2>&1); rc=$?
check "missing plugin exits 1" "[ $rc -eq 1 ]"

echo "$(( checks - failures )) passed, $failures failed"
[ $failures -eq 0 ]
