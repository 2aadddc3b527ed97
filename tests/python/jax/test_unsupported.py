"""An op the compiler rejects raises a Python exception; JAX goes on."""

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jax_compare import tpu


def test_unknown_custom_call_raises_and_process_survives():
    def f(x):
        return jax.ffi.ffi_call(
            "pjrtx_no_such_target",
            jax.ShapeDtypeStruct(x.shape, x.dtype))(x)

    x = jax.device_put(np.ones(4, np.float32), tpu())
    with pytest.raises(Exception) as raised:
        jax.jit(f)(x).block_until_ready()
    message = str(raised.value)
    # Names the op and a line:column (today 0:0: the bytecode path drops
    # locations).
    assert re.search(r"\d+:\d+: op stablehlo\.custom_call is not supported",
                     message), message
    # The process and the client survive: the next program runs.
    np.testing.assert_array_equal(np.asarray(jax.jit(jnp.negative)(x)),
                                  -np.ones(4, np.float32))
