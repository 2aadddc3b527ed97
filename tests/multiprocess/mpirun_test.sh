#!/usr/bin/env bash
# A 2-process job started by Debian's OpenMPI mpirun on loopback: the ranks
# find each other from OMPI_COMM_WORLD_* (the coordinator on a free port
# given through PJRTX_COORDINATOR, as on a shared machine) and run every
# kind of collective. Exits 77 (skipped) without mpirun.
#   mpirun_test.sh COLLECTIVES_JOB PLUGIN
set -u
job=$1 plugin=$2
if ! command -v mpirun >/dev/null; then
  echo "SKIP: mpirun not found (Debian package openmpi-bin)"
  exit 77
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
export PJRTX_COORDINATOR=127.0.0.1:$port
exec mpirun "${root[@]}" -n 2 --oversubscribe -x PJRTX_COORDINATOR \
  --mca btl self,tcp --mca btl_tcp_if_include lo \
  "$job" --plugin="$plugin" ops
