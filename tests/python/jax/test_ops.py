"""jnp/lax ops on tpuemu against JAX's cpu backend, jit and eager.

Each op runs over every dtype JAX accepts for it: bool, the signed and
unsigned integers, the floats and the complex types. Where a test leaves a
dtype out, JAX itself rejects it there, as the comment at the exclusion
says. The ops of one test and dtype run as one program (check_ops), each
compared and counted on its own.
"""

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest
from jax import lax

import tolerances
import conftest
from jax_compare import check, check_ops, cpu, run_on, tpu

INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
        np.uint32, np.uint64]
FLOATS = [np.float16, ml_dtypes.bfloat16, np.float32, np.float64]
COMPLEX = [np.complex64, np.complex128]
ALL = [np.bool_] + INTS + FLOATS + COMPLEX


def sample(dtype, shape, seed=0, positive=False):
    """Deterministic values of `dtype`, in a range every op accepts."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype == np.bool_:  # Positive: all True, a divisor that is not 0.
        return rng.integers(int(positive), 2, size=shape).astype(np.bool_)
    if np.issubdtype(dtype, np.integer):
        lo = 1 if positive else (0 if dtype.kind == "u" else -20)
        return rng.integers(lo, 20, size=shape).astype(dtype)
    x = rng.uniform(0.1 if positive else -3, 3, size=shape)
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * rng.uniform(-2, 2, size=shape)
    return x.astype(dtype)


def _but(*rejected):
    """ALL less the dtypes that JAX itself rejects for an op."""
    return [d for d in ALL if d not in rejected]


NO_BOOL = _but(np.bool_)
NO_COMPLEX = _but(*COMPLEX)
BOOL_INTS = [np.bool_] + INTS  # Bitwise ops: JAX rejects inexact types.

# Each op over every dtype JAX accepts; integers and bool promote to floats
# where the math needs them (true_divide, arctan2, exp, ...). Exclusions
# are JAX's own TypeErrors, named at each one.
BINARY = {
    "add": (jnp.add, ALL), "multiply": (jnp.multiply, ALL),
    "subtract": (jnp.subtract, NO_BOOL),  # JAX: sub does not accept bool.
    "maximum": (jnp.maximum, ALL), "minimum": (jnp.minimum, ALL),
    "equal": (jnp.equal, ALL), "less": (jnp.less, ALL),
    "true_divide": (jnp.true_divide, ALL),
    # JAX: floor_divide and rem do not accept complex.
    "floor_divide": (jnp.floor_divide, NO_COMPLEX),
    "remainder": (jnp.remainder, NO_COMPLEX),
    "bitwise_and": (jnp.bitwise_and, BOOL_INTS),
    "bitwise_xor": (jnp.bitwise_xor, BOOL_INTS),
    "left_shift": (jnp.left_shift, BOOL_INTS),
    "right_shift": (jnp.right_shift, BOOL_INTS),
    "power": (jnp.power, ALL), "arctan2": (jnp.arctan2, ALL),
}

UNARY = {
    "negative": (jnp.negative, NO_BOOL),  # JAX: neg does not accept bool.
    "abs": (jnp.abs, ALL),
    "sign": (jnp.sign, NO_BOOL),  # JAX: sign does not accept bool.
    "logical_not": (jnp.logical_not, ALL), "invert": (jnp.invert, BOOL_INTS),
    "floor": (jnp.floor, NO_COMPLEX),  # JAX: floor accepts floating only.
    "round": (jnp.round, NO_BOOL),  # JAX: round of bool is not inexact.
    "exp": (jnp.exp, ALL), "log": (jnp.log, ALL), "log1p": (jnp.log1p, ALL),
    "expm1": (jnp.expm1, ALL), "sqrt": (jnp.sqrt, ALL),
    # lax.rsqrt and lax.logistic (jax.nn.sigmoid) do not promote: JAX
    # rejects integers and bool.
    "rsqrt": (lax.rsqrt, FLOATS + COMPLEX),
    "logistic": (jax.nn.sigmoid, FLOATS + COMPLEX),
    "sin": (jnp.sin, ALL), "cos": (jnp.cos, ALL), "tanh": (jnp.tanh, ALL),
    "square": (jnp.square, ALL), "real": (jnp.real, ALL),
    "conj": (jnp.conj, ALL), "isnan": (jnp.isnan, ALL),
}


def _ops_of(table, dtype):
    return {name: fn for name, (fn, dts) in table.items() if dtype in dts}


def _ids(dtypes):
    return [pytest.param(dt, id=np.dtype(dt).name) for dt in dtypes]


POSITIVE_BINARY = ("floor_divide", "remainder", "power", "true_divide")


@pytest.mark.parametrize("dtype", _ids(ALL))
def test_binary_broadcast(dtype):
    a = sample(dtype, (3, 4), 1)
    b = sample(dtype, (4,), 2)
    b_positive = sample(dtype, (4,), 2, positive=True)
    shifts = (np.arange(4) % 5).astype(dtype)

    def second(name):
        if name in ("left_shift", "right_shift"):
            return 3
        return 2 if name in POSITIVE_BINARY else 1

    ops = {name: lambda *v, f=fn, i=second(name): f(v[0], v[i])
           for name, fn in _ops_of(BINARY, dtype).items()}
    check_ops(ops, a, b, b_positive, shifts, dtype=np.dtype(dtype))


POSITIVE_UNARY = ("log", "sqrt", "rsqrt", "log1p")


@pytest.mark.parametrize("dtype", _ids(ALL))
def test_unary(dtype):
    x = sample(dtype, (2, 5), 3)
    x_positive = sample(dtype, (2, 5), 3, positive=True)
    ops = {name: lambda *v, f=fn, i=int(name in POSITIVE_UNARY): f(v[i])
           for name, fn in _ops_of(UNARY, dtype).items()}
    check_ops(ops, x, x_positive, dtype=np.dtype(dtype))


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


def _sum_atol(dtype, terms, magnitude):
    """atol of sums of `terms` products; None (exact) for integers and bool,
    whose sums wrap the same in any order. 16-bit floats are summed in
    float32 (runtime/cpu/accumulation.h; XLA:CPU too) and rounded once,
    which their dtype's own tolerance covers."""
    if not np.issubdtype(dtype, np.inexact):
        return None
    if np.dtype(dtype).itemsize == 2:
        dtype = np.float32
    return tolerances.accumulation_atol(dtype, terms, magnitude)


