#!/usr/bin/env python3
"""Writes tests/corpus/stablehlo_1_25_ops.mlir: the ops and comparison type
that StableHLO 1.21 to 1.25.3 added (fma, exp2, log2, WEAKORDER), checked
against exact references.

fma's expected values are the exact a*b+c rounded once to the type
(Python's fractions, then the nearest value of the type, ties to even):
the cases are chosen where rounding twice (a multiply, then an add) gives
something else. exp2 and log2 are checked exactly where the result is
exact (powers of two, limits) and within 2 ulps elsewhere (Python's math
in double, rounded to the type). WEAKORDER's truth tables follow its
definition: -0 equals +0, every NaN equals every other and lies above +inf.

Usage: python3 scripts/stablehlo_1_25_ops_cases.py > tests/corpus/stablehlo_1_25_ops.mlir
(needs numpy and ml_dtypes, e.g. the JAX test environment's Python).
"""

import cmath
import fractions
import math
import struct

import ml_dtypes
import numpy as np

TYPES = {
    "f64": np.float64,
    "f32": np.float32,
    "f16": np.float16,
    "bf16": ml_dtypes.bfloat16,
}
HEX_WIDTH = {"f64": 16, "f32": 8, "f16": 4, "bf16": 4}


def bits(value, mlir_type):
    """The value's bits as MLIR's hex float literal."""
    raw = np.array([value], TYPES[mlir_type]).view(
        {16: np.uint64, 8: np.uint32, 4: np.uint16}[HEX_WIDTH[mlir_type]])[0]
    return "0x%0*X" % (HEX_WIDTH[mlir_type], int(raw))


def round_to_type(exact, mlir_type):
    """The nearest value of the type to a Fraction, ties to even."""
    dtype = TYPES[mlir_type]
    info = np.finfo(dtype)
    if exact == 0:
        return dtype(0.0)
    # Candidates around the double nearest the exact value.
    guess = dtype(float(exact))
    candidates = {guess, np.nextafter(guess, dtype(np.inf)),
                  np.nextafter(guess, dtype(-np.inf))}
    finite = [c for c in candidates if np.isfinite(c)]
    best = min(finite, key=lambda c: (abs(fractions.Fraction(float(c)) - exact),
                                      int(np.array([c]).view(
                                          {8: np.uint64, 4: np.uint32,
                                           2: np.uint16}[np.dtype(dtype).itemsize])[0]) & 1))
    if abs(exact) > fractions.Fraction(float(info.max)) + (
            fractions.Fraction(float(info.max)) -
            fractions.Fraction(float(np.nextafter(info.max, dtype(0))))) / 2:
        return dtype(math.copysign(math.inf, exact))
    return best


def fma_exact(a, b, c, mlir_type):
    a, b, c = (float(v) for v in (a, b, c))
    if not all(math.isfinite(v) for v in (a, b, c)):
        return TYPES[mlir_type](a * b + c)  # IEEE specials.
    exact = (fractions.Fraction(a) * fractions.Fraction(b) +
             fractions.Fraction(c))
    if exact == 0:
        # Exact zero sums are +0 in round-to-nearest unless both are -0.
        return TYPES[mlir_type](a * b + c)
    return round_to_type(exact, mlir_type)


_cases_written = []


def case(name, body):
    if _cases_written:
        print("// -----\n")
    _cases_written.append(name)
    print(f"func.func @{name}() {{")
    for line in body:
        print("  " + line)
    print("  func.return\n}\n")


def dense(values, mlir_type):
    return "dense<[" + ", ".join(bits(v, mlir_type) for v in values) + "]>"


