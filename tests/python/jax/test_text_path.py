"""The JAX suite's programs through pjrtx's text path, against the artifact.

JAX hands tpuemu each program as a StableHLO portable artifact (bytecode).
Here the same lowering is also printed, `Lowered.as_text()`: the pretty
form, with Shardy's meshes and shardings, defaulted fields left out (a
gather's `index_vector_dim = 0`), private functions called with `call`, a
`stablehlo.composite`, and with debug_info `loc(...)` on every op and
`#loc` aliases. That text is compiled and run through pjrtx's own ABI by
`pjrtx run-mlir` (text_path.py). Both run on the same engine, so the
results agree bit for bit, but for the chlo ops the artifact carries
decomposed (CHLO_DECOMPOSED_IN_ARTIFACT).
"""

import functools
import re

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest
from jax import lax

import text_path
import tolerances


def _tpu():
    return jax.devices("tpuemu")[0]


def _sample(shape, dtype=np.float32, seed=0, lo=-2.0, hi=2.0):
    rng = np.random.default_rng(seed)
    if np.issubdtype(np.dtype(dtype), np.integer):
        return rng.integers(int(lo), int(hi), size=shape).astype(dtype)
    return rng.uniform(lo, hi, size=shape).astype(dtype)


X34 = _sample((3, 4))
Y34 = _sample((3, 4), seed=1)
IDX = np.array([2, 0, 2], np.int32)
KEY = np.asarray(jax.random.key_data(jax.random.key(42, impl="threefry2x32")))


def _elementwise(x, y, b):
    z = jnp.tanh(x) * y + jnp.exp(-jnp.abs(x)) - jnp.sqrt(jnp.abs(y))
    z = jnp.where(x > y, z, lax.clamp(
        np.float32(-1), x / (1 + y * y), np.float32(1)))
    n = (x * 10).astype(jnp.int32)
    bits = lax.bitcast_convert_type(x, jnp.uint32) >> 3
    return z, n % 3, jnp.left_shift(n, 2) ^ n, bits, b * b + b, jnp.isnan(
        jnp.log(x)), lax.reduce_precision(x, exponent_bits=5, mantissa_bits=7)


def _complex(c, x):
    # jnp.square prints as chlo.square, which the artifact carries as its
    # decomposition (exact on both paths; |re| = |im| and inf parts below).
    return (jnp.square(c), jnp.square(x), c * jnp.conj(c), jnp.abs(c),
            jnp.exp(c))


def _matmul(x, w, a, b):
    return (x @ w, jnp.einsum("bij,bjk->bik", a, b),
            lax.dot_general(x, w, (((1,), (0,)), ((), ())),
                            precision=lax.Precision.HIGHEST,
                            preferred_element_type=jnp.float64))


def _conv(img, kernel):
    dn = ("NHWC", "HWIO", "NHWC")
    same = lax.conv_general_dilated(img, kernel, (1, 1), "SAME",
                                    dimension_numbers=dn)
    strided = lax.conv_general_dilated(img, kernel, (2, 1), ((1, 0), (2, 1)),
                                       rhs_dilation=(1, 2),
                                       dimension_numbers=dn)
    grouped = lax.conv_general_dilated(
        jnp.transpose(img, (0, 3, 1, 2)), jnp.ones((4, 1, 2, 2), img.dtype),
        (1, 1), ((0, 0), (1, 0)), lhs_dilation=(2, 1), feature_group_count=2)
    return same, strided, grouped


def _reductions(x):
    return (x.sum(axis=0), x.max(axis=1), jnp.mean(x), jnp.argmax(x, axis=1),
            jnp.argmin(x, axis=0), jnp.cumsum(x, axis=1),
            jnp.prod(x, axis=1), jnp.any(x > 1.5),
            lax.reduce_window(x, -jnp.inf, lax.max, (2, 2), (1, 2), "SAME"))


def _sorts(x, k):
    values, indices = lax.top_k(x, 2)
    return (jnp.sort(x, axis=1), jnp.argsort(x, axis=0), values, indices,
            lax.sort((k, x[0]), num_keys=1, is_stable=True))


def _gather_scatter(x, i, s):
    # x[i] and x.at[i] print index_vector_dim = 1. Indices holding one index
    # vector (x.at[s] with a traced scalar s, a point gather) have
    # index_vector_dim = 0, which the printer leaves out.
    point = lax.gather(x, jnp.stack([s, s + 1]), lax.GatherDimensionNumbers(
        offset_dims=(), collapsed_slice_dims=(0, 1), start_index_map=(0, 1)),
                       slice_sizes=(1, 1))
    return (x[i], x.at[i].add(1.0), x.at[i].set(-x[0]), x.at[s].mul(3.0),
            x.at[:, s].get(), x.at[s, 1].max(9.0), point,
            jnp.take_along_axis(x, jnp.argsort(x, axis=1), axis=1),
            x.at[i, i[::-1]].min(0.0))


