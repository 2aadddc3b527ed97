"""jnp/lax ops on tpuemu against JAX's cpu backend, jit and eager."""

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest
from jax import lax

import tolerances
from jax_compare import check

INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
        np.uint32, np.uint64]
FLOATS = [np.float16, ml_dtypes.bfloat16, np.float32, np.float64]
COMPLEX = [np.complex64, np.complex128]
ALL = [np.bool_] + INTS + FLOATS + COMPLEX


def sample(dtype, shape, seed=0, positive=False):
    """Deterministic values of `dtype`, in a range every op accepts."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if np.issubdtype(dtype, np.integer):
        lo = 1 if positive else (0 if dtype.kind == "u" else -20)
        return rng.integers(lo, 20, size=shape).astype(dtype)
    x = rng.uniform(0.1 if positive else -3, 3, size=shape)
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * rng.uniform(-2, 2, size=shape)
    return x.astype(dtype)


BINARY = {
    "add": (jnp.add, ALL), "subtract": (jnp.subtract, INTS + FLOATS + COMPLEX),
    "multiply": (jnp.multiply, ALL), "maximum": (jnp.maximum, [np.bool_] +
                                                 INTS + FLOATS),
    "minimum": (jnp.minimum, INTS + FLOATS),
    "equal": (jnp.equal, ALL), "less": (jnp.less, INTS + FLOATS),
    "true_divide": (jnp.true_divide, FLOATS + COMPLEX),
    "floor_divide": (jnp.floor_divide, INTS + FLOATS),
    "remainder": (jnp.remainder, INTS + FLOATS),
    "bitwise_and": (jnp.bitwise_and, [np.bool_] + INTS),
    "bitwise_xor": (jnp.bitwise_xor, [np.bool_] + INTS),
    "left_shift": (jnp.left_shift, INTS),
    "right_shift": (jnp.right_shift, INTS),
    "power": (jnp.power, [np.float32, np.float64]),
    "arctan2": (jnp.arctan2, [np.float32, np.float64]),
}

UNARY = {
    "negative": (jnp.negative, INTS + FLOATS + COMPLEX),
    "abs": (jnp.abs, INTS + FLOATS + COMPLEX),
    "sign": (jnp.sign, INTS + FLOATS),
    "logical_not": (jnp.logical_not, [np.bool_]),
    "invert": (jnp.invert, [np.bool_] + INTS),
    "floor": (jnp.floor, FLOATS), "round": (jnp.round, FLOATS),
    "exp": (jnp.exp, FLOATS + COMPLEX), "log": (jnp.log, FLOATS),
    "log1p": (jnp.log1p, FLOATS), "expm1": (jnp.expm1, FLOATS),
    "sqrt": (jnp.sqrt, FLOATS), "rsqrt": (lax.rsqrt, FLOATS),
    "sin": (jnp.sin, FLOATS), "cos": (jnp.cos, FLOATS),
    "tanh": (jnp.tanh, FLOATS), "logistic": (jax.nn.sigmoid, FLOATS),
    "square": (jnp.square, INTS + FLOATS + COMPLEX),
    "real": (jnp.real, COMPLEX), "conj": (jnp.conj, COMPLEX),
    "isnan": (jnp.isnan, FLOATS),
}


def _cases(table):
    return [pytest.param(name, dt, id=f"{name}-{np.dtype(dt).name}")
            for name, (_, dts) in table.items() for dt in dts]


@pytest.mark.parametrize("name,dtype", _cases(BINARY))
def test_binary_broadcast(name, dtype):
    fn = BINARY[name][0]
    positive = name in ("floor_divide", "remainder", "power", "true_divide")
    a = sample(dtype, (3, 4), 1)
    b = sample(dtype, (4,), 2, positive=positive)
    if name in ("left_shift", "right_shift"):
        b = (np.arange(4) % 5).astype(dtype)
    check(name, fn, a, b, dtype=np.dtype(dtype))


POSITIVE_UNARY = ("log", "sqrt", "rsqrt", "log1p")


@pytest.mark.parametrize("name,dtype", _cases(UNARY))
def test_unary(name, dtype):
    x = sample(dtype, (2, 5), 3, positive=name in POSITIVE_UNARY)
    check(name, UNARY[name][0], x, dtype=np.dtype(dtype))


@pytest.mark.parametrize("a,b", [(np.int8, np.float32), (np.uint8, np.int16),
                                 (np.int32, np.float16),
                                 (ml_dtypes.bfloat16, np.float16),
                                 (np.float32, np.complex64),
                                 (np.bool_, np.int32),
                                 (np.uint32, np.int64)])
def test_type_promotion(a, b):
    x, y = sample(a, (2, 3), 4), sample(b, (3,), 5)
    check("promote_add", lambda p, q: p + q * 2, x, y,
          dtype=f"{np.dtype(a).name}+{np.dtype(b).name}")


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float64])
def test_matmul(dtype):
    a, b = sample(dtype, (5, 7), 1), sample(dtype, (7, 3), 2)
    check("matmul", jnp.matmul, a, b)
    check("einsum_batched", lambda x, y: jnp.einsum("bij,bjk->bik", x, y),
          sample(dtype, (2, 3, 4), 3), sample(dtype, (2, 4, 5), 4))


def test_dot_bf16_f32_accumulation():
    a = sample(ml_dtypes.bfloat16, (4, 16), 1)
    b = sample(ml_dtypes.bfloat16, (16, 3), 2)
    check("dot_bf16_pref_f32", lambda x, y: lax.dot(
        x, y, preferred_element_type=jnp.float32), a, b, dtype="bf16->f32")


def test_dot_int8():
    a, b = sample(np.int8, (4, 8), 1), sample(np.int8, (8, 3), 2)
    check("dot_int8_pref_i32", lambda x, y: lax.dot(
        x, y, preferred_element_type=jnp.int32), a, b, dtype="i8->i32")
    check("dot_general_batched", lambda x, y: lax.dot_general(
        x, y, (((2,), (1,)), ((0,), (0,)))),
          sample(np.float32, (2, 3, 4), 3), sample(np.float32, (2, 4, 5), 4))


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float64,
                                   np.float16])
def test_reductions(dtype):
    x = sample(dtype, (4, 6), 7)
    check("sum", lambda v: jnp.sum(v, axis=1), x)
    check("max", lambda v: jnp.max(v, axis=0), x)
    check("argmax", lambda v: jnp.argmax(v, axis=1), x, dtype=np.dtype(dtype))
    check("cumsum", lambda v: jnp.cumsum(v, axis=1), x)
    if np.issubdtype(dtype, np.floating):
        check("mean", jnp.mean, x)
        check("var", lambda v: jnp.var(v, axis=0), x)
        check("logsumexp", lambda v: jax.nn.logsumexp(v, axis=1), x)


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_sort_argsort_top_k(dtype):
    x = sample(dtype, (3, 8), 9)
    check("sort", lambda v: jnp.sort(v, axis=1), x)
    check("argsort", lambda v: jnp.argsort(v, axis=1, stable=True), x,
          dtype=np.dtype(dtype))
    check("top_k", lambda v: lax.top_k(v, 3), x, dtype=np.dtype(dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float64])
def test_indexing_and_scatter(dtype):
    x = sample(dtype, (6, 4), 11)
    idx = np.array([0, 2, 2, 5], np.int32)
    u = sample(dtype, (4, 4), 12)
    check("gather_take", lambda v, i: v[i], x, idx)
    check("gather_slice", lambda v: v[1:5:2, ::-1], x)
    for op in ("set", "add", "mul", "min", "max"):
        check(f"scatter_{op}",
              lambda v, i, w, op=op: getattr(v.at[i], op)(w), x, idx, u)
    check("dynamic_slice", lambda v, s: lax.dynamic_slice(v, (s, 1), (2, 2)),
          x, np.int64(3))
    check("dynamic_update_slice", lambda v, w, s: lax.dynamic_update_slice(
        v, w, (s, 0)), x, u[:2], np.int64(5))


@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.bool_,
                                   np.complex64])
def test_shape_ops(dtype):
    x = sample(dtype, (2, 3, 4), 13)
    check("pad", lambda v: jnp.pad(v, ((1, 0), (0, 2), (1, 1))), x)
    check("concatenate", lambda v: jnp.concatenate([v, v], axis=1), x)
    check("reshape", lambda v: v.reshape(4, 6), x)
    check("transpose", lambda v: jnp.transpose(v, (2, 0, 1)), x)
    check("where", lambda v: jnp.where(v.astype(bool), v, v[::-1]), x)
    check("iota", lambda v: lax.broadcasted_iota(jnp.int32, (3, 4), 1) +
          v.shape[0], x, dtype="int32")


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8])
def test_clip(dtype):
    x = sample(dtype, (10,), 14)
    check("clip", lambda v: jnp.clip(v, 2, 9), x)


# 3x3 window x 2 input features per group, terms up to 3 * 3 in size.
CONV_ATOL = tolerances.accumulation_atol(np.float32, 18, 9.0)


@pytest.mark.parametrize("layout", ["NHWC", "NCHW"])
def test_conv(layout):
    lhs = sample(np.float32, (2, 8, 8, 4) if layout == "NHWC" else
                 (2, 4, 8, 8), 15)
    rhs = sample(np.float32, (3, 3, 2, 6), 16)  # HWIO, 2 groups.
    dn = (layout, "HWIO", layout)
    check(f"conv_{layout}", lambda x, w: lax.conv_general_dilated(
        x, w, window_strides=(2, 1), padding=((1, 1), (0, 2)),
        rhs_dilation=(1, 2), lhs_dilation=(1, 1), dimension_numbers=dn,
        feature_group_count=2), lhs, rhs, atol=CONV_ATOL)
    check(f"conv_same_{layout}", lambda x, w: lax.conv_general_dilated(
        x, w, (1, 1), "SAME", dimension_numbers=dn, feature_group_count=2),
          lhs, rhs, atol=CONV_ATOL)
