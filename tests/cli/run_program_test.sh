#!/usr/bin/env bash
# pjrtx run-mlir's program mode: .npy inputs in, .npy results out (as
# numpy.save writes them), and inputs that do not fit the program named;
# bad usage exits 2. The .npy files are written byte by byte here, so no
# NumPy is needed.
#   run_program_test.sh PJRTX_BINARY TPU_EMU_PLUGIN
set -u
pjrtx=$1
plugin=$2
failures=0
checks=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

check() {  # description, condition
  checks=$((checks + 1))
  if eval "$2"; then echo "ok: $1"; else echo "FAILED: $1"; failures=$((failures + 1)); fi
}

# npy FILE HEADER_DICT DATA_AS_PRINTF_ESCAPES: format 1.0, the header padded
# with spaces so that the data starts 64-byte aligned, as numpy.save pads it.
npy() {
  local header=$2
  # 10 bytes of magic, version and header length, then the header and '\n'.
  while [ $(( (10 + ${#header} + 1) % 64 )) -ne 0 ]; do header+=' '; done
  local length
  printf -v length '\\x%02x' $(( ${#header} + 1 ))
  printf "\\x93NUMPY\\x01\\x00${length}\\x00%s\\n" "$header" >"$1"
  printf "$3" >>"$1"
}

hex() { od -An -tx1 -v "$1" | tr -d ' \n'; }

cat >"$work/program.mlir" <<'EOF'
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xi1>) {
  %sum = stablehlo.add %a, %b : tensor<2xf32>
  %gt = stablehlo.compare GT, %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  return %sum, %gt : tensor<2xf32>, tensor<2xi1>
}
EOF
# a = [1, 3], b = [2, 2] (little-endian f32).
npy "$work/a.npy" "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }" \
  '\x00\x00\x80\x3f\x00\x00\x40\x40'
npy "$work/b.npy" "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }" \
  '\x00\x00\x00\x40\x00\x00\x00\x40'
run() { "$pjrtx" run-mlir "--plugin=$plugin" "$@" 2>&1; }

out=$(run --input="$work/a.npy" --input="$work/b.npy" \
  --output-dir="$work/out" "$work/program.mlir"); rc=$?
check "runs: exit 0" "[ $rc -eq 0 ]"
check "logs each result" "grep -q \"output 1: 'b1' of shape (2,)\" <<<\"\$out\""
sum=$(hex "$work/out/output_0.npy")
check "result 0's data starts 64-byte aligned" "[ \$(( (\${#sum} / 2 - 8) % 64 )) -eq 0 ]"
check "result 0 holds f32 of shape (2,)" \
  "grep -q \"'descr': '<f4', 'fortran_order': False, 'shape': (2,)\" \"$work/out/output_0.npy\""
check "result 0 is [3, 5]" "[ \"\${sum: -16}\" = 000040400000a040 ]"
gt=$(hex "$work/out/output_1.npy")
check "result 1 holds booleans" "grep -q \"'descr': '|b1'\" \"$work/out/output_1.npy\""
check "result 1 is [false, true]" "[ \"\${gt: -4}\" = 0001 ]"

out=$(run --input="$work/a.npy" --output-dir="$work/out" \
  "$work/program.mlir"); rc=$?
check "too few inputs exit 1" "[ $rc -eq 1 ]"
check "too few inputs are counted" "grep -q 'takes 2 arguments; 1 inputs given' <<<\"\$out\""

npy "$work/long.npy" "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }" \
  '\x00\x00\x80\x3f\x00\x00\x40\x40\x00\x00\x40\x40'
out=$(run --input="$work/a.npy" --input="$work/long.npy" \
  --output-dir="$work/out" "$work/program.mlir"); rc=$?
check "wrong shape exits 1" "[ $rc -eq 1 ]"
check "wrong shape is named" "grep -q \"input 1 .* holds 'f4' of shape (3,); the program's argument 1 is 'f4' of shape (2,)\" <<<\"\$out\""

npy "$work/ints.npy" "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }" \
  '\x01\x00\x00\x00\x02\x00\x00\x00'
out=$(run --input="$work/ints.npy" --input="$work/b.npy" \
  --output-dir="$work/out" "$work/program.mlir"); rc=$?
check "wrong type exits 1" "[ $rc -eq 1 ] && grep -q \"holds 'i4'\" <<<\"\$out\""

npy "$work/fortran.npy" "{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }" \
  '\x00\x00\x80\x3f\x00\x00\x40\x40'
out=$(run --input="$work/fortran.npy" --input="$work/b.npy" \
  --output-dir="$work/out" "$work/program.mlir"); rc=$?
check "Fortran order is refused" "[ $rc -eq 1 ] && grep -q 'Fortran-order' <<<\"\$out\""

npy "$work/short.npy" "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }" \
  '\x00\x00\x80\x3f'
out=$(run --input="$work/short.npy" --input="$work/b.npy" \
  --output-dir="$work/out" "$work/program.mlir"); rc=$?
check "truncated data is refused" "[ $rc -eq 1 ] && grep -q 'holds 4 bytes of data; its header says 8' <<<\"\$out\""

out=$(run --input="$work/program.mlir" --input="$work/b.npy" \
  --output-dir="$work/out" "$work/program.mlir"); rc=$?
check "a non-.npy input is refused" "[ $rc -eq 1 ] && grep -q 'not an .npy file' <<<\"\$out\""

out=$(run --input="$work/a.npy" "$work/program.mlir"); rc=$?
check "--input without --output-dir exits 2" "[ $rc -eq 2 ]"
out=$(run --output-dir="$work/out" "$work/program.mlir" "$work/program.mlir"); rc=$?
check "two programs exit 2" "[ $rc -eq 2 ]"
out=$("$pjrtx" run-mlir --help 2>&1); rc=$?
check "--help exits 0 and names the flags" "[ $rc -eq 0 ] && grep -q -- '--output-dir=DIR' <<<\"\$out\""

echo "$(( checks - failures )) passed, $failures failed"
[ $failures -eq 0 ]
