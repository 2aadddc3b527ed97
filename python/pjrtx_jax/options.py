"""Client create options for the pjrtx plugins, from environment variables.

A variable such as PJRTX_TPUEMU_OPTIONS holds comma-separated name=value
entries, e.g. "topology=v5e:2x4,num_slices=1". Each value becomes the type
the plugin's option schema declares for its name (the plugins reject an
option of the wrong type); a name not in the schema gets bool, int, float or
str, whichever its text looks like, and the plugin says whether it knows it.
"""

import re

# The plugins' option schemas (OptionSchema() in plugins/tpu_emu/
# tpu_emu_plugin.cc and plugins/cuda/cuda_plugin.cc): name -> Python type.
TPUEMU_OPTION_TYPES = {
        "topology": str,
        "num_slices": int,
        "slice_index": int,
        "hosts_per_slice": int,
        "host_index": int,
        "hbm_bytes": int,
        "matmul_precision": str,
        "dcn_gbps": float,
        "mode": str,
}
CUDA_OPTION_TYPES = {
        "num_processes": int,
        "process_index": int,
        "host_name": str,
        "completion_wait": str,
}

_INT = re.compile(r"[+-]?[0-9]+")
_FLOAT = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
_BOOLS = {"true": True, "false": False}


def _guess(text):
    """Returns text as a bool, int or float if it looks like one, else as is."""
    if text.lower() in _BOOLS:
        return _BOOLS[text.lower()]
    if _INT.fullmatch(text):
        return int(text)
    if _FLOAT.fullmatch(text):
        return float(text)
    return text


def _convert(text, wanted):
    """Returns text as type `wanted`; raises ValueError if it is not one."""
    if wanted is str:
        return text
    if wanted is bool and text.lower() in _BOOLS:
        return _BOOLS[text.lower()]
    if wanted is int and _INT.fullmatch(text):
        return int(text)
    if wanted is float and _FLOAT.fullmatch(text):
        return float(text)
    expected = {bool: "true or false", int: "an integer", float: "a number"}
    raise ValueError(f"expected {expected[wanted]}")


def parse_options(text, option_types=None, source="options"):
    """Parses "name=value,name=value" into a dict of typed option values.

    Args:
        text: the entries; blanks around entries, names and values are
            ignored, and so are empty entries.
        option_types: name -> type (str, int, float or bool) for the names a
            plugin declares; other names get their type from their text.
        source: what the text came from (an environment variable's name), for
            error messages.

    Returns:
        A dict from option name to str, int, float or bool, as
        jax._src.xla_bridge.register_plugin takes them.

    Raises:
        ValueError: an entry has no '=' or no name, a name appears twice, or a
            value is not of its declared type; the message names the entry.
    """
    option_types = option_types or {}
    options = {}
    for entry in text.split(","):
        entry = entry.strip()
        if not entry:
            continue
        name, equals, value = entry.partition("=")
        name, value = name.strip(), value.strip()
        if not equals or not name:
            raise ValueError(
                f"{source}: entry {entry!r} is not of the form name=value")
        if name in options:
            raise ValueError(
                f"{source}: entry {entry!r}: {name} is given twice")
        if name in option_types:
            try:
                options[name] = _convert(value, option_types[name])
            except ValueError as e:
                raise ValueError(
                    f"{source}: entry {entry!r}: {e} for {name}") from None
        else:
            options[name] = _guess(value)
    return options
