"""jax.random on tpuemu against JAX's cpu backend: bits bit-exact.

threefry keys compute their bits with integer ops; rbg and unsafe_rbg keys
draw them from stablehlo.rng_bit_generator (its DEFAULT algorithm, which
XLA:CPU runs as PHILOX), whose bits must be XLA:CPU's too.
"""

import functools

import jax
import numpy as np
import pytest

from jax_compare import check


def _draws(key_data, impl=None):
    key = jax.random.wrap_key_data(key_data, impl=impl)
    k = jax.random.split(key, 6)
    return {
        "bits": jax.random.bits(k[0], (16,), np.uint32),
        "uniform": jax.random.uniform(k[1], (16,)),
        "normal": jax.random.normal(k[2], (16,)),
        "bernoulli": jax.random.bernoulli(k[3], 0.3, (16,)),
        "categorical": jax.random.categorical(k[4], np.log(
            np.array([0.1, 0.2, 0.7], np.float32)), shape=(16,)),
        "permutation": jax.random.permutation(k[5], 10),
    }


def _widths(key_data, impl):
    """Bits of every width rng_bit_generator makes, odd shapes included."""
    key = jax.random.wrap_key_data(key_data, impl=impl)
    k = jax.random.split(key, 5)
    return {
        "u8": jax.random.bits(k[0], (3, 5), np.uint8),
        "u16": jax.random.bits(k[1], (7,), np.uint16),
        "u32": jax.random.bits(k[2], (2, 3, 5), np.uint32),
        "u64": jax.random.bits(k[3], (5,), np.uint64),
        "randint": jax.random.randint(k[4], (4, 3), -100, 100),
        "folded": jax.random.bits(jax.random.fold_in(key, 7), (9,)),
    }


@pytest.mark.parametrize("partitionable", [False, True])
def test_threefry(partitionable):
    with jax.threefry_partitionable(partitionable):
        data = np.asarray(jax.random.key_data(jax.random.key(0)))
        check(f"threefry_p{int(partitionable)}", _draws, data,
              dtype="mixed")


@pytest.mark.parametrize("impl", ["rbg", "unsafe_rbg"])
def test_rbg(impl):
    data = np.asarray(jax.random.key_data(jax.random.key(0, impl=impl)))
    check(impl, functools.partial(_draws, impl=impl), data, dtype="mixed")
    check(f"{impl}_widths", functools.partial(_widths, impl=impl), data,
          dtype="mixed")


@pytest.mark.parametrize("impl", ["rbg", "unsafe_rbg"])
def test_rbg_default_prng_impl(impl):
    """jax_default_prng_impl: jax.random.key(seed) itself is an rbg key."""
    def draw(seed):
        key = jax.random.key(seed)
        return jax.random.uniform(key, (8, 3)), jax.random.normal(key, (5,))

    previous = jax.config.jax_default_prng_impl
    jax.config.update("jax_default_prng_impl", impl)
    try:
        check(f"{impl}_default", draw, np.uint32(42), dtype="mixed")
    finally:
        jax.config.update("jax_default_prng_impl", previous)
