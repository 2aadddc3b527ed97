"""Donation on tpuemu: donate_argnums deletes the input and reuses its memory."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import conftest
from jax_compare import cpu, run_on, tpu


def bytes_in_use():
    return tpu().memory_stats()["bytes_in_use"]


def test_donated_input_is_deleted_and_its_memory_becomes_the_output():
    scale = jax.jit(lambda x, y: (x * 2, jnp.sum(y)), donate_argnums=(0,))
    values = np.arange(512 * 512, dtype=np.float32).reshape(512, 512)
    # Made on the chip (not aliasing `values`), so its memory is the
    # runtime's to reuse.
    on_chip = jax.jit(lambda v: v + 0)
    y = jax.device_put(np.ones(3, np.float32), tpu())
    scale(on_chip(values), y)[0].block_until_ready()  # Compiled.
    x = on_chip(values)
    x.block_until_ready()
    before = bytes_in_use()
    doubled, total = scale(x, y)
    doubled.block_until_ready()
    # Only the f32 scalar is new: the 1 MiB result lives where x was.
    assert bytes_in_use() - before == 4
    assert x.is_deleted()
    assert not y.is_deleted()
    np.testing.assert_array_equal(np.asarray(doubled), values * 2)
    assert float(total) == 3.0
    with pytest.raises(RuntimeError, match="deleted"):
        np.asarray(x)
    conftest.record("donate_argnums", "float32", True)


def test_donating_an_array_that_aliases_host_memory_leaves_it_intact():
    """device_put of a NumPy array may alias it; donation must not write it."""
    values = np.arange(4096, dtype=np.float32)
    original = values.copy()
    x = jax.device_put(values, tpu())
    out = jax.jit(lambda v: v * 3, donate_argnums=(0,))(x)
    np.testing.assert_array_equal(np.asarray(out), original * 3)
    np.testing.assert_array_equal(values, original)
    assert x.is_deleted()


def test_without_donation_the_input_survives_and_memory_grows():
    scale = jax.jit(lambda x: x * 2)
    x = jax.device_put(np.ones((256, 256), np.float32), tpu())
    before = bytes_in_use()
    out = scale(x)
    out.block_until_ready()
    assert not x.is_deleted()
    assert bytes_in_use() - before == 256 * 256 * 4


def test_donated_training_loop_matches_cpu():
    """Parameters donated every step, as optax loops do, on both backends."""

    def loss(w, x):
        return jnp.mean((jnp.tanh(x @ w) - 0.5) ** 2)

    @jax.jit
    def step(w, x):
        return w - 0.1 * jax.grad(loss)(w, x)

    donating = jax.jit(step, donate_argnums=(0,))
    rng = np.random.default_rng(0)
    w0 = rng.standard_normal((32, 32)).astype(np.float32) * 0.1
    x = rng.standard_normal((64, 32)).astype(np.float32)
    results = {}
    for device in (tpu(), cpu()):
        w = jax.device_put(w0, device)
        xs = jax.device_put(x, device)
        for _ in range(20):
            previous = w
            w = donating(w, xs)
            assert previous.is_deleted()
        results[device.platform] = np.asarray(w)
    np.testing.assert_allclose(results["tpuemu"], results["cpu"], rtol=1e-5,
                               atol=1e-6)
    conftest.record("donate_argnums[loop]", "float32", True)


def test_a_donated_buffer_passed_twice_is_rejected_as_on_cpu():
    add = jax.jit(lambda a, b: a + b, donate_argnums=(0,))
    for device in (cpu(), tpu()):
        x = jax.device_put(np.ones(1024, np.float32), device) + 0
        with pytest.raises(jax.errors.JaxRuntimeError, match="donate"):
            add(x, x)
        assert not x.is_deleted()
        # Nothing was lost: the buffer still works, and donates once.
        out = add(x, jnp.ones(1024, jnp.float32, device=device))
        np.testing.assert_array_equal(np.asarray(out),
                                      np.full(1024, 2, np.float32))
        assert x.is_deleted(), device


def test_a_donor_no_output_can_use_is_kept_as_on_cpu():
    """f32 donated into an f64 result: XLA does not donate; neither do we."""
    widen = jax.jit(lambda a, b: a + b, donate_argnums=(0,))
    for device in (cpu(), tpu()):
        x = jax.device_put(np.ones(8, np.float32), device) + 0
        y = jax.device_put(np.ones(8, np.float64), device)
        out = widen(x, y)
        assert out.dtype == np.float64
        assert not x.is_deleted(), device
        np.testing.assert_array_equal(np.asarray(x), np.ones(8, np.float32))


def test_donated_memory_is_not_overwritten_before_it_is_read():
    """Ops that read other elements than they write (transpose, matmul,
    reverse) into the memory of the input they read."""
    values = np.arange(64 * 64, dtype=np.float32).reshape(64, 64) / 64
    on_chip = jax.jit(lambda v: v + 0)
    for name, fn in [("transpose", lambda v: v.T),
                     ("matmul", lambda v: v @ v),
                     ("flip", lambda v: jnp.flip(v, axis=(0, 1)))]:
        donating = jax.jit(fn, donate_argnums=(0,))
        x = on_chip(values)
        out = donating(x)
        assert x.is_deleted(), name
        expected = np.asarray(jax.jit(fn, device=cpu())(values))
        np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-6,
                                   err_msg=name)
        conftest.record(f"donate_argnums[{name}]", "float32", True)


def test_an_elementwise_update_in_place_keeps_later_reads_correct():
    """The donated input becomes the elementwise result in place only when
    nothing reads it afterwards; reads after the update see the old values."""
    values = np.linspace(0.5, 2, 256 * 1024, dtype=np.float32)
    on_chip = jax.jit(lambda v: v + 0)
    cases = [
        ("update_only", lambda v: v * 2 + 1),
        ("update_then_sum", lambda v: (v * 2 + 1, jnp.sum(v))),
        ("sum_then_update", lambda v: (jnp.sum(v), v * 2 + 1)),
        ("update_and_max", lambda v: (jnp.tanh(v) * 3, jnp.max(v * v))),
    ]
    for name, fn in cases:
        x = on_chip(values)
        out = jax.jit(fn, donate_argnums=(0,))(x)
        assert x.is_deleted(), name
        expected = jax.jit(fn, device=cpu())(values)
        # The f32 sums of 256K elements may round differently from XLA's
        # (both cascade, in different orders); the elementwise results are
        # exact.
        jax.tree.map(
            lambda a, e: np.testing.assert_allclose(
                np.asarray(a), np.asarray(e), rtol=1e-6, err_msg=name),
            out, expected)
        conftest.record(f"donate_argnums[{name}]", "float32", True)


def test_several_results_updated_in_place_read_before_they_write():
    """One fused pass with several results, each over a donated operand
    (Adam's parameters and moments): every element of every operand is read
    before that element of any result is written, on the register-resident
    f32 path and on the generic one (tanh), over lengths that split across
    cores and leave a partial last block."""
    on_chip = jax.jit(lambda v: v + 0)
    cases = [
        ("f32 path", lambda p, m, g: (p - 0.1 * (0.9 * m + g), 0.9 * m + g)),
        ("generic path", lambda p, m, g: (p - jnp.tanh(m) * g, m + p * g)),
    ]
    for n in (256 * 1024 + 77, 1000):
        p0 = np.linspace(-1, 1, n, dtype=np.float32)
        m0 = np.linspace(2, 3, n, dtype=np.float32)
        g0 = np.linspace(0.5, -0.5, n, dtype=np.float32)
        for name, fn in cases:
            p, m = on_chip(p0), on_chip(m0)
            g = jax.device_put(g0, tpu())
            out = jax.jit(fn, donate_argnums=(0, 1))(p, m, g)
            assert p.is_deleted() and m.is_deleted(), name
            # The same bits as without donation: nothing read late.
            kept = jax.jit(fn)(on_chip(p0), on_chip(m0), g)
            jax.tree.map(
                lambda a, e: np.testing.assert_array_equal(
                    np.asarray(a), np.asarray(e),
                    err_msg=f"{name}, {n} elements"),
                out, kept)
            # And XLA:CPU's values, up to its own rounding (it contracts
            # multiply-adds: a few 1e-8 apart near zero).
            expected = run_on(cpu(), fn, (p0, m0, g0), True)
            jax.tree.map(
                lambda a, e: np.testing.assert_allclose(
                    np.asarray(a), np.asarray(e), rtol=1e-6, atol=1e-7,
                    err_msg=f"{name}, {n} elements"),
                out, expected)
            conftest.record(f"donate_argnums[{name}, several results]",
                            "float32", True)