def fma_cases():
    t = TYPES
    sets = {
        "f32": ([1 + 2**-23, 3.0, 1.5, -0.0, 1.0, 3.4e38, 0.1],
                [1 - 2**-24, 0.1, -2.0, 0.0, -1.0, 2.0, 10.0],
                [-1.0, 0.7, 3.0, 0.0, 1.0, -3.4e38, -1.0]),
        "f64": ([1 + 2**-52, 0.1, 1e308],
                [1 - 2**-53, 10.0, 2.0],
                [-1.0, -1.0, -1e308]),
        # The tie of bf16 that only the tiny addend breaks: rounding the
        # sum to nearest in f64 first would give 1.5.
        "bf16": ([1.0078125, 1.09375, 1.09375],
                 [0.99609375, 1.375, 1.375],
                 [-1.0, 2.0**-80, -(2.0**-80)]),
        "f16": ([1 + 2**-10, 1.5, 1.5],
                [1 - 2**-11, 1 + 2**-10, 1 + 2**-10],
                [-1.0, 2.0**-24, -(2.0**-24)]),
    }
    for mlir_type, (a, b, c) in sets.items():
        dtype = t[mlir_type]
        a, b, c = ([dtype(v) for v in vs] for vs in (a, b, c))
        n = len(a)
        want = [fma_exact(x, y, z, mlir_type) for x, y, z in zip(a, b, c)]
        ty = f"tensor<{n}x{mlir_type}>"
        case(f"fma_{mlir_type}", [
            f"%a = stablehlo.constant {dense(a, mlir_type)} : {ty}",
            f"%b = stablehlo.constant {dense(b, mlir_type)} : {ty}",
            f"%c = stablehlo.constant {dense(c, mlir_type)} : {ty}",
            f"%r = stablehlo.fma %a, %b, %c : {ty}",
            f"check.expect_eq_const %r, {dense(want, mlir_type)} : {ty}",
        ])
    # IEEE specials: inf * 0 is NaN; NaN propagates.
    ty = "tensor<2xf32>"
    case("fma_f32_nan", [
        f"%a = stablehlo.constant dense<[0x7F800000, 0.0]> : {ty}",
        f"%b = stablehlo.constant dense<[0.0, 0x7F800000]> : {ty}",
        f"%c = stablehlo.constant dense<[1.0, 0x7FC00000]> : {ty}",
        f"%r = stablehlo.fma %a, %b, %c : {ty}",
        f"check.expect_almost_eq_const %r, dense<[0x7FC00000, 0x7FC00000]> "
        f": {ty}",
    ])


def exp2_log2_cases():
    for mlir_type in ("f32", "f64"):
        dtype = TYPES[mlir_type]
        tiny = -149 if mlir_type == "f32" else -1074
        top = 127 if mlir_type == "f32" else 1023
        exact_in = [-math.inf, math.inf, 0.0, -0.0, tiny - 1, tiny, -126,
                    top, top + 1, 3.0]
        exact_out = [dtype(math.inf) if x > top else dtype(2.0**x)
                     for x in exact_in]
        n = len(exact_in)
        ty = f"tensor<{n}x{mlir_type}>"
        case(f"exp2_{mlir_type}_exact", [
            f"%x = stablehlo.constant {dense(exact_in, mlir_type)} : {ty}",
            f"%r = stablehlo.exp2 %x : {ty}",
            f"check.expect_eq_const %r, {dense(exact_out, mlir_type)} : {ty}",
        ])
        values = [dtype(v) for v in (-7.3, -0.5, 0.1, 0.5, 1.5, 10.25, 100.7)]
        want = [dtype(2.0 ** float(v)) for v in values]
        ty = f"tensor<{len(values)}x{mlir_type}>"
        case(f"exp2_{mlir_type}", [
            f"%x = stablehlo.constant {dense(values, mlir_type)} : {ty}",
            f"%r = stablehlo.exp2 %x : {ty}",
            f"%e = stablehlo.constant {dense(want, mlir_type)} : {ty}",
            f"check.expect_close %r, %e, max_ulp_difference = 2 : {ty}, {ty}",
        ])
        log_in = [math.inf, 0.0, -0.0, math.ldexp(1.0, tiny), 1.0, 1024.0,
                  0.5]
        log_out = [math.inf, -math.inf, -math.inf, float(tiny), 0.0, 10.0,
                   -1.0]
        ty = f"tensor<{len(log_in)}x{mlir_type}>"
        case(f"log2_{mlir_type}_exact", [
            f"%x = stablehlo.constant {dense(log_in, mlir_type)} : {ty}",
            f"%r = stablehlo.log2 %x : {ty}",
            f"check.expect_eq_const %r, {dense(log_out, mlir_type)} : {ty}",
        ])
        values = [dtype(v) for v in (3.0, 0.1, 7.5, 1e-30, 1e30, 1.0001)]
        want = [dtype(math.log2(float(v))) for v in values]
        ty = f"tensor<{len(values)}x{mlir_type}>"
        case(f"log2_{mlir_type}", [
            f"%x = stablehlo.constant {dense(values, mlir_type)} : {ty}",
            f"%r = stablehlo.log2 %x : {ty}",
            f"%e = stablehlo.constant {dense(want, mlir_type)} : {ty}",
            f"check.expect_close %r, %e, max_ulp_difference = 2 : {ty}, {ty}",
        ])
        ty = f"tensor<2x{mlir_type}>"
        nan = "0x7FC00000" if mlir_type == "f32" else "0x7FF8000000000000"
        case(f"log2_{mlir_type}_negative", [
            f"%x = stablehlo.constant dense<[-1.0, {bits(-math.inf, mlir_type)}]> : {ty}",
            f"%r = stablehlo.log2 %x : {ty}",
            f"check.expect_almost_eq_const %r, dense<[{nan}, {nan}]> : {ty}",
        ])
    # Narrow types are computed wide and rounded once.
    for mlir_type in ("f16", "bf16"):
        ty = f"tensor<4x{mlir_type}>"
        case(f"exp2_log2_{mlir_type}", [
            f"%x = stablehlo.constant {dense([-3.0, 0.0, 4.0, 10.0], mlir_type)} : {ty}",
            f"%e = stablehlo.exp2 %x : {ty}",
            f"check.expect_eq_const %e, {dense([0.125, 1.0, 16.0, 1024.0], mlir_type)} : {ty}",
            f"%l = stablehlo.log2 %e : {ty}",
            f"check.expect_eq_const %l, {dense([-3.0, 0.0, 4.0, 10.0], mlir_type)} : {ty}",
        ])
    # Complex: 2^z = e^(z ln 2); log2 z = log z / ln 2.
    zs = [complex(0, 1), complex(1, 2), complex(-1.5, 0.25), complex(3, 0)]
    for mlir_type, tol in (("f32", "1e-05"), ("f64", "1e-12")):
        ty = f"tensor<4xcomplex<{mlir_type}>>"

        def text(values):
            return "dense<[" + ", ".join(
                f"({v.real!r}, {v.imag!r})" for v in values) + "]>"

        exp2 = [cmath.exp(z * math.log(2)) for z in zs]
        log2 = [cmath.log(z) / math.log(2) for z in zs]
        case(f"exp2_log2_complex_{mlir_type}", [
            f"%z = stablehlo.constant {text(zs)} : {ty}",
            f"%e = stablehlo.exp2 %z : {ty}",
            f"check.expect_almost_eq_const %e, {text(exp2)} : {ty} "
            f"{{tolerance = {tol} : f64}}",
            f"%l = stablehlo.log2 %z : {ty}",
            f"check.expect_almost_eq_const %l, {text(log2)} : {ty} "
            f"{{tolerance = {tol} : f64}}",
        ])


