// The formulas of complex arithmetic on real and imaginary parts.
#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "compiler_stub/mlir/location_text.h"
#include "compiler_stub/passes/complex_expander.h"

namespace pjrtx::ir::complex_internal {

Parts ComplexExpander::Multiply(const Parts& x, const Parts& y) {
  return {Sub(Mul(x.re, y.re), Mul(x.im, y.im)),
          Add(Mul(x.re, y.im), Mul(x.im, y.re))};
}

// Smith's algorithm: scales by the larger part of the divisor, so that
// |y|^2 neither overflows nor underflows. Where it gives NaN in both parts
// for operands that are not both NaN, the quotient is the limit that C99's
// Annex G (G.5.1) gives and XLA:CPU computes: a zero divisor makes
// infinities (of y's real part's sign), an infinite dividend over a finite
// divisor an infinity, and a finite dividend over an infinite divisor a
// zero, each in the direction of x conj(y) with the infinite parts as +-1
// and the finite ones as +-0.
Parts ComplexExpander::Divide(const Parts& x, const Parts& y) {
  const ValueRef real_larger = Compare("GE", Op("abs", y.re), Op("abs", y.im));
  const ValueRef big = Select(real_larger, y.re, y.im);
  const ValueRef small = Select(real_larger, y.im, y.re);
  const ValueRef ratio = Div(small, big);
  const ValueRef denominator = Add(big, Mul(small, ratio));
  // y = big (1 + i ratio) when the real part is larger, else
  // big (ratio + i).
  const ValueRef a = Select(real_larger, x.re, x.im);
  const ValueRef b = Select(real_larger, x.im, x.re);
  const ValueRef first = Div(Add(a, Mul(b, ratio)), denominator);
  const ValueRef second = Div(Sub(b, Mul(a, ratio)), denominator);
  // Real part larger: (xr + xi r, xi - xr r) / d; else
  // (xr r + xi, xi r - xr) / d = (first, -second) with a, b swapped.
  const Parts smith{first, Select(real_larger, second, Op("negate", second))};

  const ValueRef zero = Constant(0);
  const ValueRef one = Constant(1);
  const ValueRef inf = Constant(INFINITY);
  // x conj(y) scaled by `scale`.
  auto scaled_product = [&](const ValueRef& scale, const Parts& u,
                            const Parts& v) {
    return Parts{Mul(scale, Add(Mul(u.re, v.re), Mul(u.im, v.im))),
                 Mul(scale, Sub(Mul(u.im, v.re), Mul(u.re, v.im)))};
  };
  // +-1 for an infinite part, +-0 for any other, signed as the part.
  auto unit_of_infinite = [&](const Parts& z) {
    return Parts{CopySign(Select(IsInf(z.re), one, zero), z.re),
                 CopySign(Select(IsInf(z.im), one, zero), z.im)};
  };
  auto any_inf = [&](const Parts& z) {
    return Logical("or", IsInf(z.re), IsInf(z.im));
  };
  auto finite = [&](const Parts& z) {
    return Logical("and", IsFinite(z.re), IsFinite(z.im));
  };
  const ValueRef by_zero =
      Logical("and", Compare("EQ", y.re, zero), Compare("EQ", y.im, zero));
  const ValueRef signed_inf = CopySign(inf, y.re);
  const Parts infinite_dividend = scaled_product(inf, unit_of_infinite(x), y);
  const Parts infinite_divisor = scaled_product(zero, x, unit_of_infinite(y));
  const ValueRef dividend_infinite = Logical("and", any_inf(x), finite(y));
  const ValueRef divisor_infinite = Logical("and", finite(x), any_inf(y));
  auto pick = [&](const ValueRef& smith_part, const ValueRef& by_zero_part,
                  const ValueRef& infinite_dividend_part,
                  const ValueRef& infinite_divisor_part) {
    return Select(
        by_zero, by_zero_part,
        Select(dividend_infinite, infinite_dividend_part,
               Select(divisor_infinite, infinite_divisor_part, smith_part)));
  };
  const Parts recovered{pick(smith.re, Mul(signed_inf, x.re),
                             infinite_dividend.re, infinite_divisor.re),
                        pick(smith.im, Mul(signed_inf, x.im),
                             infinite_dividend.im, infinite_divisor.im)};
  const ValueRef both_nan = Logical("and", IsNan(smith.re), IsNan(smith.im));
  return {Select(both_nan, recovered.re, smith.re),
          Select(both_nan, recovered.im, smith.im)};
}

ValueRef ComplexExpander::IsNan(const ValueRef& x) {
  return Compare("NE", x, x);
}

ValueRef ComplexExpander::IsInf(const ValueRef& x) {
  return Compare("EQ", Op("abs", x), Constant(INFINITY));
}

ValueRef ComplexExpander::IsFinite(const ValueRef& x) {
  return Emit(absl::StrCat("\"stablehlo.is_finite\"(", RefText(x), ") : (",
                           type_, ") -> ", bool_type_));
}

ValueRef ComplexExpander::CopySign(const ValueRef& magnitude,
                                   const ValueRef& sign) {
  return Select(SignBit(sign), Op("negate", magnitude), magnitude);
}

// |z| without overflow: max * sqrt(1 + (min/max)^2), 0 for 0.
ValueRef ComplexExpander::Abs(const Parts& z) {
  const ValueRef x = Op("abs", z.re);
  const ValueRef y = Op("abs", z.im);
  const ValueRef big = Binary("maximum", x, y);
  const ValueRef small = Binary("minimum", x, y);
  const ValueRef zero = Constant(0);
  const ValueRef one = Constant(1);
  const ValueRef is_zero = Compare("EQ", big, zero);
  const ValueRef ratio = Div(small, Select(is_zero, one, big));
  const ValueRef scaled = Mul(big, Op("sqrt", Add(one, Mul(ratio, ratio))));
  const ValueRef is_inf = Compare("EQ", big, Constant(INFINITY));
  return Select(is_zero, zero, Select(is_inf, big, scaled));
}

Parts ComplexExpander::Exp(const Parts& z) {
  const ValueRef e = Op("exponential", z.re);
  return {Mul(e, Op("cosine", z.im)), Mul(e, Op("sine", z.im))};
}

Parts ComplexExpander::Log(const Parts& z) {
  return {Op("log", Abs(z)), Binary("atan2", z.im, z.re)};
}

// The principal root: t = sqrt((|z| + |re|) / 2) is the larger part.
Parts ComplexExpander::Sqrt(const Parts& z) {
  const ValueRef zero = Constant(0);
  const ValueRef t =
      Op("sqrt", Mul(Add(Abs(z), Op("abs", z.re)), Constant(0.5)));
  const ValueRef t_is_zero = Compare("EQ", t, zero);
  const ValueRef other =
      Select(t_is_zero, zero,
             Div(z.im, Mul(Constant(2), Select(t_is_zero, Constant(1), t))));
  const ValueRef re_negative = Compare("LT", z.re, zero);
  const ValueRef signed_t = Select(SignBit(z.im), Op("negate", t), t);
  return {Select(re_negative, Op("abs", other), t),
          Select(re_negative, signed_t, other)};
}

ValueRef ComplexExpander::SignBit(const ValueRef& x) {
  const std::string bits = element_ == "f32" ? "i32" : "i64";
  const std::string& shape_from = type_;
  std::string bits_type = shape_from;
  bits_type.replace(bits_type.rfind(element_), element_.size(), bits);
  const ValueRef as_bits =
      Emit(absl::StrCat("\"stablehlo.bitcast_convert\"(", RefText(x), ") : (",
                        type_, ") -> ", bits_type));
  const ValueRef zero = Emit(
      absl::StrCat("\"stablehlo.constant\"() {value = dense<0> : ", bits_type,
                   "} : () -> ", bits_type));
  return Compare("LT", as_bits, zero, bits_type);
}

// x^y for y = c + di in polar form, |x|^c e^(-d arg x) (cos q + i sin q)
// with q = c arg x + d log |x|, as XLA:CPU computes it, and with its corner
// cases (Kahan, "Branch cuts for complex elementary functions", section
// 10): x^0 = 1 for every x, NaN included; 1^y = 1 for every y; 0^c = 0 for
// a real c > 0 (0^(c + di) with d != 0 stays NaN, log 0 being -inf, as in
// XLA:CPU and numpy); inf^c = inf for a real c > 0 and 0 for c < 0.
Parts ComplexExpander::Power(const Parts& x, const Parts& y) {
  const ValueRef zero = Constant(0);
  const ValueRef one = Constant(1);
  const ValueRef r = Abs(x);
  const ValueRef angle = Binary("atan2", x.im, x.re);
  const ValueRef scale = Mul(Binary("power", r, y.re),
                             Op("exponential", Mul(Op("negate", y.im), angle)));
  const ValueRef q = Add(Mul(y.re, angle), Mul(y.im, Op("log", r)));
  Parts power{Mul(scale, Op("cosine", q)), Mul(scale, Op("sine", q))};
  // Each case overrides the ones before it.
  auto override_where = [&](const ValueRef& where, const ValueRef& re,
                            const ValueRef& im) {
    power = {Select(where, re, power.re), Select(where, im, power.im)};
  };
  auto both = [&](const ValueRef& a, const ValueRef& b) {
    return Logical("and", a, b);
  };
  const ValueRef real_exponent = Compare("EQ", y.im, zero);
  const ValueRef real_base = Compare("EQ", x.im, zero);
  const ValueRef zero_c = Compare("EQ", y.re, zero);
  override_where(both(both(Compare("EQ", r, zero), real_exponent),
                      Compare("GE", y.re, zero)),
                 Select(zero_c, one, zero), zero);
  override_where(both(zero_c, real_exponent), one, zero);
  override_where(both(Compare("EQ", x.re, one), real_base), one, zero);
  const ValueRef inf = Constant(INFINITY);
  const ValueRef infinite_base =
      both(both(Compare("EQ", x.re, inf), real_base), real_exponent);
  override_where(both(infinite_base, Compare("GT", y.re, zero)), inf, zero);
  override_where(both(infinite_base, Compare("LT", y.re, zero)), zero, zero);
  return power;
}

Parts ComplexExpander::Reciprocal(const Parts& z) {
  return Divide(Parts{Constant(1), Constant(0)}, z);
}

absl::Status ComplexExpander::ExpandFormula(const Operation& op,
                                            const std::vector<Parts>& z) {
  const std::string& name = op.name;
  const std::string op_name(absl::StripPrefix(name, "stablehlo."));
  if (z.size() == 1) {
    const Parts& x = z[0];
    if (op_name == "real") {
      Alias(op, x.re);
    } else if (op_name == "imag") {
      Alias(op, x.im);
    } else if (op_name == "abs") {
      Alias(op, Abs(x));
    } else if (op_name == "exponential") {
      Define(op, Exp(x));
    } else if (op_name == "exponential_minus_one") {
      // e^a cos b - 1 = expm1(a) cos b - 2 sin^2(b / 2), exact near 0.
      // A real z keeps its zero imaginary part even where e^a is infinite
      // or NaN (C99's cexp(x + 0i) = e^x + 0i, as XLA:CPU gives).
      const ValueRef half_sin = Op("sine", Mul(x.im, Constant(0.5)));
      Define(
          op,
          Parts{Sub(Mul(Op("exponential_minus_one", x.re), Op("cosine", x.im)),
                    Mul(Constant(2), Mul(half_sin, half_sin))),
                Select(Compare("EQ", x.im, Constant(0)), x.im,
                       Mul(Op("exponential", x.re), Op("sine", x.im)))});
    } else if (op_name == "log") {
      Define(op, Log(x));
    } else if (op_name == "exp2") {
      // 2^z = e^(z ln 2).
      const ValueRef ln2 = Constant(std::numbers::ln2);
      Define(op, Exp(Parts{Mul(x.re, ln2), Mul(x.im, ln2)}));
    } else if (op_name == "log2") {
      // log2 z = log z / ln 2, both parts.
      const Parts log = Log(x);
      const ValueRef inverse_ln2 = Constant(std::numbers::log2e);
      Define(op, Parts{Mul(log.re, inverse_ln2), Mul(log.im, inverse_ln2)});
    } else if (op_name == "log_plus_one") {
      // |1 + z|^2 = 1 + (2a + a^2 + b^2), exact near 0; far from 0 (where
      // the squares would overflow) log |1 + z| itself.
      const ValueRef one_plus_re = Add(Constant(1), x.re);
      const ValueRef grow =
          Add(Mul(x.re, Add(Constant(2), x.re)), Mul(x.im, x.im));
      const ValueRef large =
          Compare("GT", Abs(x), Constant(element_ == "f32" ? 1e8 : 1e150));
      Define(op, Parts{Select(large, Op("log", Abs(Parts{one_plus_re, x.im})),
                              Mul(Constant(0.5), Op("log_plus_one", grow))),
                       Binary("atan2", x.im, one_plus_re)});
    } else if (op_name == "sqrt") {
      Define(op, Sqrt(x));
    } else if (op_name == "rsqrt") {
      // 1 / sqrt(z); 0 wherever a part of z is infinite, whatever the
      // other part (NaN included), as XLA:CPU gives and as 1 / csqrt is in
      // C99 (csqrt(x + i inf) = inf + i inf for every x), where our sqrt
      // gives NaN.
      const Parts reciprocal = Reciprocal(Sqrt(x));
      const ValueRef infinite = Logical("or", IsInf(x.re), IsInf(x.im));
      const ValueRef zero = Constant(0);
      Define(op, Parts{Select(infinite, CopySign(zero, x.re), reciprocal.re),
                       Select(infinite, Op("negate", CopySign(zero, x.im)),
                              reciprocal.im)});
    } else if (op_name == "cbrt") {
      const Parts log = Log(x);
      const ValueRef third = Constant(1.0 / 3.0);
      Define(op, Exp(Parts{Mul(log.re, third), Mul(log.im, third)}));
    } else if (op_name == "sine" || op_name == "cosine") {
      const ValueRef sin = Op("sine", x.re), cos = Op("cosine", x.re);
      const ValueRef cosh = Unary("chlo.cosh", x.im);
      const ValueRef sinh = Unary("chlo.sinh", x.im);
      if (op_name == "sine") {
        Define(op, Parts{Mul(sin, cosh), Mul(cos, sinh)});
      } else {
        Define(op, Parts{Mul(cos, cosh), Op("negate", Mul(sin, sinh))});
      }
    } else if (op_name == "tanh") {
      // (sinh 2a + i sin 2b) / (cosh 2a + cos 2b); past |a| = 20 the real
      // part has settled at sign a in f64, cosh would soon overflow, and
      // the imaginary part is 2 sin 2b e^(-2|a|).
      const ValueRef a2 = Mul(Constant(2), x.re);
      const ValueRef b2 = Mul(Constant(2), x.im);
      const ValueRef denominator =
          Add(Unary("chlo.cosh", a2), Op("cosine", b2));
      // As C99 (and XLA:CPU) has it, a real z keeps its zero imaginary
      // part (tanh(NaN + 0i) = NaN + 0i), and an infinite a gives +-1 + 0i
      // whatever b, NaN or infinite.
      const ValueRef large = Compare("GT", Op("abs", x.re), Constant(20));
      const ValueRef zero = Constant(0);
      const ValueRef imaginary =
          Select(large,
                 Mul(Mul(Constant(2), Op("sine", b2)),
                     Op("exponential", Mul(Constant(-2), Op("abs", x.re)))),
                 Div(Op("sine", b2), denominator));
      const ValueRef flat =
          Logical("and", IsInf(x.re), Logical("or", IsNan(x.im), IsInf(x.im)));
      Define(op, Parts{Select(large, Op("sign", x.re),
                              Div(Unary("chlo.sinh", a2), denominator)),
                       Select(Compare("EQ", x.im, zero), x.im,
                              Select(flat, zero, imaginary))});
    } else if (op_name == "logistic") {
      const Parts e = Exp(Parts{Op("negate", x.re), Op("negate", x.im)});
      Define(op, Reciprocal(Parts{Add(Constant(1), e.re), e.im}));
    } else if (op_name == "sign") {
      const ValueRef magnitude = Abs(x);
      const ValueRef zero = Constant(0);
      const ValueRef is_zero = Compare("EQ", magnitude, zero);
      const ValueRef safe = Select(is_zero, Constant(1), magnitude);
      Define(op, Parts{Select(is_zero, zero, Div(x.re, safe)),
                       Select(is_zero, zero, Div(x.im, safe))});
    } else if (op_name == "negate") {
      Define(op, Parts{Op("negate", x.re), Op("negate", x.im)});
    } else if (name == "chlo.square") {
      // As chlo's decomposition computes it, which the portable artifact
      // of the same program carries instead: (a - b)(a + b) + 2(ab) i,
      // with a real part of +0 wherever |a| = |b| for a finite a (where
      // the product could be -0).
      const ValueRef finite = IsFinite(x.re);
      const ValueRef balanced = Compare("EQ", Op("abs", x.re), Op("abs", x.im));
      Define(op, Parts{Select(Logical("and", finite, balanced), Constant(0),
                              Mul(Sub(x.re, x.im), Add(x.re, x.im))),
                       Mul(Constant(2), Mul(x.re, x.im))});
    } else {
      return Unsupported(op, "on complex values");
    }
    return absl::OkStatus();
  }
  if (z.size() == 2) {
    const Parts& x = z[0];
    const Parts& y = z[1];
    if (op_name == "multiply") {
      Define(op, Multiply(x, y));
    } else if (op_name == "divide") {
      Define(op, Divide(x, y));
    } else if (op_name == "atan2") {
      // atan2(x, y) = -i log((y + i x) / sqrt(x^2 + y^2)), the complex
      // continuation of the angle of (y, x).
      const Parts numerator{Sub(y.re, x.im), Add(y.im, x.re)};
      const Parts sum_of_squares = [&] {
        const Parts xx = Multiply(x, x), yy = Multiply(y, y);
        return Parts{Add(xx.re, yy.re), Add(xx.im, yy.im)};
      }();
      const Parts log = Log(Divide(numerator, Sqrt(sum_of_squares)));
      Define(op, Parts{log.im, Op("negate", log.re)});
    } else if (op_name == "power") {
      Define(op, Power(x, y));
    } else if (op_name == "maximum" || op_name == "minimum") {
      // Lexicographic: real parts first, imaginary parts on a tie.
      const absl::string_view direction = op_name == "maximum" ? "GT" : "LT";
      const ValueRef first = Logical("or", Compare(direction, x.re, y.re),
                                     Logical("and", Compare("EQ", x.re, y.re),
                                             Compare(direction, x.im, y.im)));
      Define(op, Parts{Select(first, x.re, y.re), Select(first, x.im, y.im)});
    } else if (op_name == "compare") {
      std::string direction;
      for (const auto& [attribute, value] : op.attributes) {
        if (attribute == "comparison_direction") direction = value.body;
      }
      if (direction != "EQ" && direction != "NE") {
        return absl::InvalidArgumentError(absl::StrCat(
            mlir::LocationText(op.location), ": ", name,
            " of complex values with direction '", direction,
            "', expected EQ or NE (complex numbers are not ordered)"));
      }
      const ValueRef re = Compare(direction, x.re, y.re);
      const ValueRef im = Compare(direction, x.im, y.im);
      Alias(op, Logical(direction == "EQ" ? "and" : "or", re, im));
    } else {
      return Unsupported(op, "on complex values");
    }
    return absl::OkStatus();
  }
  return Unsupported(op, "on complex values");
}

}  // namespace pjrtx::ir::complex_internal
