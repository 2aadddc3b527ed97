#!/usr/bin/env python3
"""Trains an MLP classifier with JAX and optax on one emulated TPU chip.

Plain JAX: the program never names pjrtx. Registered through python/'s
jax_plugins package, tpuemu is JAX's default platform, so jax.jit compiles
the training step for the emulated chip (StableHLO portable artifact ->
pjrtx's compiler -> the CPU engine), the parameters and optimizer state
stay on the chip, donated from step to step, and only the printed figures
come back to the host.

The data: points in 16 dimensions labelled by a fixed random teacher
network into 4 classes; the student (2 hidden layers of 256) learns it.

  PYTHONPATH=python "$(scripts/jax-env.sh)/bin/python" \\
      samples/jax_mlp/train_mlp.py [--steps N] [--compare-cpu]

--compare-cpu trains the same model from the same start on JAX's own CPU
backend as well and prints how far the two runs' losses drift apart.
"""

import argparse
import sys
import time

import jax
import jax.numpy as jnp
import numpy as np
import optax

FEATURES, HIDDEN, CLASSES, BATCH = 16, 256, 4, 64


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--log-every", type=int, default=50)
    parser.add_argument("--compare-cpu", action="store_true")
    args = parser.parse_args()
    if args.steps < 1 or args.log_every < 1:
        parser.error("--steps and --log-every must be at least 1")
    return args


def make_data(seed=0, samples=4096):
    """Inputs and the labels a fixed random teacher network gives them."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((samples, FEATURES)).astype(np.float32)
    teacher = rng.standard_normal((FEATURES, CLASSES)).astype(np.float32)
    labels = np.argmax(np.tanh(x @ teacher) + 0.1 * x[:, :CLASSES], axis=1)
    return x, labels.astype(np.int32)


def init_params(key):
    sizes = [FEATURES, HIDDEN, HIDDEN, CLASSES]
    params = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        key, sub = jax.random.split(key)
        w = jax.random.normal(sub, (fan_in, fan_out)) * (2.0 / fan_in) ** 0.5
        params.append((w, jnp.zeros(fan_out)))
    return params


def logits(params, x):
    h = x
    for w, b in params[:-1]:
        h = jax.nn.relu(h @ w + b)
    w, b = params[-1]
    return h @ w + b


def loss_fn(params, x, y):
    return optax.softmax_cross_entropy_with_integer_labels(
        logits(params, x), y).mean()


optimizer = optax.adam(1e-3)


def train_step(params, state, x_all, y_all, index):
    """One step on batch `index` (mod the number of batches) of the data.

    The batch is sliced inside the program: slicing on the host with a
    Python index would compile a program per index.
    """
    start = (index % (x_all.shape[0] // BATCH)) * BATCH
    x = jax.lax.dynamic_slice_in_dim(x_all, start, BATCH)
    y = jax.lax.dynamic_slice_in_dim(y_all, start, BATCH)
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, state = optimizer.update(grads, state, params)
    return optax.apply_updates(params, updates), state, loss


def accuracy(params, x, y):
    return jnp.mean(jnp.argmax(logits(params, x), axis=1) == y)


def train(device, data, steps, log_every, label):
    """Trains on `device`; returns the losses at each logged step."""
    x_all, y_all = data
    step = jax.jit(train_step, donate_argnums=(0, 1))
    evaluate = jax.jit(accuracy)
    with jax.default_device(device):
        params = init_params(jax.random.PRNGKey(42))
        state = optimizer.init(params)
        x_dev = jax.device_put(x_all, device)
        y_dev = jax.device_put(y_all, device)
        losses = {}
        start = time.perf_counter()
        compiled_at = None
        for i in range(steps):
            params, state, loss = step(params, state, x_dev, y_dev,
                                       jnp.int32(i))
            if compiled_at is None:
                loss.block_until_ready()
                compiled_at = time.perf_counter()
            if i == 0 or (i + 1) % log_every == 0 or i + 1 == steps:
                losses[i + 1] = float(loss)
                print(f"[{label}] step {i + 1:4d}  loss {losses[i + 1]:.4f}",
                      flush=True)
        jax.block_until_ready(params)
        elapsed = time.perf_counter() - compiled_at
        acc = float(evaluate(params, x_dev, y_dev))
    per_step = elapsed / max(steps - 1, 1) * 1e3
    print(f"[{label}] {steps} steps, {per_step:.2f} ms/step after the first "
          f"(which compiled in {(compiled_at - start) * 1e3:.0f} ms); "
          f"train accuracy {acc * 100:.1f}%", flush=True)
    return losses, acc


def main():
    args = parse_args()
    try:
        tpu = jax.devices("tpuemu")[0]
    except RuntimeError as e:
        sys.exit(f"train_mlp: no tpuemu device: {e}\n(put the checkout's "
                 "python/ on PYTHONPATH and build: ./scripts/build.sh "
                 "release)")
    print(f"JAX {jax.__version__}, default backend {jax.default_backend()}, "
          f"training on {tpu} ({tpu.device_kind})", flush=True)
    data = make_data()
    losses, acc = train(tpu, data, args.steps, args.log_every, "tpuemu")
    first, last = losses[min(losses)], losses[max(losses)]
    if not last < first:
        sys.exit(f"train_mlp: the loss did not fall ({first} -> {last})")
    if args.compare_cpu:
        cpu_losses, cpu_acc = train(jax.devices("cpu")[0], data, args.steps,
                                    args.log_every, "cpu")
        drift = max(abs(losses[k] - cpu_losses[k]) for k in losses)
        print(f"tpuemu vs cpu: largest loss difference {drift:.2e} over "
              f"{len(losses)} logged steps; accuracy {acc * 100:.1f}% vs "
              f"{cpu_acc * 100:.1f}%")


if __name__ == "__main__":
    main()
