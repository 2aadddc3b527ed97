"""jax.random on tpuemu against JAX's cpu backend: bits bit-exact."""

import jax
import numpy as np
import pytest

from jax_compare import check


def _draws(key_data):
    key = jax.random.wrap_key_data(key_data)
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


@pytest.mark.parametrize("partitionable", [False, True])
def test_threefry(partitionable):
    with jax.threefry_partitionable(partitionable):
        data = np.asarray(jax.random.key_data(jax.random.key(0)))
        check(f"threefry_p{int(partitionable)}", _draws, data,
              dtype="mixed")