def weak_order_cases():
    values = [-math.inf, -1.0, -0.0, 0.0, 1.0, math.inf, math.nan]

    def key(v):
        return (1, 0.0) if math.isnan(v) else (0, v + 0.0)

    directions = {"EQ": lambda a, b: a == b, "NE": lambda a, b: a != b,
                  "LT": lambda a, b: a < b, "LE": lambda a, b: a <= b,
                  "GT": lambda a, b: a > b, "GE": lambda a, b: a >= b}
    pairs = [(a, b) for a in values for b in values]
    lhs = [a for a, _ in pairs]
    rhs = [b for _, b in pairs]
    for mlir_type in ("f32", "bf16", "f64"):
        n = len(pairs)
        ty = f"tensor<{n}x{mlir_type}>"
        body = [f"%a = stablehlo.constant {dense(lhs, mlir_type)} : {ty}",
                f"%b = stablehlo.constant {dense(rhs, mlir_type)} : {ty}"]
        for name, relation in directions.items():
            want = ", ".join("true" if relation(key(a), key(b)) else "false"
                             for a, b in pairs)
            body += [f"%{name.lower()} = stablehlo.compare {name}, %a, %b, "
                     f"WEAKORDER : ({ty}, {ty}) -> tensor<{n}xi1>",
                     f"check.expect_eq_const %{name.lower()}, "
                     f"dense<[{want}]> : tensor<{n}xi1>"]
        case(f"compare_weakorder_{mlir_type}", body)


def main():
    print("// The ops and comparison type StableHLO 1.21 to 1.25.3 added (fma,\n"
          "// exp2, log2, WEAKORDER), against exact references: fma exactly\n"
          "// (a*b+c rounded once, on inputs where rounding twice differs),\n"
          "// exp2 and log2 exactly where the result is exact and within 2\n"
          "// ulps elsewhere, complex parts within 1e-5 (f32) / 1e-12 (f64),\n"
          "// WEAKORDER by its definition. Every case must pass on every\n"
          "// plugin (no skips).")
    print("// Generated by scripts/stablehlo_1_25_ops_cases.py.\n")
    fma_cases()
    exp2_log2_cases()
    weak_order_cases()


if __name__ == "__main__":
    main()