def _dynamic_slices(x, i, j):
    block = lax.dynamic_slice(x, (i, j), (2, 2))
    return (block, lax.dynamic_update_slice(x, block * 10, (j, i)),
            lax.dynamic_index_in_dim(x, i, axis=1))


def _shapes(x):
    return (jnp.pad(x, ((1, 2), (0, 1)), constant_values=7.0),
            lax.pad(x, np.float32(0), ((1, -1, 1), (0, 0, 2))),
            jnp.concatenate([x, x * 2], axis=0), x.T,
            jnp.arange(12, dtype=jnp.int64).reshape(3, 4) + x.astype(int),
            x[::2, 1::2], jnp.flip(x, axis=1), jnp.broadcast_to(x[0], (2, 4)),
            jnp.reshape(x, (2, 6)))


def _control_flow(x, n, p):
    w = lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] * 1.5),
                       (0, x))
    f = lax.fori_loop(0, 4, lambda i, c: c + i * c, x)
    s = lax.scan(lambda c, r: (c + r, c * r), jnp.zeros(4, x.dtype), x)
    c = lax.cond(p, jnp.sin, jnp.cos, x)
    sw = lax.switch(n % 3, [jnp.sin, jnp.cos, lambda u: u * 2], x)
    return w, f, s, c, sw


def _random(key):
    k = jax.random.split(key, 6)
    return (jax.random.bits(k[0], (8,), np.uint32),
            jax.random.uniform(k[1], (8,)),
            jax.random.bernoulli(k[2], 0.3, (8,)),
            jax.random.permutation(k[3], 6),
            jax.random.categorical(k[4], jnp.log(jnp.array([0.2, 0.8])),
                                   shape=(8,)),
            jax.random.fold_in(key, 7), jax.random.randint(k[5], (4,), 0, 9))


def _random_normal(key):
    return (jax.random.normal(key, (64,), jnp.float32),
            jax.random.normal(key, (64,), jnp.float64))


def _mlp_step(params, x, y):
    def loss(p):
        h = jax.nn.relu(x @ p["w1"] + p["b1"])
        logits = h @ p["w2"] + p["b2"]
        return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * y, axis=-1))

    value, grads = jax.value_and_grad(loss)(params)
    return value, jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


@jax.custom_jvp
def _softclip(x):
    return jnp.log1p(jnp.exp(x)) - jnp.log1p(jnp.exp(x - 3.0))


@_softclip.defjvp
def _softclip_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return _softclip(x), t * (jax.nn.sigmoid(x) - jax.nn.sigmoid(x - 3.0))


def _custom_jvp(x):
    return (jax.grad(lambda v: _softclip(v).sum())(x),
            jax.jvp(jax.nn.relu, (x,), (x,)),
            jax.grad(lambda v: jax.nn.softplus(v).sum())(x))


def _checkpoint(x, w):
    @jax.checkpoint
    def layer(v):
        return jnp.sin(v @ w) * v

    return jax.value_and_grad(lambda v: layer(layer(v)).sum())(x)


def _composite(x):
    @functools.partial(lax.composite, name="pjrtx.test.scaled_tanh")
    def scaled_tanh(v, scale):
        return jnp.tanh(v) * scale

    # scale becomes one of the composite's attributes.
    return scaled_tanh(x, scale=np.float32(2.0))


