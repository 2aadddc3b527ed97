#!/usr/bin/env bash
# Installs what is missing, builds, and runs the demo.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-deps.sh
./scripts/build.sh release
./build/release/samples/hello_devices build/release/plugins/tpu_emu/libpjrt_tpuemu.so topology=v5e:2x2
