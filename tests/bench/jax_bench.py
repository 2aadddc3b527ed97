#!/usr/bin/env python3
"""JAX on one tpuemu chip against JAX's own CPU backend (XLA:CPU).

Three workloads, each run on both backends in one process, alternating
which goes first, trial after trial (DESIGN section 8):

  jax.mlp_step     a training step (forward, backward, optax Adam update,
                   parameters donated) of a 4-layer, 512-wide f32 MLP at
                   batch 256, awaited
  jax.dispatch     a one-element jitted add, dispatched and awaited
  jax.eager_add    an eager jnp.add of 1,000 float32, awaited

Both backends get the same CPU cores: --threads N restricts the process to N
cores before JAX starts (XLA:CPU's thread pool and pjrtx's workers and
oneDNN's OpenMP threads all size themselves from the cores the process may
use); by default every core of the machine.

Prints one line per workload:
  RESULT <name> ratio=<median> min=<min> max=<max> tpuemu_us=... xla_cpu_us=...
where ratio is XLA:CPU's time over tpuemu's (above 1: tpuemu is faster),
then whether the bars hold: the MLP step at least 0.7x XLA:CPU's speed, the
dispatch at most 2x XLA:CPU's time (ratio >= 0.5). --check-bars makes a
missed bar the exit status.

Run with the checkout's plugins on the path, e.g.
  PYTHONPATH=python PJRTX_PLUGIN_DIR=build/release/plugins \\
    "$(scripts/jax-env.sh)/bin/python" tests/bench/jax_bench.py
"""

import argparse
import os
import statistics
import sys
import time

BARS = {"jax.mlp_step": 0.7, "jax.dispatch": 0.5}


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="few iterations: a smoke run, figures rough")
    parser.add_argument("--threads", type=int, default=0,
                        help="cores for both backends (default: all)")
    parser.add_argument("--trials", type=int, default=0,
                        help="alternating trials (default 7, quick 5)")
    parser.add_argument("--check-bars", action="store_true",
                        help="exit 1 when a bar is missed")
    return parser.parse_args()


def restrict_cores(threads):
    """Both backends size their pools from the cores the process may use."""
    available = sorted(os.sched_getaffinity(0))
    if threads <= 0:
        return len(available)
    if threads > len(available):
        sys.exit(f"jax_bench: --threads={threads}, but this process may use "
                 f"only {len(available)} core(s)")
    os.sched_setaffinity(0, available[:threads])
    return threads


def mlp_workload(jax, jnp, optax, device):
    """Returns a callable that runs one awaited training step on `device`."""
    sizes = [512] * 5  # Four 512x512 layers.
    batch = 256
    key = jax.random.PRNGKey(0)
    params = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        key, sub = jax.random.split(key)
        params.append((jax.random.normal(sub, (fan_in, fan_out), jnp.float32)
                       * (2.0 / fan_in) ** 0.5,
                       jnp.zeros((fan_out,), jnp.float32)))
    key, kx, ky = jax.random.split(key, 3)
    x = jax.random.normal(kx, (batch, sizes[0]), jnp.float32)
    y = jax.random.normal(ky, (batch, sizes[-1]), jnp.float32)
    optimizer = optax.adam(1e-3)

    def loss(p, x, y):
        h = x
        for w, b in p[:-1]:
            h = jax.nn.relu(h @ w + b)
        w, b = p[-1]
        return jnp.mean((h @ w + b - y) ** 2)

    def step(p, state, x, y):
        grads = jax.grad(loss)(p, x, y)
        updates, state = optimizer.update(grads, state, p)
        return optax.apply_updates(p, updates), state

    step = jax.jit(step, donate_argnums=(0, 1))
    box = {}
    box["p"] = jax.device_put(params, device)
    box["s"] = jax.device_put(optimizer.init(params), device)
    x, y = jax.device_put((x, y), device)

    def run():
        box["p"], box["s"] = step(box["p"], box["s"], x, y)
        jax.block_until_ready(box["p"])

    return run


def dispatch_workload(jax, jnp, device):
    add = jax.jit(lambda v: v + 1)
    one = jax.device_put(jnp.float32(1), device)
    return lambda: add(one).block_until_ready()


def eager_add_workload(jax, jnp, device):
    a = jax.device_put(jnp.arange(1000, dtype=jnp.float32), device)
    b = jax.device_put(jnp.ones(1000, jnp.float32), device)
    return lambda: jnp.add(a, b).block_until_ready()


def time_calls(run, iterations):
    start = time.perf_counter()
    for _ in range(iterations):
        run()
    return (time.perf_counter() - start) / iterations


def compare(name, subject, anchor, iterations, trials):
    """Median over alternating trials of anchor time / subject time."""
    subject()  # Compiles, and warms caches and pools.
    anchor()
    ratios, subject_times, anchor_times = [], [], []
    for trial in range(trials):
        if trial % 2 == 0:
            s = time_calls(subject, iterations)
            a = time_calls(anchor, iterations)
        else:
            a = time_calls(anchor, iterations)
            s = time_calls(subject, iterations)
        subject_times.append(s)
        anchor_times.append(a)
        ratios.append(a / s)
    ratio = statistics.median(ratios)
    print(f"RESULT {name} ratio={ratio:.3f} min={min(ratios):.3f} "
          f"max={max(ratios):.3f} "
          f"tpuemu_us={statistics.median(subject_times) * 1e6:.1f} "
          f"xla_cpu_us={statistics.median(anchor_times) * 1e6:.1f} "
          f"iterations={iterations} trials={trials}", flush=True)
    return ratio


def main():
    args = parse_args()
    threads = restrict_cores(args.threads)
    # pylint: disable=g-import-not-at-top
    import jax
    import jax.numpy as jnp
    import optax

    try:
        tpu = jax.devices("tpuemu")[0]
    except RuntimeError as e:
        sys.exit(f"jax_bench: no tpuemu device ({e}); put the checkout's "
                 "python/ on PYTHONPATH and build the plugin")
    cpu = jax.devices("cpu")[0]
    trials = args.trials or (5 if args.quick else 7)
    print(f"jax_bench: jax {jax.__version__}, {threads} core(s) for both "
          f"backends, tpuemu {tpu.device_kind} chip vs XLA:CPU, {trials} "
          "alternating trials", flush=True)
    workloads = [
        ("jax.mlp_step", 2 if args.quick else 10,
         lambda d: mlp_workload(jax, jnp, optax, d)),
        ("jax.dispatch", 200 if args.quick else 5000,
         lambda d: dispatch_workload(jax, jnp, d)),
        ("jax.eager_add", 200 if args.quick else 5000,
         lambda d: eager_add_workload(jax, jnp, d)),
    ]
    missed = []
    for name, iterations, make in workloads:
        ratio = compare(name, make(tpu), make(cpu), iterations, trials)
        bar = BARS.get(name)
        if bar is not None:
            held = ratio >= bar
            print(f"BAR {name} ratio={ratio:.3f} needs>={bar} "
                  f"{'held' if held else 'MISSED'}", flush=True)
            if not held:
                missed.append(name)
    if missed and args.check_bars:
        sys.exit(f"jax_bench: bars missed: {', '.join(missed)}")


if __name__ == "__main__":
    main()
