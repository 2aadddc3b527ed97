"""A 2x256 MLP trained with optax Adam for 200 steps: tpuemu follows cpu."""

import jax
import jax.numpy as jnp
import numpy as np
import optax

import tolerances
from jax_compare import cpu, tpu


def _train(device):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 16)).astype(np.float32)
    y = np.sin(x.sum(axis=1, keepdims=True)).astype(np.float32)
    sizes = [16, 256, 256, 1]
    params = [(rng.normal(size=(a, b)).astype(np.float32) / np.sqrt(a),
               np.zeros(b, np.float32)) for a, b in zip(sizes, sizes[1:])]
    opt = optax.adam(1e-3)
    params, x, y = jax.device_put((params, x, y), device)
    state = opt.init(params)

    def loss_fn(p):
        h = x
        for w, b in p[:-1]:
            h = jax.nn.relu(h @ w + b)
        return jnp.mean((h @ p[-1][0] + p[-1][1] - y) ** 2)

    @jax.jit
    def step(p, s):
        loss, g = jax.value_and_grad(loss_fn)(p)
        updates, s = opt.update(g, s)
        return optax.apply_updates(p, updates), s, loss

    losses = []
    for _ in range(200):
        params, state, loss = step(params, state)
        losses.append(loss)
    return np.asarray(jax.device_get(losses))


def test_mlp_follows_cpu():
    on_cpu, on_tpu = _train(cpu()), _train(tpu())
    assert on_tpu[-1] < on_tpu[0] * 0.5
    np.testing.assert_allclose(on_tpu, on_cpu, rtol=tolerances.MLP_LOSS_RTOL)