@pytest.mark.parametrize("dtype", _ids(ALL))
def test_matmul(dtype):
    # Terms up to 3 * 3 for floats, |3 + 2j|**2 for complex.
    atol = _sum_atol(dtype, 7, 13.0)
    check_ops({"matmul": lambda a, b, x, y: jnp.matmul(a, b),
               "einsum_batched": lambda a, b, x, y: jnp.einsum(
                   "bij,bjk->bik", x, y)},
              sample(dtype, (5, 7), 1), sample(dtype, (7, 3), 2),
              sample(dtype, (2, 3, 7), 3), sample(dtype, (2, 7, 5), 4),
              dtype=np.dtype(dtype), atol=atol)


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


REDUCTIONS = {
    "sum": lambda v: jnp.sum(v, axis=1), "max": lambda v: jnp.max(v, axis=0),
    "argmax": lambda v: jnp.argmax(v, axis=1),
    "cumsum": lambda v: jnp.cumsum(v, axis=1), "mean": jnp.mean,
    "var": lambda v: jnp.var(v, axis=0),
    "logsumexp": lambda v: jax.nn.logsumexp(v, axis=1),
}


@pytest.mark.parametrize("dtype", _ids(ALL))
def test_reductions(dtype):
    ops = dict(REDUCTIONS)
    if dtype in COMPLEX:  # JAX: argmax's gt does not accept complex.
        del ops["argmax"]
    check_ops(ops, sample(dtype, (4, 6), 7), dtype=np.dtype(dtype))


