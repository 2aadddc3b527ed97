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
