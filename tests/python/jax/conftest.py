"""Set-up shared by the JAX tests: one process, tpuemu at v5e:2x4, x64 on.

JAX reads plugin options and discovers plugins once per process, so the
environment is fixed here, before the first test imports JAX. Tests that
need another environment (other options, no package) start a child
interpreter.
"""

import os

os.environ.setdefault("PJRTX_TPUEMU_OPTIONS", "topology=v5e:2x4")

import jax  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position

jax.config.update("jax_enable_x64", True)

import collections  # noqa: E402

# (op, dtype) -> [passed, run]; filled by tests through record().
OP_COUNTS = collections.defaultdict(lambda: [0, 0])


def record(op, dtype, passed):
    """Counts one comparison of `op` over `dtype` for the final summary."""
    entry = OP_COUNTS[(op, str(dtype))]
    entry[1] += 1
    entry[0] += int(bool(passed))


def pytest_terminal_summary(terminalreporter):
    """Prints per-op, per-dtype pass counts of the tpuemu-vs-cpu checks."""
    if not OP_COUNTS:
        return
    terminalreporter.section("tpuemu vs cpu: passed/run per op and dtype")
    by_op = collections.defaultdict(list)
    for (op, dtype), (ok, run) in sorted(OP_COUNTS.items()):
        by_op[op].append(f"{dtype} {ok}/{run}")
    for op, cells in sorted(by_op.items()):
        terminalreporter.write_line(f"{op:28s} " + ", ".join(cells))
