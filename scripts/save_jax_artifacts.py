#!/usr/bin/env python3
"""Saves the StableHLO portable artifacts JAX hands a plugin, as test data.

Run in a JAX environment (scripts/jax-env.sh [PIN_FILE]); writes one file
per program into OUT_DIR (default tests/compiler_stub/bytecode/jax_<version>/
of this checkout), in the format of JAX's own back-compat test data (and of
../shared/conformance/jax-export), so the same reader runs both:

  data = dict(custom_call_targets=[...], nr_devices=1,
              jax_version=..., stablehlo_version=...,
              inputs=(array(...), ...), expected_outputs=(array(...), ...),
              mlir_module_text=r'''...''', mlir_module_serialized=b'...')

The artifact is what a PJRT plugin's compile receives from this JAX: the
jitted program serialized as VHLO for the newest StableHLO this jaxlib
writes (JAX sends min(plugin's version, its own)); expected_outputs are
XLA:CPU's results for the inputs. Usage:

  "$(scripts/jax-env.sh python/requirements-jax-0.12.txt)/bin/python" \\
    scripts/save_jax_artifacts.py [OUT_DIR]
"""

import os
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402
from jax import lax  # noqa: E402
from jaxlib.mlir import ir  # noqa: E402
from jaxlib.mlir.dialects import stablehlo  # noqa: E402

jax.config.update("jax_enable_x64", False)
np.set_printoptions(threshold=sys.maxsize)


def _rng(seed, shape, dtype=np.float32, scale=1.0):
    return (np.random.default_rng(seed).standard_normal(shape) *
            scale).astype(dtype)


def mlp_adam_step():
    """An MLP training step with optax's Adam, the kind JAX 0.12 sends."""
    sizes = [8, 16, 4]
    params = [(_rng(i, (a, b), scale=0.3), np.zeros((b,), np.float32))
              for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:]))]
    optimizer = optax.adam(1e-2)
    state = optimizer.init(params)
    x, y = _rng(10, (5, 8)), _rng(11, (5, 4))

    def loss(p, x, y):
        h = x
        for w, b in p[:-1]:
            h = jax.nn.gelu(h @ w + b, approximate=False)
        w, b = p[-1]
        return jnp.mean((h @ w + b - y) ** 2)

    def step(p, s, x, y):
        value, grads = jax.value_and_grad(loss)(p, x, y)
        updates, s = optimizer.update(grads, s, p)
        return optax.apply_updates(p, updates), s, value

    return step, (params, state, x, y)


def attention():
    q, k, v = (_rng(20 + i, (2, 6, 8)) for i in range(3))

    def f(q, k, v):
        scores = jnp.einsum("bqd,bkd->bqk", q, k) / np.sqrt(8.0)
        return jnp.einsum("bqk,bkd->bqd", jax.nn.softmax(scores), v)

    return f, (q, k, v)


def convnet():
    x, w = _rng(30, (2, 3, 8, 8)), _rng(31, (4, 3, 3, 3), scale=0.3)

    def f(x, w):
        y = lax.conv_general_dilated(x, w, (1, 1), "SAME")
        y = jax.nn.relu(y)
        return lax.reduce_window(y, -jnp.inf, lax.max, (1, 1, 2, 2),
                                 (1, 1, 2, 2), "VALID")

    return f, (x, w)


def gru_scan():
    xs, h0 = _rng(40, (5, 3, 4)), np.zeros((3, 6), np.float32)
    wz, wr, wh = (_rng(41 + i, (10, 6), scale=0.3) for i in range(3))

    def f(xs, h0, wz, wr, wh):
        def cell(h, x):
            hx = jnp.concatenate([h, x], axis=-1)
            z = jax.nn.sigmoid(hx @ wz)
            r = jax.nn.sigmoid(hx @ wr)
            n = jnp.tanh(jnp.concatenate([r * h, x], axis=-1) @ wh)
            h = (1 - z) * h + z * n
            return h, h

        return lax.scan(cell, h0, xs)

    return f, (xs, h0, wz, wr, wh)


def random_normal():
    return (lambda key: jax.random.normal(key, (3, 4)),
            (np.array([0, 42], np.uint32),))


def erf_inv_and_friends():
    x = np.linspace(-0.99, 0.99, 12).astype(np.float32)
    return (lambda x: (jax.scipy.special.erfinv(x), jax.scipy.special.erfc(x),
                       jax.scipy.stats.norm.ppf((x + 1) / 2)), (x,))


def exp2_log2():
    x = np.array([-150, -149, -126, -1.5, -0.0, 0.0, 0.5, 1, 10, 127, 128,
                  np.inf, -np.inf, np.nan], np.float32)
    return (lambda x: (jnp.exp2(x), jnp.log2(jnp.abs(x)), jnp.log2(x)), (x,))


def fma():
    # The single rounding shows: (1 + 2^-23)(1 - 2^-24) - 1 is 2^-24 -
    # 2^-47 fused, 0 in two roundings.
    a = np.array([1 + 2**-23, 3.0, np.inf, 3.4e38, -0.0, 1.5], np.float32)
    b = np.array([1 - 2**-24, 0.1, 0.0, 2.0, 0.0, -2.0], np.float32)
    c = np.array([-1.0, 0.7, 1.0, -3.4e38, 0.0, 3.0], np.float32)
    return (lambda a, b, c: lax.fma(a, b, c)), (a, b, c)


