#!/usr/bin/env bash
# libpjrt_cuda.so without a GPU: `pjrtx info` exits 0 with zero devices and
# a reason naming what is missing, for no driver, the toolkit's stub, a
# driver without cuGetProcAddress_v2, an old driver, a missing symbol and no
# device; with a fake driver listing GPUs they are the client's devices. The plugin exports
# only GetPjrtxApi and links neither libcuda nor cuBLASLt.
#   cuda_discovery_test.sh PJRTX_BINARY PLUGIN FAKE_DRIVER FAKE_PRE12_DRIVER
set -u
pjrtx=$1 plugin=$2 fake=$3 pre12=$4
failures=0
check() {  # description, condition
  if eval "$2"; then echo "ok: $1"; else echo "FAILED: $1"; failures=$((failures + 1)); fi
}
out=$(mktemp)
trap 'rm -f "$out"' EXIT

expect() {  # description, expected reason text, environment...
  local what=$1 reason=$2; shift 2
  env "$@" "$pjrtx" info --plugin="$plugin" >"$out" 2>&1
  local code=$?
  check "$what: exit 0 (got $code)" '[ "$code" -eq 0 ]'
  check "$what: zero devices" 'grep -q "^Devices (0, 0 addressable)" "$out"'
  check "$what: the reason says '$reason'" \
    'grep -q "pjrtx.unavailable_reason .*$reason" "$out"'
  if [ "$failures" -gt 0 ]; then cat "$out"; fi
}

expect "no driver" "no CUDA driver: cannot load /nonexistent/libcuda.so.1" \
  PJRTX_CUDA_DRIVER_PATH=/nonexistent/libcuda.so.1
stub=""
for candidate in /usr/local/cuda/lib64/stubs/libcuda.so \
                 /usr/local/cuda/targets/x86_64-linux/lib/stubs/libcuda.so; do
  [ -e "$candidate" ] && stub=$candidate && break
done
if [ -n "$stub" ]; then
  expect "the toolkit's stub" "is the CUDA toolkit's stub library" \
    PJRTX_CUDA_DRIVER_PATH="$stub"
else
  echo "skip: no toolkit stub libcuda.so found"
fi
expect "a driver before CUDA 12.0" "predates CUDA 12.0" \
  PJRTX_CUDA_DRIVER_PATH="$pre12"
expect "an old driver" "supports CUDA 11.8; CUDA 12.0 or newer is needed" \
  PJRTX_CUDA_DRIVER_PATH="$fake" FAKE_CUDA_MODE=old
expect "a missing entry point" "has no cuDeviceGetPCIBusId" \
  PJRTX_CUDA_DRIVER_PATH="$fake" FAKE_CUDA_MODE=missing_symbol
expect "no device" "no CUDA device (cuInit: CUDA_ERROR_NO_DEVICE" \
  PJRTX_CUDA_DRIVER_PATH="$fake" FAKE_CUDA_MODE=no_device
expect "no device listed" "no CUDA device (cuDeviceGetCount: 0)" \
  PJRTX_CUDA_DRIVER_PATH="$fake" FAKE_CUDA_GPUS=0
# With a working driver the GPUs are devices, and nothing is unavailable.
PJRTX_CUDA_DRIVER_PATH="$fake" "$pjrtx" info --plugin="$plugin" >"$out" 2>&1
code=$?
check "GPUs found: exit 0 (got $code)" '[ "$code" -eq 0 ]'
check "GPUs found: two devices" 'grep -q "^Devices (2, 2 addressable)" "$out"'
check "GPUs found: listed by name" \
  'grep -q "cuda.gpus .*0: Fake H100 0 (sm_90, 132 SMs" "$out"'
check "GPUs found: no unavailable reason" \
  '! grep -q "pjrtx.unavailable_reason" "$out"'
# The system's cuBLASLt would drive the system's driver, not the fake.
check "cuBLASLt: not loaded beside another driver" \
  'grep -q "cuda.cublaslt .*unavailable: \(not loaded: PJRTX_CUDA_DRIVER_PATH\|the plugin was built without\)" "$out"'
if [ "$failures" -gt 0 ]; then cat "$out"; fi

exports=$(nm -D --defined-only "$plugin" | awk '$2 ~ /^[TDBR]$/ {print $3}' |
          sort | xargs)
check "exports only GetPjrtApi and GetPjrtxApi (got: $exports)" \
  '[ "$exports" = "GetPjrtApi GetPjrtxApi" ]'
check "does not link libcuda" '! readelf -d "$plugin" | grep -q "NEEDED.*libcuda"'
check "does not link cuBLASLt" '! readelf -d "$plugin" | grep -q "NEEDED.*libcublas"'

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
