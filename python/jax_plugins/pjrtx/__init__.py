"""pjrtx's entry in JAX's `jax_plugins` namespace package.

JAX imports every module under `jax_plugins` on sys.path (so putting the
checkout's python/ folder on PYTHONPATH is enough) and every module named by
a `jax_plugins` entry point (python/pyproject.toml names this one), then
calls its initialize(). There is deliberately no jax_plugins/__init__.py: the
namespace is shared with other plugin packages.
"""

from pjrtx_jax import initialize

__all__ = ["initialize"]
