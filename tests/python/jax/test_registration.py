"""Tests of the JAX plugin package (python/pjrtx_jax, jax_plugins.pjrtx).

Runs in the JAX environment with the checkout's python/ folder importable:

  env=$(scripts/jax-env.sh)
  PYTHONPATH=python "$env/bin/python" -m pytest tests/python/jax

Registration runs in child processes: JAX discovers plugins once per
process.
"""

import os
import pathlib
import shutil
import subprocess
import sys
import textwrap

import pytest

import pjrtx_jax
from pjrtx_jax import options

PYTHON_DIR = pathlib.Path(pjrtx_jax.__file__).resolve().parents[1]


def run_python(code, **env):
    """Runs code in a fresh interpreter; returns (stdout, stderr)."""
    child_env = {k: v for k, v in os.environ.items()
                 if not k.startswith(("PJRTX_", "JAX_"))
                 or k == "PJRTX_PLUGIN_DIR"}
    child_env["PYTHONPATH"] = str(PYTHON_DIR)
    child_env.update(env)
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          env=child_env, capture_output=True, text=True,
                          timeout=120, check=True)
    return done.stdout, done.stderr


def test_values_take_the_schema_types():
    parsed = options.parse_options(
        " topology=v5e:2x4 , num_slices=1,dcn_gbps=3,mode=sync,",
        options.TPUEMU_OPTION_TYPES)
    assert parsed == {"topology": "v5e:2x4", "num_slices": 1,
                      "dcn_gbps": 3.0, "mode": "sync"}
    assert isinstance(parsed["dcn_gbps"], float)


def test_undeclared_values_are_typed_by_their_text():
    parsed = options.parse_options(
        "a=true,b=False,c=-12,d=2.5,e=1e3,f=v4:2x2x2,g=")
    assert parsed == {"a": True, "b": False, "c": -12, "d": 2.5,
                      "e": 1000.0, "f": "v4:2x2x2", "g": ""}
    assert isinstance(parsed["c"], int) and not isinstance(parsed["c"], bool)


def test_empty_text_is_no_options():
    assert options.parse_options("") == {}
    assert options.parse_options(" , ") == {}


@pytest.mark.parametrize("text,named", [
    ("topology", "'topology'"),
    ("=3", "'=3'"),
    ("num_slices=1,num_slices=2", "num_slices is given twice"),
    ("hbm_bytes=1GiB", "expected an integer for hbm_bytes"),
    ("num_slices=1.5", "'num_slices=1.5'"),
    ("dcn_gbps=fast", "expected a number for dcn_gbps"),
])
def test_malformed_entries_are_named(text, named):
    with pytest.raises(ValueError) as e:
        options.parse_options(text, options.TPUEMU_OPTION_TYPES,
                              source="PJRTX_TPUEMU_OPTIONS")
    assert "PJRTX_TPUEMU_OPTIONS" in str(e.value)
    assert named in str(e.value)


def test_plugin_options_read_their_variable(monkeypatch):
    monkeypatch.setenv("PJRTX_TPUEMU_OPTIONS",
                       "topology=v5e:2x4,hbm_bytes=4096")
    monkeypatch.setenv("PJRTX_CUDA_OPTIONS", "completion_wait=spin")
    assert pjrtx_jax.plugin_options("tpuemu") == {"topology": "v5e:2x4",
                                                  "hbm_bytes": 4096}
    assert pjrtx_jax.plugin_options("pjrtx_cuda") == {
        "completion_wait": "spin"}


def test_libraries_come_from_the_checkouts_release_build(monkeypatch):
    monkeypatch.delenv("PJRTX_PLUGIN_DIR", raising=False)
    root = PYTHON_DIR.parent
    assert pjrtx_jax.library_path("tpuemu") == (
        root / "build/release/plugins/tpu_emu/libpjrt_tpuemu.so")
    assert pjrtx_jax.library_path("pjrtx_cuda") == (
        root / "build/release/plugins/cuda/libpjrt_cuda.so")


def test_plugin_dir_names_another_build(monkeypatch, tmp_path):
    monkeypatch.setenv("PJRTX_PLUGIN_DIR", str(tmp_path))
    assert pjrtx_jax.library_path("tpuemu") == (
        tmp_path / "tpu_emu/libpjrt_tpuemu.so")


def test_priority_is_above_cpu():
    from jax._src import xla_bridge
    assert pjrtx_jax.PRIORITY > xla_bridge._backend_factories["cpu"].priority


def test_tpuemu_is_the_default_and_jax_platforms_cpu_opts_out():
    code = """
        import jax
        print(jax.default_backend(), jax.numpy.arange(4).sum().devices())
        """
    out, _ = run_python(code)
    assert out.split()[0] == "tpuemu", out
    out, _ = run_python(code, JAX_PLATFORMS="cpu")
    assert out.split()[0] == "cpu", out


def test_missing_libraries_are_skipped_with_a_warning(tmp_path):
    out, err = run_python("""
        import jax, pjrtx_jax
        print(jax.numpy.ones(2).sum(), jax.default_backend(),
              pjrtx_jax.registered_libraries())
        """, PJRTX_PLUGIN_DIR=str(tmp_path))
    assert out.split() == ["2.0", "cpu", "{}"]
    assert f"{tmp_path}/tpu_emu/libpjrt_tpuemu.so does not exist" in err


def test_a_library_without_the_pjrt_api_is_skipped(tmp_path):
    fake = tmp_path / "tpu_emu/libpjrt_tpuemu.so"
    fake.parent.mkdir()
    # Any shared library that is not a PJRT plugin.
    import _ctypes
    shutil.copy(_ctypes.__file__, fake)
    out, err = run_python("""
        import jax, pjrtx_jax
        print(jax.devices()[0].platform, pjrtx_jax.registered_libraries())
        """, PJRTX_PLUGIN_DIR=str(tmp_path))
    assert out.split() == ["cpu", "{}"]
    assert f"not registering tpuemu from {fake}" in err
    assert "GetPjrtApi" in err


def test_cuda_without_a_gpu_raises_its_reason_and_the_rest_works():
    path = pjrtx_jax.library_path("pjrtx_cuda")
    if not path.is_file():
        pytest.skip(f"{path} is not built (no CUDA toolkit headers)")
    if any(os.path.exists(f) for f in ("/dev/nvidia0", "/dev/nvidiactl")):
        pytest.skip("an NVIDIA GPU is visible")
    out, _ = run_python("""
        import jax, numpy as np
        try:
            jax.devices("pjrtx_cuda")
            print("NO ERROR")
        except RuntimeError as e:
            print("ERROR", e)
        x = jax.device_put(np.arange(4.0), jax.devices("tpuemu")[0])
        print("tpuemu", np.asarray(x).sum())
        print("cpu", jax.jit(lambda a: a * 2)(np.arange(3.0)).sum())
        """)
    lines = out.splitlines()
    assert lines[0].startswith("ERROR"), out
    # The plugin's own reason (pjrtx.unavailable_reason) is the message.
    assert "no CUDA driver" in lines[0] or "no CUDA device" in lines[0], out
    assert lines[1:] == ["tpuemu 6.0", "cpu 6.0"]


def test_the_built_plugin_is_registered():
    path = pjrtx_jax.library_path("tpuemu")
    assert path.is_file(), f"{path} is not built"
    out, _ = run_python("""
        import jax, pjrtx_jax
        platform = jax.devices("tpuemu")[0].platform
        print(pjrtx_jax.registered_libraries()["tpuemu"])
        print(platform)
        """, PJRTX_PLUGIN_DIR=str(path.parents[1]))
    assert out.split() == [str(path), "tpuemu"]
