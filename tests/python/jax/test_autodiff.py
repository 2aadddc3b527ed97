"""jax.nn and autodiff on tpuemu against JAX's cpu backend."""

import jax
import jax.numpy as jnp
import numpy as np

from jax_compare import check

X = np.linspace(-3, 3, 24).astype(np.float32).reshape(4, 6)


def test_nn():
    check("relu", jax.nn.relu, X)
    check("gelu", jax.nn.gelu, X)
    check("gelu_exact", lambda v: jax.nn.gelu(v, approximate=False), X)
    check("softmax", jax.nn.softmax, X)
    check("log_softmax", jax.nn.log_softmax, X)
    check("one_hot", lambda i: jax.nn.one_hot(i, 5),
          np.array([0, 3, 4, 1], np.int32), dtype="int32->float")


def loss(w, x):
    return jnp.sum(jnp.tanh(x @ w) ** 2)


W = np.linspace(-1, 1, 18).astype(np.float32).reshape(6, 3)


def test_grad_vjp_jvp():
    check("grad", jax.grad(loss), W, X)
    check("vjp", lambda w, x: jax.vjp(lambda v: jnp.sin(x @ v), w)[1](
        jnp.ones((4, 3), jnp.float32)), W, X)
    check("jvp", lambda w, x: jax.jvp(lambda v: loss(v, x), (w,),
                                      (jnp.ones_like(w),)), W, X)
    check("checkpoint", jax.grad(jax.checkpoint(loss)), W, X)


@jax.custom_jvp
def softplus(x):
    return jnp.log1p(jnp.exp(x))


softplus.defjvp(lambda p, t: (softplus(p[0]), t[0] * jax.nn.sigmoid(p[0])))


def test_custom_jvp():
    check("custom_jvp", jax.grad(lambda v: jnp.sum(softplus(v))), X)