@pytest.mark.parametrize("shape,axis", [((1 << 20,), None),
                                        ((64, 4096), 1), ((64, 4096), None)])
def test_long_float_sums_are_as_close_as_cpus(shape, axis):
    # Long f32 sums: summed in order, these would be off by 2e-6 to 5e-5
    # relative (rows of 4096, 2^20 values); tpuemu's cascade
    # (runtime/cpu/cascade_sum.h) stays within the error XLA:CPU's
    # vectorized sums reach, or 4 ulps of the exact sum.
    x = sample(np.float32, shape, 3, positive=True)
    exact = np.sum(x.astype(np.float64), axis=axis)
    fn = lambda v: jnp.sum(v, axis=axis)
    tpu_sum = run_on(tpu(), fn, (x,), True).astype(np.float64)
    cpu_sum = run_on(cpu(), fn, (x,), True).astype(np.float64)
    tpu_error = np.max(np.abs(tpu_sum - exact) / exact)
    cpu_error = np.max(np.abs(cpu_sum - exact) / exact)
    assert tpu_error <= max(2 * cpu_error, 4 * np.finfo(np.float32).eps), (
        tpu_error, cpu_error)
    conftest.record("sum (long rows)[jit]", np.dtype(np.float32), True)


@pytest.mark.parametrize("dtype", _ids(ALL))
def test_sort_argsort_top_k(dtype):
    # Integer and bool rows hold ties: sort's order and argsort's (stable)
    # indices are fixed all the same, and so are top_k's: the lower index
    # first among equal values, as XLA's TopK specifies.
    ops = {"sort": lambda v: jnp.sort(v, axis=1),
           "argsort": lambda v: jnp.argsort(v, axis=1, stable=True),
           "top_k": lambda v: lax.top_k(v, 3)}
    if dtype in COMPLEX:  # JAX: top_k is not compatible with complex.
        del ops["top_k"]
    check_ops(ops, sample(dtype, (3, 8), 9), dtype=np.dtype(dtype))


