#!/usr/bin/env bash
# Installs the Debian 12 packages pjrtx builds and tests with, if missing.
# As root it runs apt-get; otherwise sudo -n; if neither works it prints the
# command to run and exits 1. Idempotent: does nothing when all are present.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config binutils
  libabsl-dev libgtest-dev libgmock-dev libbenchmark-dev
  libflatbuffers-dev flatbuffers-compiler libucx-dev ucx-utils
  libdlpack-dev libdnnl-dev
  # oneDNN's CMake config requires OpenCL, which Debian only recommends.
  ocl-icd-opencl-dev
  libopenblas-dev openmpi-bin libopenmpi-dev
  python3 python3-numpy python3-torch python3-venv
  # The test command checks that C and C++ files are as clang-format
  # writes them.
  clang-format
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "Installing missing packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  apt_get=(apt-get)
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  apt_get=(sudo -n apt-get)
else
  echo "Cannot install packages (not root, and sudo needs a password). Run:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${apt_get[@]}" update -qq
"${apt_get[@]}" install -y -qq --no-install-recommends "${missing[@]}"
