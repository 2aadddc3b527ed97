"""Runs one computation on tpuemu, jit and eager, against JAX's cpu backend.

The reference is XLA:CPU's jit of the computation, for both of tpuemu's
modes: XLA:CPU's eager mode compiles every primitive on its own, which took
three times as long as its jit and most of the suite's time, and computes
the same values (the tolerances cover XLA's fusing of floating-point work).
"""

import concurrent.futures

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
    """Asserts fn(*args) on tpuemu equals cpu's jit, in every mode; counts it."""
    expected = run_on(cpu(), fn, args, True)
    for mode in modes:
        jit = mode == "jit"
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


def check_ops(ops, *args, dtype=None, modes=("jit", "eager"), atol=None):
    """check() of several ops over the same args; counts each op on its own.

    `ops` maps op names to functions of `args`. XLA:CPU's compiles of the
    references dominate the suite's time, so in jit mode the ops share one
    program per backend (which compiles in a fraction of the time of one
    program per op), and the reference computes on a thread of its own
    while tpuemu runs (test_ops.py took 1.7x as long without it, on 2
    cores). Should tpuemu raise on the shared program, each op
    then runs alone so that the counts and the failure name the op that
    raised.
    """
    failures = []

    def together(*values):
        return {name: fn(*values) for name, fn in ops.items()}

    # JAX's jit and eager settings and default device are per thread.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        reference = pool.submit(run_on, cpu(), together, args, True)
        results = {}
        for mode in modes:
            try:
                results[mode] = run_on(tpu(), together, args, mode == "jit")
            except Exception:  # pylint: disable=broad-except
                results[mode] = None
        expected = reference.result()
    for mode in modes:
        jit = mode == "jit"
        actual = results[mode]
        for name, fn in ops.items():
            passed = False
            try:
                got = (actual[name] if actual is not None else
                       run_on(tpu(), fn, args, jit))
                jax.tree.map(lambda a, e: tolerances.assert_close(
                    a, e, atol=atol), got, expected[name])
                passed = True
            except Exception as e:  # pylint: disable=broad-except
                failures.append(f"{name}[{mode}]: {type(e).__name__}: {e}")
            leaves = jax.tree.leaves(expected[name])
            conftest.record(f"{name}[{mode}]", dtype or (
                leaves[0].dtype if leaves else "-"), passed)
    assert not failures, "\n".join(failures)