PROGRAMS = {
    "mlp_adam_step": mlp_adam_step,
    "attention": attention,
    "convnet": convnet,
    "gru_scan": gru_scan,
    "random_normal": random_normal,
    "erf_inv_and_friends": erf_inv_and_friends,
    "exp2_log2": exp2_log2,
    "fma": fma,
}


# What VHLO gained from 1.21 to 1.25.3, one function each, in StableHLO's
# own text: saved beside its artifact (vhlo_1_25_3_additions.mlir and
# .mlir.bc) so that a test can check that decoding the artifact gives
# what parsing the text does. The f8E5M3FNU constant is written as its
# bytes (1.0, 2.5 and its largest value, 114688): the compiler has no
# element type to read decimal values of this type into.
VHLO_ADDITIONS = """\
func.func @compare_weakorder(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  %0 = stablehlo.compare LT, %a, %b, WEAKORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
func.func @exp2(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = stablehlo.exp2 %x : tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
func.func @exp2_complex(%x: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0 = stablehlo.exp2 %x : tensor<3xcomplex<f32>>
  return %0 : tensor<3xcomplex<f32>>
}
func.func @log2(%x: tensor<2x2xbf16>) -> tensor<2x2xbf16> {
  %0 = stablehlo.log2 %x : tensor<2x2xbf16>
  return %0 : tensor<2x2xbf16>
}
func.func @fma(%a: tensor<3xf32>, %b: tensor<3xf32>, %c: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.fma %a, %b, %c : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @fma_f64(%a: tensor<f64>, %b: tensor<f64>, %c: tensor<f64>) -> tensor<f64> {
  %0 = stablehlo.fma %a, %b, %c : tensor<f64>
  return %0 : tensor<f64>
}
func.func @type_f8E5M3FNU(%x: tensor<3xf8E5M3FNU>) -> tensor<3xf8E5M3FNU> {
  %0 = stablehlo.constant dense<"0x7882FE"> : tensor<3xf8E5M3FNU>
  %1 = stablehlo.add %x, %0 : tensor<3xf8E5M3FNU>
  return %1 : tensor<3xf8E5M3FNU>
}
"""


def save_vhlo_additions(out_dir):
    from jax._src.interpreters import mlir as jax_mlir  # pylint: disable=g-import-not-at-top
    context = jax_mlir.make_ir_context()
    with context:
        module = ir.Module.parse(VHLO_ADDITIONS)
        version = stablehlo.get_current_version()
        artifact = stablehlo.serialize_portable_artifact(module, version)
    base = os.path.join(out_dir, "vhlo_1_25_3_additions.mlir")
    with open(base, "w", encoding="utf-8") as out:
        out.write(f"// Saved by scripts/save_jax_artifacts.py beside its "
                  f"artifact (jaxlib {jax.lib.__version__}, StableHLO "
                  f"{version}); do not edit.\n" + VHLO_ADDITIONS)
    with open(base + ".bc", "wb") as out:
        out.write(artifact)
    print(f"{base}(.bc): StableHLO {version}, {len(artifact)} bytes")


def portable_artifact(lowered):
    """The VHLO bytecode JAX's PJRT client hands a plugin's compile."""
    module = lowered.compiler_ir("stablehlo")
    text = str(module)
    # Serializing legalizes the module in place: a copy keeps JAX's own.
    copy = ir.Module.parse(text, context=module.context)
    version = stablehlo.get_current_version()
    artifact = stablehlo.serialize_portable_artifact(
        copy, version, allow_other_dialects=True)
    return artifact, version, text


def custom_call_targets(text):
    targets = set()
    for part in text.split("stablehlo.custom_call @")[1:]:
        targets.add(part.split("(")[0])
    return sorted(targets)


def save(name, make, out_dir):
    fn, args = make()
    jitted = jax.jit(fn)
    flat_inputs = jax.tree.leaves(args)
    flat_outputs = jax.tree.leaves(jitted(*args))
    artifact, version, text = portable_artifact(jitted.lower(*args))
    lines = [
        f"# {name}: saved by scripts/save_jax_artifacts.py with JAX "
        f"{jax.__version__} (jaxlib {jax.lib.__version__}); do not edit.",
        "import numpy as np",
        "array, float32, uint32, int32 = np.array, np.float32, np.uint32, "
        "np.int32",
        "inf, nan = np.inf, np.nan",
        "",
        "data = dict(",
        f"    custom_call_targets={custom_call_targets(text)!r},",
        "    nr_devices=1,",
        f"    jax_version={jax.__version__!r},",
        f"    stablehlo_version={version!r},",
        "    inputs=(" + "".join(
            repr(np.asarray(x)) + ", " for x in flat_inputs) + "),",
        "    expected_outputs=(" + "".join(
            repr(np.asarray(y)) + ", " for y in flat_outputs) + "),",
        f"    mlir_module_text=r'''{text}''',",
        f"    mlir_module_serialized={bytes(artifact)!r},",
        ")",
        "",
    ]
    path = os.path.join(out_dir, f"{name}.py")
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(lines))
    print(f"{path}: StableHLO {version}, {len(artifact)} bytes, "
          f"{len(flat_inputs)} inputs, {len(flat_outputs)} outputs")


def main():
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    default = os.path.join(repo, "tests", "compiler_stub", "bytecode",
                           "jax_" + jax.__version__.replace(".", "_"))
    out_dir = sys.argv[1] if len(sys.argv) > 1 else default
    os.makedirs(out_dir, exist_ok=True)
    for name, make in PROGRAMS.items():
        save(name, make, out_dir)
    save_vhlo_additions(out_dir)


if __name__ == "__main__":
    main()
