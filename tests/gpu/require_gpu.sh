#!/usr/bin/env bash
# Runs a command only where libpjrt_cuda.so finds a usable GPU (the real
# driver, not a fake): otherwise prints why and exits 77, CTest's skip code,
# so `gpu` tests skip with the plugin's own reason on machines without one.
#   require_gpu.sh PJRTX PLUGIN COMMAND [ARG]...
set -u
pjrtx=$1 plugin=$2
shift 2
info=$(env -u PJRTX_CUDA_DRIVER_PATH "$pjrtx" info --plugin="$plugin" 2>&1)
if ! grep -q "^Devices ([1-9]" <<<"$info"; then
  reason=$(sed -n 's/^ *pjrtx.unavailable_reason *//p' <<<"$info" | head -1)
  echo "SKIP: no usable GPU: ${reason:-the plugin lists no device}"
  exit 77
fi
exec env -u PJRTX_CUDA_DRIVER_PATH "$@"