def edge_values(dtype):
    """Eight values at a type's edges: the extremes of an integer type; NaN,
    infinities, signed zeros and exact halves of a float type; each pairing
    of those as the parts of a complex type (64 values)."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return np.array([0, 1, 1, 0, 0, 0, 1, 0], np.bool_)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return np.array([info.min, info.min + 1, 0, 1, 2, 7, info.max - 1,
                         info.max], dtype)
    parts = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 0.5, -2.5, 3.0])
    if np.issubdtype(dtype, np.complexfloating):
        z = np.empty((8, 8), np.complex128)  # Not re + 1j * im: 1j * inf
        z.real, z.imag = parts[:, None], parts[None, :]  # has a NaN part.
        return z.ravel().astype(dtype)
    return parts.astype(dtype)


@pytest.mark.parametrize("dtype", _ids(ALL))
def test_edge_values(dtype):
    """Every elementwise op over each pair of edge values (division by
    zero, overflow, NaN and infinities included, where XLA defines the
    result), and the reductions whose result does not depend on the order
    of summation. mean, var and logsumexp are left out: the extremes of an
    integer type cancel in float sums, whose order XLA leaves open."""
    x = edge_values(dtype)
    ops = {name: lambda v, f=fn: f(v) for name, fn in _ops_of(
        UNARY, dtype).items()}
    binary = _ops_of(BINARY, dtype)
    if dtype in COMPLEX:
        # Complex atan2 is -i log((y + ix) / sqrt(x^2 + y^2)): where that
        # quotient is real and negative (x = 0, y = -2i), the sign of its
        # imaginary part, a signed zero or a rounding error, picks +pi or
        # -pi, and XLA:CPU's fused multiply-adds round otherwise than ours.
        del binary["arctan2"]
    ops.update({name: lambda v, f=fn: f(v[:, None], v[None, :])
                for name, fn in binary.items()})
    rows = {"sum": lambda v: jnp.sum(v, axis=1),
            "max": lambda v: jnp.max(v, axis=1),
            "cumsum": lambda v: jnp.cumsum(v, axis=1),
            "sort": lambda v: jnp.sort(v, axis=1),
            "argsort": lambda v: jnp.argsort(v, axis=1, stable=True)}
    if dtype not in COMPLEX:  # JAX rejects complex (see above).
        rows["argmax"] = lambda v: jnp.argmax(v, axis=1)
        rows["top_k"] = lambda v: lax.top_k(v, 3)
    ops.update({name: lambda v, f=fn: f(v.reshape(-1, 8))
                for name, fn in rows.items()})
    # jit only: eager mode runs the same lowerings op by op, and the edge
    # values' shapes would add a compile per op and backend.
    check_ops(ops, x, dtype=np.dtype(dtype), modes=("jit",))


def _scatter(op):
    return lambda v, i, w, s: getattr(v.at[i], op)(w)


@pytest.mark.parametrize("dtype", _ids(ALL))
def test_indexing_and_scatter(dtype):
    x = sample(dtype, (6, 4), 11)
    idx = np.array([0, 2, 2, 5], np.int32)
    u = sample(dtype, (4, 4), 12)
    ops = {"gather_take": lambda v, i, w, s: v[i],
           "gather_slice": lambda v, i, w, s: v[1:5:2, ::-1],
           "dynamic_slice": lambda v, i, w, s: lax.dynamic_slice(
               v, (s, 1), (2, 2)),
           # Start row 5 clamps to 4, the last that fits two rows.
           "dynamic_update_slice": lambda v, i, w, s: lax.dynamic_update_slice(
               v, w[:2], (s + 2, 0))}
    # JAX: add and mul do not accept bool.
    for op in ("set", "min", "max") if dtype == np.bool_ else (
            "set", "add", "mul", "min", "max"):
        ops[f"scatter_{op}"] = _scatter(op)
    check_ops(ops, x, idx, u, np.int64(3), dtype=np.dtype(dtype))


@pytest.mark.parametrize("dtype", _ids(ALL))
def test_shape_ops(dtype):
    ops = {"pad": lambda v: jnp.pad(v, ((1, 0), (0, 2), (1, 1))),
           "concatenate": lambda v: jnp.concatenate([v, v], axis=1),
           "reshape": lambda v: v.reshape(4, 6),
           "transpose": lambda v: jnp.transpose(v, (2, 0, 1)),
           "where": lambda v: jnp.where(v.astype(bool), v, v[::-1])}
    if dtype != np.bool_:  # JAX: iota does not accept bool.
        ops["iota"] = lambda v: lax.broadcasted_iota(v.dtype, (3, 4), 1)
    if dtype not in COMPLEX:  # JAX: clip rejects complex values.
        ops["clip"] = lambda v: jnp.clip(v, 1, 2)
    check_ops(ops, sample(dtype, (2, 3, 4), 13), dtype=np.dtype(dtype))


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


@pytest.mark.parametrize("dtype", _ids(_but(np.float32)))  # float32: above.
def test_conv_dtypes(dtype):
    lhs = sample(dtype, (1, 5, 5, 4), 15)
    rhs = sample(dtype, (3, 3, 2, 4), 16)  # HWIO, 2 groups.
    check("conv_NHWC", lambda x, w: lax.conv_general_dilated(
        x, w, window_strides=(2, 1), padding=((1, 1), (0, 2)),
        rhs_dilation=(1, 2), dimension_numbers=("NHWC", "HWIO", "NHWC"),
        feature_group_count=2), lhs, rhs, dtype=np.dtype(dtype),
          atol=_sum_atol(dtype, 18, 13.0))
