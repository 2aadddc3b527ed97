"""lax control flow on tpuemu against JAX's cpu backend, jit and eager."""

import jax.numpy as jnp
import numpy as np
from jax import lax

from jax_compare import check


def test_while_and_fori():
    x = np.arange(5, dtype=np.float32)
    check("while_loop", lambda v: lax.while_loop(
        lambda c: c[0] < 7, lambda c: (c[0] + 1, c[1] * 1.5 + 1), (0, v)), x)
    check("fori_loop", lambda v: lax.fori_loop(
        0, 6, lambda i, c: c + i * c, v), x)


def test_scan_carry_and_stacked():
    xs = np.arange(12, dtype=np.float32).reshape(4, 3)
    check("scan", lambda s: lax.scan(
        lambda c, x: (c + x, c * x), jnp.zeros(3, jnp.float32), s), xs)


def test_cond_and_switch():
    x = np.linspace(-1, 1, 6).astype(np.float32)
    for p in (True, False):
        check("cond", lambda v, q: lax.cond(q, jnp.sin, jnp.cos, v), x,
              np.bool_(p))
    for i in range(4):
        check("switch", lambda v, k: lax.switch(
            k, [jnp.sin, jnp.cos, lambda u: u * 2], v), x, np.int32(i))
