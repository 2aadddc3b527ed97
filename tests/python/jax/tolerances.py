"""Per-dtype tolerances of the JAX tests, in one place.

tpuemu runs XLA:CPU's math through our own CPU engine; integer and boolean
results, and bit-producing ops (random bits, sorts, indexing), must match
bit for bit. Floating results may differ by the rounding of a different
evaluation order or of a different transcendental implementation: a few
ulps of the type, stated here as (rtol, atol).
"""

import ml_dtypes
import numpy as np

# (rtol, atol) per result dtype; integers and bool: exact.
_FLOAT_TOLERANCES = {
    np.dtype(np.float16): (2e-3, 2e-3),          # ~2 ulp of 2**-10
    np.dtype(ml_dtypes.bfloat16): (1.6e-2, 1.6e-2),  # ~2 ulp of 2**-7
    np.dtype(np.float32): (2e-6, 1e-6),          # ~16 ulp of 2**-23
    np.dtype(np.float64): (1e-13, 1e-13),
    np.dtype(np.complex64): (2e-6, 1e-6),
    np.dtype(np.complex128): (1e-13, 1e-13),
}

# Losses of the MLP (200 Adam steps, float32): per-step relative tolerance.
MLP_LOSS_RTOL = 1e-4


def tolerance(dtype):
    """(rtol, atol) for results of `dtype`; (0, 0) means bit-exact."""
    return _FLOAT_TOLERANCES.get(np.dtype(dtype), (0.0, 0.0))


def accumulation_atol(dtype, terms, magnitude):
    """atol of a sum of `terms` products of size `magnitude` in `dtype`.

    Summation order differs (XLA:CPU uses Eigen's blocked kernels), so the
    error bound is terms * eps * magnitude, independent of cancellation.
    """
    return terms * float(ml_dtypes.finfo(dtype).eps) * magnitude


def assert_close(actual, expected, dtype=None, atol=None):
    """Asserts `actual` equals `expected` within the tolerance of its dtype."""
    actual = np.asarray(actual)
    expected = np.asarray(expected)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    rtol, default_atol = tolerance(dtype or expected.dtype)
    atol = default_atol if atol is None else max(atol, default_atol)
    if rtol == 0 and atol == 0:
        np.testing.assert_array_equal(actual, expected)
    else:
        np.testing.assert_allclose(actual.astype(np.complex128
                                                 if np.iscomplexobj(actual)
                                                 else np.float64),
                                   expected.astype(actual.dtype).astype(
                                       np.complex128 if np.iscomplexobj(
                                           actual) else np.float64),
                                   rtol=rtol, atol=atol, equal_nan=True)
