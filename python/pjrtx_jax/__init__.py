"""Registers pjrtx's device plugins with JAX through the PJRT C API.

JAX imports the module jax_plugins.pjrtx (found as a `jax_plugins`
namespace package on sys.path, or through this package's `jax_plugins`
entry point when installed) and calls initialize(), which registers:

  tpuemu      libpjrt_tpuemu.so, emulated TPU chips on the CPU; options from
              PJRTX_TPUEMU_OPTIONS, e.g. "topology=v5e:2x4,num_slices=1"
  pjrtx_cuda  libpjrt_cuda.so, NVIDIA GPUs; options from PJRTX_CUDA_OPTIONS
              (without a usable GPU, asking for it raises the plugin's
              reason; the other platforms keep working)

Select one with JAX_PLATFORMS=tpuemu or jax.devices("tpuemu").

The libraries are those of one build: $PJRTX_PLUGIN_DIR/<plugin>/<library>
when PJRTX_PLUGIN_DIR names a build's plugins folder (build/asan/plugins),
else build/release/plugins/<plugin>/<library> of the checkout holding this
package. A missing library is skipped with a warning naming its path;
nothing here makes importing JAX fail.
"""

import dataclasses
import functools
import logging
import os
import pathlib

from pjrtx_jax import options as _options

# Above the cpu backend's 0 (jax._src.xla_bridge), as accelerator plugins
# register (register_plugin's default is 400): where our platforms start,
# JAX runs there by default. JAX_PLATFORMS=cpu opts out.
PRIORITY = 400

# Where this package's checkout keeps its release build:
# <repo>/python/pjrtx_jax/__init__.py -> <repo>.
_REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
_DEFAULT_PLUGIN_DIR = _REPO_ROOT / "build" / "release" / "plugins"

logger = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class Plugin:
    """One of our plugins as JAX sees it."""

    platform: str  # The JAX platform name; never one JAX special-cases.
    build_dir: str  # Its folder under a build's plugins/ folder.
    library: str  # Its file name there.
    options_variable: str  # The environment variable holding its options.
    option_types: dict  # Its option schema: name -> Python type.


PLUGINS = (
    Plugin("tpuemu", "tpu_emu", "libpjrt_tpuemu.so", "PJRTX_TPUEMU_OPTIONS",
           _options.TPUEMU_OPTION_TYPES),
    Plugin("pjrtx_cuda", "cuda", "libpjrt_cuda.so", "PJRTX_CUDA_OPTIONS",
           _options.CUDA_OPTION_TYPES),
)

# platform -> the library file registered for it, filled by initialize().
_registered = {}
_initialized = False


def _plugin(platform):
    for plugin in PLUGINS:
        if plugin.platform == platform:
            return plugin
    raise KeyError(f"no pjrtx plugin named {platform!r}; expected one of "
                   f"{[p.platform for p in PLUGINS]}")


def library_path(platform):
    """Returns the library file this build's `platform` is loaded from.

    The file may not exist; initialize() skips the platform then.
    """
    plugin = _plugin(platform)
    plugin_dir = os.environ.get("PJRTX_PLUGIN_DIR")
    base = pathlib.Path(plugin_dir) if plugin_dir else _DEFAULT_PLUGIN_DIR
    return base / plugin.build_dir / plugin.library


def plugin_options(platform):
    """Returns `platform`'s client create options from its variable.

    Raises:
      ValueError: the variable holds a malformed entry (named).
    """
    plugin = _plugin(platform)
    return _options.parse_options(
        os.environ.get(plugin.options_variable, ""), plugin.option_types,
        source=plugin.options_variable)


def _enable_donation(platform):
    """Lets `donate_argnums` reach the plugin.

    JAX writes the donation declarations (tf.aliasing_output,
    jax.buffer_donor) into a program only for the platforms in a private
    list, and otherwise warns that donation is not implemented and copies.
    There is no public way for a plugin to join it (plugins for other
    hardware append themselves the same way); without the list the plugin
    still works, without donation.
    """
    try:
        # pylint: disable=g-import-not-at-top
        from jax._src.interpreters import mlir
        platforms = mlir._platforms_with_donation  # pylint: disable=protected-access
    except (ImportError, AttributeError) as e:
        logger.warning("pjrtx: donation stays off for %s: this JAX has no "
                       "platforms_with_donation list (%s)", platform, e)
        return
    if platform not in platforms:
        platforms.append(platform)


def registered_libraries():
    """Returns {platform: library path} for what initialize() registered."""
    return dict(_registered)


def initialize():
    """Registers every plugin whose library exists. Called by JAX, once.

    Never raises: a plugin that cannot be registered is skipped with a
    warning saying why. Options are read when JAX creates the client, so a
    malformed entry surfaces there as an error naming it.
    """
    global _initialized
    if _initialized:
        return
    _initialized = True
    # pylint: disable=g-import-not-at-top
    from jax._src import xla_bridge
    from jax._src.lib import xla_client

    for plugin in PLUGINS:
        path = library_path(plugin.platform)
        if not path.is_file():
            logger.warning("pjrtx: not registering %s: %s does not exist "
                           "(build it, or set PJRTX_PLUGIN_DIR to a build's "
                           "plugins folder)", plugin.platform, path)
            continue
        options = lambda p=plugin.platform: plugin_options(p)
        try:
            c_api = xla_bridge.register_plugin(
                plugin.platform, priority=PRIORITY, library_path=str(path),
                options=options)
            # register_plugin makes a client that fails to start fail all of
            # JAX (its fail_quietly=False). Registered again quietly, a
            # failure (the CUDA plugin on a machine without a GPU, a bad
            # option) is kept as that platform's error: asking for the
            # platform raises it, naming the reason, and every other
            # platform goes on working. Asked for through JAX_PLATFORMS, it
            # still fails loudly.
            xla_bridge.register_backend_factory(
                plugin.platform,
                functools.partial(xla_bridge.make_pjrt_c_api_client,
                                  plugin.platform, options=options),
                priority=PRIORITY, fail_quietly=True, experimental=True,
                make_topology=functools.partial(
                    xla_client.make_c_api_device_topology, c_api),
                c_api=c_api)
        except Exception as e:  # pylint: disable=broad-except
            logger.warning("pjrtx: not registering %s from %s: %s",
                           plugin.platform, path, e)
            continue
        _registered[plugin.platform] = str(path)
        _enable_donation(plugin.platform)
