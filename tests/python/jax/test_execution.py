"""Execution on tpuemu: queued calls, pytrees of outputs."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import conftest

from jax_compare import check, tpu


@pytest.mark.parametrize("size", [16, 256 * 1024])
def test_thousand_queued_calls(size):
    """16 elements run on the caller's thread (a quick program on an idle
    chip); 256K elements queue behind each other on the chip's queue."""
    step = jax.jit(lambda v: v * 1.0001 + 1)
    x = jax.device_put(np.zeros(size, np.float32), tpu())
    expected = np.zeros(size, np.float32)
    for _ in range(1000):
        x = step(x)
        expected = expected * np.float32(1.0001) + np.float32(1)
    x.block_until_ready()
    np.testing.assert_allclose(np.asarray(x), expected, rtol=1e-5)
    conftest.record("queued_calls", f"float32[{size}]", True)


def test_pytree_outputs():
    check("pytree_out", lambda v: {"a": v, "b": (v * 2, [jnp.sum(v)])},
          np.arange(6, dtype=np.int32))
