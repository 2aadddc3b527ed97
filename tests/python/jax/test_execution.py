"""Execution on tpuemu: queued calls, pytrees of outputs."""

import jax
import jax.numpy as jnp
import numpy as np

from jax_compare import check, tpu


def test_thousand_queued_calls():
    step = jax.jit(lambda v: v * 1.0001 + 1)
    x = jax.device_put(np.zeros(16, np.float32), tpu())
    expected = np.zeros(16, np.float32)
    for _ in range(1000):
        x = step(x)
        expected = expected * np.float32(1.0001) + np.float32(1)
    x.block_until_ready()
    np.testing.assert_allclose(np.asarray(x), expected, rtol=1e-5)


def test_pytree_outputs():
    check("pytree_out", lambda v: {"a": v, "b": (v * 2, [jnp.sum(v)])},
          np.arange(6, dtype=np.int32))
