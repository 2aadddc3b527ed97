"""Writes the compile options test data (testdata/*.pb) as JAX makes them.

Serialized xla.CompileOptionsProto and xla.DeviceAssignmentProto messages
from the pinned jaxlib (python/requirements-jax.txt), built the way JAX
builds them for a compile (jax._src.compiler.get_compile_options: debug
options, effort levels, env option overrides and all), for
compile_options_test.cc. Run it, without JAX_* or XLA_FLAGS settings, in
the JAX environment:

  "$(scripts/jax-env.sh)/bin/python" tests/runtime/pjrt/make_compile_options.py

It overwrites the files and prints what each holds.
"""

import pathlib

import jax
import numpy as np
from jax._src import compiler
from jax._src.lib import xla_client

TESTDATA = pathlib.Path(__file__).resolve().parent / "testdata"


def compile_options(num_replicas, num_partitions, device_ids=None,
                    portable=False, env_overrides=None):
    """Returns CompileOptions as JAX's jit makes them.

    device_ids: the device assignment as rows of replicas, each a list of
    one device id per partition; None for none.
    """
    options = compiler.get_compile_options(
        num_replicas=num_replicas, num_partitions=num_partitions,
        device_assignment=(None if device_ids is None else
                           np.array(device_ids)),
        env_options_overrides=env_overrides)
    options.compile_portable_executable = portable
    # As jax._src.interpreters.pxla.create_compile_options adds them.
    build = options.executable_build_options
    build.allow_spmd_sharding_propagation_to_parameters = [False, True]
    build.allow_spmd_sharding_propagation_to_output = [False]
    return options


def write(name, data, what):
    path = TESTDATA / name
    path.write_bytes(data)
    print(f"{path.relative_to(TESTDATA.parent)}: {len(data)} bytes, {what}")


def main():
    TESTDATA.mkdir(exist_ok=True)
    print(f"jax {jax.__version__}")
    write("compile_options_2replicas.pb",
          compile_options(2, 1, [[3], [5]],
                          env_overrides={"xla_cpu_enable_fast_math": "false"})
          .SerializeAsString(),
          "2 replicas x 1 partition on devices [3, 5], one env override")
    write("compile_options_2partitions.pb",
          compile_options(1, 2, [[2, 7]]).SerializeAsString(),
          "1 replica x 2 partitions on devices [2, 7]")
    write("compile_options_portable.pb",
          compile_options(1, 1, portable=True).SerializeAsString(),
          "1 replica x 1 partition, portable, no device assignment")
    write("device_assignment_2x1.pb",
          xla_client.DeviceAssignment.create(np.array([[3], [5]])).serialize(),
          "DeviceAssignmentProto, 2 replicas x 1 computation: [3, 5]")
    write("device_assignment_2x3.pb",
          xla_client.DeviceAssignment.create(
              np.array([[0, 1, 2], [300, 4, 5]])).serialize(),
          "DeviceAssignmentProto, 2 replicas x 3 computations: "
          "[[0, 1, 2], [300, 4, 5]]")


if __name__ == "__main__":
    main()
