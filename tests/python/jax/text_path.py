"""Runs StableHLO text through pjrtx's own text path: `pjrtx run-mlir`.

JAX hands tpuemu StableHLO portable artifacts (bytecode) through the PJRT C
API. `pjrtx run-mlir --input=ARG.npy ... --output-dir=DIR PROGRAM` instead
compiles MLIR *text* through pjrtx's own ABI (PJRTX_Client_Compile, format
"mlir") and writes the results as .npy files, so a program JAX printed can
be run there and compared with the artifact JAX ran.

The command is the one of the build whose plugins JAX loads: the plugins
folder's build's runtime/cli/pjrtx (<build>/plugins ->
<build>/runtime/cli/pjrtx), or $PJRTX_CLI where set.
"""

import os
import pathlib
import subprocess
import tempfile

import numpy as np
import pjrtx_jax


def cli_path():
    """The `pjrtx` command of the build under test (may not exist)."""
    if os.environ.get("PJRTX_CLI"):
        return pathlib.Path(os.environ["PJRTX_CLI"])
    plugins = pathlib.Path(pjrtx_jax.library_path("tpuemu")).parents[1]
    return plugins.parent / "runtime" / "cli" / "pjrtx"


def _option_flags():
    """tpuemu's options as JAX got them, as `--option name=value` flags."""
    flags = []
    for name, value in pjrtx_jax.plugin_options("tpuemu").items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, (list, tuple)):
            value = ",".join(str(v) for v in value)
        flags += ["--option", f"{name}={value}"]
    return flags


class TextPathError(Exception):
    """The text path rejected or failed to run a program."""


def run_text(text, args, result_dtypes):
    """Compiles `text` through the text path and runs it on `args`.

    Args:
      text: StableHLO in MLIR text, e.g. jax.jit(f).lower(...).as_text().
      args: the entry function's arguments, NumPy arrays in order.
      result_dtypes: the results' dtypes, to read bfloat16 and float8
        results back (the command writes them as raw items, as numpy.save
        writes ml_dtypes arrays).

    Returns:
      The results, NumPy arrays in order.

    Raises:
      TextPathError: the command failed; its message and the program.
    """
    with tempfile.TemporaryDirectory(prefix="pjrtx_text_path_") as tmp:
        tmp = pathlib.Path(tmp)
        program = tmp / "program.mlir"
        program.write_text(text)
        inputs = []
        for i, arg in enumerate(args):
            path = tmp / f"input_{i}.npy"
            # C order: the command reads no Fortran-order files.
            np.save(path, np.array(arg, order="C"))
            inputs.append(f"--input={path}")
        out_dir = tmp / "out"
        plugin = pjrtx_jax.library_path("tpuemu")
        run = subprocess.run(
            [str(cli_path()), "run-mlir", f"--plugin={plugin}",
             *_option_flags(), *inputs, f"--output-dir={out_dir}",
             str(program)],
            capture_output=True, text=True, timeout=120, check=False)
        if run.returncode != 0:
            raise TextPathError(
                f"pjrtx run-mlir exited {run.returncode}: "
                f"{run.stderr.strip()}\n--- program ---\n{text}")
        results = []
        for i, dtype in enumerate(result_dtypes):
            value = np.load(out_dir / f"output_{i}.npy")
            if value.dtype.kind == "V":
                value = value.view(dtype)
            results.append(value)
        if (out_dir / f"output_{len(result_dtypes)}.npy").exists():
            raise TextPathError(
                f"the text path gave more than {len(result_dtypes)} results")
        return results
