"""An op the compiler rejects raises a Python exception; JAX goes on.

The exception names the op, its call target and where in the user's source
JAX traced it: the plugin reads that position out of the portable
artifact's MLIR locations.
"""

import inspect
import os
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jax_compare import tpu


def _call_unknown_target(x):
    call = jax.ffi.ffi_call("pjrtx_no_such_target",
                            jax.ShapeDtypeStruct(x.shape, x.dtype))
    return call(x)  # The custom call is traced here.


def _line_of(function, text):
    """The line number in its file of the first line of `function` with `text`."""
    lines, first = inspect.getsourcelines(function)
    return first + next(i for i, line in enumerate(lines) if text in line)


def test_unknown_custom_call_raises_naming_it_and_its_line():
    x = jax.device_put(np.ones(4, np.float32), tpu())
    with pytest.raises(Exception) as raised:
        jax.jit(_call_unknown_target)(x).block_until_ready()
    message = str(raised.value)
    line = _line_of(_call_unknown_target, "return call(x)")
    # "<this file>:<line>:<column>: op ...": JAX may shorten the directory,
    # not the file's name.
    expected = (re.escape(os.path.basename(__file__)) + f":{line}:" +
                r"\d+: op stablehlo\.custom_call with call target "
                r"'pjrtx_no_such_target' is not supported")
    assert re.search(expected, message), message
    # The process and the client survive: the next program runs.
    np.testing.assert_array_equal(np.asarray(jax.jit(jnp.negative)(x)),
                                  -np.ones(4, np.float32))
