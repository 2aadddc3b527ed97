#!/usr/bin/env python3
"""Turns `pjrtx run-mlir` output into docs/stablehlo-coverage.md.

  tests/corpus/run_corpus.sh build/release/runtime/cli/pjrtx \
    build/release/plugins/tpu_emu/libpjrt_tpuemu.so \
    ../shared/conformance/stablehlo-interpret --option topology=v5e:2x4 \
    | scripts/stablehlo-coverage.py > docs/stablehlo-coverage.md
"""
import collections
import re
import sys


def reason_key(reason):
    """Groups skip reasons: drop positions, keep the op or type named."""
    reason = re.sub(r"^\d+:\d+: ", "", reason)
    m = re.search(r"element type (\S+)", reason)
    if m:
        return "element type " + m.group(1)
    if "is_host_transfer" in reason:
        return "host-transfer send/recv"
    if "takes a token from the host" in reason:
        return "token from the host (infeed/outfeed)"
    m = re.search(r"op (stablehlo\.[a-z_]+)", reason)
    if m:
        return "op " + m.group(1)
    return reason.split(";")[0]


def main():
    files = collections.OrderedDict()
    summary = None
    for line in sys.stdin:
        line = line.rstrip("\n")
        m = re.match(r"^(PASS|FAIL|SKIP) ([^:]+):(\d+)(?:: (.*))?$", line)
        if m:
            verdict, name, _, reason = m.groups()
            entry = files.setdefault(name, {"PASS": 0, "FAIL": 0, "SKIP": 0,
                                            "reasons": collections.Counter()})
            entry[verdict] += 1
            if verdict == "SKIP":
                entry["reasons"][reason_key(reason or "")] += 1
        elif line.startswith("cases:"):
            summary = line
    totals = collections.Counter()
    for entry in files.values():
        for k in ("PASS", "FAIL", "SKIP"):
            totals[k] += entry[k]
    # Cases this runtime has no counterpart for: data between a program and
    # its host, which has no feed or host channel here.
    host = sum(n for e in files.values()
               for r, n in e["reasons"].items()
               if r.startswith(("host-transfer", "token from the host")))
    runnable = sum(totals.values()) - host
    print("# StableHLO interpreter corpus coverage\n")
    print("The StableHLO reference interpreter's op-by-op test corpus "
          "(`../shared/conformance/stablehlo-interpret`, with the chlo ops' "
          "cases of its `chlo/` folder), run through the C ABI "
          "on the TPU emulator with `pjrtx run-mlir` (CTest: "
          "`corpus.stablehlo_interpret_tpu_emu`). A case is SKIP when it uses an "
          "op or element type this compiler does not support; every other case "
          "must pass. Collective cases (`interpreter.run_parallel`) run as "
          "launches of one executable per program on the chips of a "
          "`v5e:2x4` client, sharing a launch id. Regenerate with "
          "`scripts/stablehlo-coverage.py` (see its header).\n")
    print(f"**Total:** {summary}. Cases not moving data between a program "
          f"and its host: {runnable}, of which {totals['PASS']} pass "
          f"({100.0 * totals['PASS'] / max(runnable, 1):.1f} %).\n")
    print("Tolerances: `check.expect_almost_eq*` accepts "
          "|actual − expected| ≤ t·(1 + |expected|) with t = 1e-4 unless the "
          "check gives `tolerance`; NaN matches NaN. `check.expect_close` "
          "compares units in the last place (default 3). `expect_eq*` is exact "
          "(−0 equals +0, NaN equals NaN).\n")
    print("| file | pass | fail | skip | skip reasons |")
    print("|---|---|---|---|---|")
    for name, e in files.items():
        reasons = ", ".join(f"{r} ×{n}" for r, n in e["reasons"].most_common())
        print(f"| {name} | {e['PASS']} | {e['FAIL']} | {e['SKIP']} | {reasons} |")


if __name__ == "__main__":
    main()