PROGRAMS = {
    "elementwise": (_elementwise, (X34, Y34, X34.astype(ml_dtypes.bfloat16))),
    "complex": (_complex, (np.array(
        [1 - 1j, -2 + 2j, -3 - 3j, 0.5 + 2j, np.inf + 1j, 1 + np.nan * 1j],
        np.complex64), X34)),
    "matmul": (_matmul, (X34, Y34.T.copy(), _sample((2, 3, 4)),
                         _sample((2, 4, 5), seed=2))),
    "conv": (_conv, (_sample((1, 6, 5, 2)), _sample((3, 3, 2, 4), seed=3))),
    "reductions": (_reductions, (X34,)),
    "sorts": (_sorts, (X34, np.array([3, 1, 3, 0], np.int32))),
    "gather_scatter": (_gather_scatter, (X34, IDX, np.int32(1))),
    "dynamic_slices": (_dynamic_slices, (X34, np.int32(1), np.int32(2))),
    "shapes": (_shapes, (X34,)),
    "control_flow": (_control_flow, (X34, np.int32(5), np.bool_(True))),
    "random": (_random, (KEY,)),
    "random_normal": (_random_normal, (KEY,)),
    "mlp_step": (_mlp_step, ({"w1": _sample((4, 8)), "b1": _sample((8,)),
                              "w2": _sample((8, 3), seed=4),
                              "b2": _sample((3,), seed=5)}, X34,
                             jax.nn.one_hot(np.array([0, 2, 1]), 3))),
    "custom_jvp": (_custom_jvp, (X34,)),
    "checkpoint": (_checkpoint, (X34, _sample((4, 4), seed=6))),
    "composite": (_composite, (X34,)),
}


# Programs whose printed text differs from their artifact: JAX serializes
# artifacts with chlo ops legalized into StableHLO, but prints them as they
# are. jax.random.normal's chlo.erf_inv is XLA's polynomial in the artifact
# (as XLA:CPU computes it: thousands of ulp off in f64 near +-1) and pjrtx's
# own erf_inv, computed in f64 (within a few ulp), on the text path; so is
# chlo.erf (jax.nn.gelu(approximate=False)). Their results agree within the
# floating tolerances (tolerances.py), not bit for bit.
CHLO_DECOMPOSED_IN_ARTIFACT = {"random_normal"}


def _bits_equal(actual, expected):
    return (actual.dtype == expected.dtype and
            actual.shape == expected.shape and
            actual.tobytes() == expected.tobytes())


def _lower(name):
    """Lowers PROGRAMS[name] for arguments placed on a tpuemu device.

    jax_compare's checks place them so too; the text then holds Shardy's
    sdy.mesh and #sdy.sharding annotations.
    """
    fn, args = PROGRAMS[name]
    device_args = jax.device_put(args, _tpu())
    # keep_unused keeps the arguments the inputs line up with.
    return jax.jit(fn, keep_unused=True).lower(*device_args), device_args


needs_cli = pytest.mark.skipif(
    not text_path.cli_path().exists(),
    reason=f"no pjrtx command at {text_path.cli_path()}")


@needs_cli
@pytest.mark.parametrize("debug_info", [False, True],
                         ids=["plain", "debug_info"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_text_path_matches_artifact(name, debug_info):
    # One lowering for both paths: the artifact JAX compiles and the text
    # printed from it. debug_info adds loc(...) to every op and #loc aliases
    # (with callsite and fused locations) around the module.
    lowered, device_args = _lower(name)
    leaves = [np.asarray(a) for a in jax.tree.leaves(PROGRAMS[name][1])]
    text = lowered.as_text(debug_info=debug_info)
    expected = [np.asarray(v)
                for v in jax.tree.leaves(lowered.compile()(*device_args))]
    actual = text_path.run_text(text, leaves, [e.dtype for e in expected])
    assert len(actual) == len(expected)
    for n, (a, e) in enumerate(zip(actual, expected)):
        if name in CHLO_DECOMPOSED_IN_ARTIFACT:
            tolerances.assert_close(a, e)
            continue
        assert _bits_equal(a, e), (
            f"{name}: result {n} differs: text path {a.dtype}{a.shape} "
            f"{a!r}, artifact {e.dtype}{e.shape} {e!r}")


def test_text_path_programs_print_defaulted_fields():
    """The printed forms test_text_path_matches_artifact relies on."""
    text = _lower("gather_scatter")[0].as_text()
    structs = re.findall(r"#stablehlo\.(gather|scatter)<([^>]*)>", text)
    assert any(kind == "gather" and "index_vector_dim" not in fields
               for kind, fields in structs), text
    assert any(kind == "scatter" and "index_vector_dim" not in fields
               for kind, fields in structs), text
    assert "sdy.mesh @" in text, text


@needs_cli
def test_text_path_of_unplaced_arguments():
    """Lowered from NumPy arguments: no Shardy annotations in the text."""
    fn, args = PROGRAMS["gather_scatter"]
    with jax.default_device(_tpu()):
        lowered = jax.jit(fn).lower(*args)
        expected = [np.asarray(v) for v in jax.tree.leaves(
            lowered.compile()(*args))]
    text = lowered.as_text()
    assert "sdy." not in text, text
    actual = text_path.run_text(text, args, [e.dtype for e in expected])
    for a, e in zip(actual, expected):
        assert _bits_equal(a, e)
