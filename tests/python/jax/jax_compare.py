"""Runs one computation on tpuemu and on JAX's cpu backend, jit and eager."""

import jax
import numpy as np

import conftest
import tolerances


def tpu():
    return jax.devices("tpuemu")[0]


def cpu():
    return jax.devices("cpu")[0]


def run_on(device, fn, args, jit):
    """Runs fn(*args) with the args committed to `device`."""
    args = jax.device_put(args, device)
    with jax.default_device(device):
        if jit:
            out = jax.jit(fn)(*args)
        else:
            with jax.disable_jit():
                out = fn(*args)
    return jax.tree.map(np.asarray, out)


def check(op, fn, *args, dtype=None, modes=("jit", "eager"), atol=None):
    """Asserts fn(*args) on tpuemu equals cpu's, in every mode; counts it."""
    for mode in modes:
        jit = mode == "jit"
        expected = run_on(cpu(), fn, args, jit)
        passed = False
        try:
            actual = run_on(tpu(), fn, args, jit)
            jax.tree.map(lambda a, e: tolerances.assert_close(a, e, atol=atol),
                         actual, expected)
            passed = True
        finally:
            leaves = jax.tree.leaves(expected)
            conftest.record(f"{op}[{mode}]", dtype or (
                leaves[0].dtype if leaves else "-"), passed)
