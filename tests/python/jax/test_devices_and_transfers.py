"""JAX from PyPI on the TPU emulator through the PJRT C API: devices,
memories and data movement, checked bit for bit.

Runs with tpuemu at topology v5e:2x4 (8 chips) and jax_enable_x64 on
(conftest.py). Every array goes to the device and back unchanged, for every
element type the plugin holds, for scalars, empty arrays, arrays of several
MiB and non-contiguous numpy views.
"""

import os
import pathlib
import subprocess
import sys
import textwrap

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest

import pjrtx_jax

PYTHON_DIR = pathlib.Path(pjrtx_jax.__file__).resolve().parents[1]

DTYPES = [
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
    np.uint32, np.uint64, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2,
    ml_dtypes.bfloat16, np.float16, np.float32, np.float64, np.complex64,
    np.complex128
]

# (name, shape); the large one is 3 MiB of f64 and more for wider types.
SHAPES = [("scalar", ()), ("empty", (0, 3)), ("vector", (7,)),
          ("several_mib", (512, 768))]


def tpuemu_devices():
    return jax.devices("tpuemu")


def random_array(dtype, shape, seed=0):
    """Arbitrary bits of `dtype` (NaNs and all), so the check is bitwise."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    raw = rng.integers(0, 256, size=int(np.prod(shape)) * dtype.itemsize,
                       dtype=np.uint8)
    return raw.view(dtype).reshape(shape)


def assert_bitwise_equal(actual, expected):
    actual = np.asarray(actual)
    assert actual.dtype == expected.dtype
    assert actual.shape == expected.shape
    assert (np.ascontiguousarray(actual).tobytes() ==
            np.ascontiguousarray(expected).tobytes())


def run_python(code, **env):
    """Runs `code` in a fresh interpreter; returns (returncode, out, err)."""
    child_env = {k: v for k, v in os.environ.items()
                 if not k.startswith(("PJRTX_TPUEMU", "JAX_"))}
    child_env["PYTHONPATH"] = str(PYTHON_DIR)
    child_env.update(env)
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          env=child_env, capture_output=True, text=True,
                          timeout=120)
    return done.returncode, done.stdout, done.stderr


def test_the_plugin_of_this_build_is_loaded():
    expected = pjrtx_jax.library_path("tpuemu").resolve()
    tpuemu_devices()  # Discovers the plugins, loads and starts the client.
    assert pathlib.Path(pjrtx_jax.registered_libraries()["tpuemu"]).resolve(
    ) == expected
    with open("/proc/self/maps") as maps:
        loaded = {pathlib.Path(line.split()[-1]).resolve()
                  for line in maps if "libpjrt_tpuemu" in line}
    assert loaded == {expected}


def test_eight_chips_with_tpu_attributes():
    devices = tpuemu_devices()
    assert len(devices) == 8
    assert len({d.id for d in devices}) == 8
    assert {d.platform for d in devices} == {"tpuemu"}
    assert {d.process_index for d in devices} == {0}
    coords = [tuple(d.coords) for d in devices]
    assert all(len(c) == 3 for c in coords)
    # Unique (coords, core_on_chip) pairs, as jax mesh_utils needs them.
    assert len({(c, d.core_on_chip) for c, d in zip(coords, devices)}) == 8
    assert {d.core_on_chip for d in devices} == {0}
    assert {d.slice_index for d in devices} == {0}
    for d in devices:
        assert d.device_kind
        assert str(d)


def test_every_chip_has_device_and_pinned_host_memory():
    for d in tpuemu_devices():
        kinds = {m.kind for m in d.addressable_memories()}
        assert {"device", "pinned_host"} <= kinds, kinds
        assert d.default_memory().kind == "device"


@pytest.mark.parametrize("shape_name,shape", SHAPES,
                         ids=[name for name, _ in SHAPES])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda t: np.dtype(t).name)
def test_round_trip_is_bit_exact(dtype, shape_name, shape):
    host = random_array(dtype, shape)
    device = tpuemu_devices()[len(shape) % 8]
    x = jax.device_put(host, device)
    assert x.devices() == {device}
    assert x.dtype == host.dtype and x.shape == host.shape
    assert_bitwise_equal(x, host)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda t: np.dtype(t).name)
def test_non_contiguous_views_round_trip(dtype):
    base = random_array(dtype, (9, 10), seed=1)
    for view in (base[::2, 1::3], base.T, base[:, ::-1]):
        x = jax.device_put(view, tpuemu_devices()[1])
        assert_bitwise_equal(x, np.ascontiguousarray(view))


def test_to_each_chip_and_chip_to_chip():
    host = random_array(np.float32, (64, 33), seed=2)
    devices = tpuemu_devices()
    on_chip = [jax.device_put(host, d) for d in devices]
    for x, d in zip(on_chip, devices):
        assert x.devices() == {d}
        assert_bitwise_equal(x, host)
    moved = jax.device_put(on_chip[0], devices[5])
    assert moved.devices() == {devices[5]}
    assert_bitwise_equal(moved, host)
    back = jax.device_put(moved, devices[0])
    assert_bitwise_equal(back, host)


@pytest.mark.parametrize("dtype", [np.int8, ml_dtypes.bfloat16, np.float64,
                                   np.complex128])
def test_pinned_host_and_back(dtype):
    host = random_array(dtype, (5, 6), seed=3)
    device = tpuemu_devices()[2]
    pinned = jax.sharding.SingleDeviceSharding(device, memory_kind="pinned_host")
    on_host = jax.device_put(jax.device_put(host, device), pinned)
    assert on_host.sharding.memory_kind == "pinned_host"
    assert_bitwise_equal(on_host, host)
    on_device = jax.device_put(
        on_host, jax.sharding.SingleDeviceSharding(device, memory_kind="device"))
    assert on_device.sharding.memory_kind == "device"
    assert_bitwise_equal(on_device, host)


def test_delete_and_block_until_ready():
    x = jax.device_put(np.arange(10, dtype=np.int32), tpuemu_devices()[3])
    assert x.block_until_ready() is x
    assert not x.is_deleted()
    x.delete()
    assert x.is_deleted()
    with pytest.raises(RuntimeError):
        np.asarray(x)


def test_cpu_still_runs_while_tpuemu_holds_buffers():
    held = [jax.device_put(np.full((256, 256), i, np.float32), d)
            for i, d in enumerate(tpuemu_devices())]
    cpu = jax.devices("cpu")[0]
    f = jax.jit(lambda a, b: a @ b + 1.0)
    a = jax.device_put(np.eye(4, dtype=np.float32), cpu)
    result = f(a, a)
    assert result.devices() == {cpu}
    np.testing.assert_array_equal(np.asarray(result),
                                  np.eye(4, dtype=np.float32) + 1.0)
    for i, x in enumerate(held):
        assert float(np.asarray(x)[0, 0]) == i


@pytest.mark.parametrize("options,named", [
    ("topology=v5e:2x4,no_such_option=1", "no_such_option"),
    ("topology=v5e:3xq", "v5e:3xq"),
])
def test_bad_options_raise_naming_them_and_the_process_survives(
        options, named):
    code, out, err = run_python("""
        import jax
        try:
            jax.devices("tpuemu")
            print("NO ERROR")
        except Exception as e:  # JAX raises RuntimeError
            print("ERROR", type(e).__name__, e)
        print("alive", jax.numpy.arange(3).sum())
        """, PJRTX_TPUEMU_OPTIONS=options)
    assert code == 0, err
    first, second = out.strip().splitlines()[-2:]
    assert first.startswith("ERROR"), out
    assert named in first, first
    assert second == "alive 3"


def test_pjrt_names_and_library_paths_loads_the_plugin():
    library = pjrtx_jax.library_path("tpuemu")
    code, out, err = run_python("""
        import jax, numpy as np
        ds = jax.devices()
        x = jax.device_put(np.arange(5.0), ds[1])
        print(ds[0].platform, len(ds), np.asarray(x).sum())
        """, PYTHONPATH="", PJRT_NAMES_AND_LIBRARY_PATHS=f"tpuemu:{library}",
        JAX_PLATFORMS="tpuemu")
    assert code == 0, err
    # The plugin's default topology (v5e:2x2) without our package's options.
    assert out.split()[-3:] == ["tpuemu", "4", "10.0"]
