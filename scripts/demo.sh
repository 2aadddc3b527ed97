#!/usr/bin/env bash
# Installs what is missing, builds, and runs the demo: multislice training
# on the TPU emulator, 2 slices (processes) of 4 chips, data parallel over
# DCN and parameters sharded over ICI.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-deps.sh
./scripts/build.sh release
./build/release/samples/multislice_train/multislice_train "$@"
