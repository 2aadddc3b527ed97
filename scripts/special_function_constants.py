#!/usr/bin/env python3
"""Prints the constants of compiler_stub/ir/special_function_constants.h,
with mpmath (Debian package python3-mpmath):

zeta(k) - 1 for k = 2..28, for the series of log Gamma around 1 and 2; and
the polynomial fits chlo.erf_inv starts from: Chebyshev fits of degree 12 of

  erfinv(y) / y as a function of w = -log(1 - y^2)  on [0, 6.25], and
  erfinv(y) / y as a function of s = sqrt(w)        on [2.5, 6.1]

(s reaches 6.0 at the largest double below 1). Coefficients highest power
first, as Horner's rule takes them; the maximum errors are printed first.
"""
import mpmath

mpmath.mp.dps = 30


def ratio_of_w(w):
    w = mpmath.mpf(w)
    if w == 0:
        return mpmath.sqrt(mpmath.pi) / 2
    y = mpmath.sqrt(1 - mpmath.exp(-w))
    return mpmath.erfinv(y) / y


def ratio_of_s(s):
    return ratio_of_w(mpmath.mpf(s) ** 2)


def main():
    print("// zeta(k) - 1, k = 2..28")
    print(",\n".join(f"{float(mpmath.zeta(k) - 1):.17g}" for k in range(2, 29)))
    for name, f, interval in (("central", ratio_of_w, [0, 6.25]),
                              ("tail", ratio_of_s, [2.5, 6.1])):
        coefficients, error = mpmath.chebyfit(f, interval, 13, error=True)
        print(f"// {name}: max error {float(error):.3g}")
        print(",\n".join(f"{float(c):.17g}" for c in coefficients))


if __name__ == "__main__":
    main()
