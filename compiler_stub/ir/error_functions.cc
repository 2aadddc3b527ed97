#include "compiler_stub/ir/error_functions.h"

#include <cmath>
#include <numbers>
#include <vector>

namespace pjrtx::ir {
namespace {

using Value = InstructionBuilder::Value;
constexpr ElementType kF64 = ElementType::kF64;

class Math {
 public:
  explicit Math(InstructionBuilder& b) : b_(b) {}

  Value C(double value) { return b_.Constant(value, kF64); }
  Value Add(Value x, Value y) { return b_.Binary(BinaryOp::kAdd, x, y); }
  Value Sub(Value x, Value y) { return b_.Binary(BinaryOp::kSubtract, x, y); }
  Value Mul(Value x, Value y) { return b_.Binary(BinaryOp::kMultiply, x, y); }
  Value Div(Value x, Value y) { return b_.Binary(BinaryOp::kDivide, x, y); }
  Value Abs(Value x) { return b_.Unary(UnaryOp::kAbs, x); }
  Value Sign(Value x) { return b_.Unary(UnaryOp::kSign, x); }
  Value Exp(Value x) { return b_.Unary(UnaryOp::kExponential, x); }
  Value Log(Value x) { return b_.Unary(UnaryOp::kLog, x); }
  Value Sqrt(Value x) { return b_.Unary(UnaryOp::kSqrt, x); }
  Value Neg(Value x) { return b_.Unary(UnaryOp::kNegate, x); }
  Value Less(Value x, Value y) {
    return b_.Compare(ComparisonDirection::kLt, x, y);
  }
  Value Select(Value p, Value x, Value y) { return b_.Select(p, x, y); }

  // c[0] x^(n-1) + ... + c[n-1], by Horner's rule.
  Value Horner(const std::vector<double>& c, Value x) {
    Value r = C(c[0]);
    for (size_t i = 1; i < c.size(); ++i) r = Add(Mul(r, x), C(c[i]));
    return r;
  }

  // exp(-a^2), a split into halves whose products are exact (Dekker), so
  // that the argument carries no rounding error.
  Value ExpNegSquare(Value a) {
    const Value scaled = Mul(C(134217729.0), a);  // 2^27 + 1.
    const Value high = Sub(scaled, Sub(scaled, a));
    const Value low = Sub(a, high);
    const Value rest = Add(Mul(Add(high, high), low), Mul(low, low));
    return Mul(Exp(Neg(Mul(high, high))), Exp(Neg(rest)));
  }

  // erf(a) for 0 <= a < 1: (2 / sqrt(pi)) a sum (-1)^n a^2n / (n! (2n+1)).
  Value ErfSmall(Value a) {
    std::vector<double> terms;
    double factorial = 1;
    for (int n = 0; n <= 18; ++n) {
      if (n > 0) factorial *= n;
      terms.insert(terms.begin(),
                   (n % 2 == 0 ? 1 : -1) / (factorial * (2 * n + 1)));
    }
    return Mul(Mul(a, Horner(terms, Mul(a, a))),
               C(2 / std::sqrt(std::numbers::pi)));
  }

  // erfc(a) for a >= 1: exp(-a^2) / (sqrt(pi) (a + (1/2) / (a + 1 / (a +
  // (3/2) / (a + ...))))), evaluated from the deepest level up.
  Value ErfcLarge(Value a) {
    Value f = a;
    for (int k = 200; k >= 1; --k) f = Add(a, Div(C(k * 0.5), f));
    return Div(ExpNegSquare(a), Mul(C(std::sqrt(std::numbers::pi)), f));
  }

 private:
  InstructionBuilder& b_;
};

// erfinv(y) / y in w = -log(1 - y^2) on [0, 6.25], and in sqrt(w) on
// [2.5, 6.1]: scripts/erf_inv_fit.py (errors 1e-9 and 6e-8, which one
// Halley step takes below f64's rounding).
const std::vector<double>& CentralFit() {
  static const auto* fit = new std::vector<double>{
      -1.2570814414523687e-11, 4.7709375702375541e-10,  -7.2614269354355026e-09,
      5.0314094879598975e-08,  -6.1915299863750884e-08, -1.1691352011907989e-06,
      2.7139718212882321e-06,  4.5251158659606087e-05,  -0.00012655586206886682,
      -0.0023360041204652897,  0.01154961467899298,     0.23201363513775869,
      0.88622692603687125};
  return *fit;
}
const std::vector<double>& TailFit() {
  static const auto* fit = new std::vector<double>{
      -1.8774899500916977e-07, 9.8972746827085333e-06, -0.00023662189088503998,
      0.0033879084010476558,   -0.032294578167509837,  0.21535904738147704,
      -1.0263462234141438,     3.5018816045825045,     -8.4096009289785183,
      13.622544800802428,      -13.610781275880147,    7.7861464262199833,
      -0.88121776251351314};
  return *fit;
}

}  // namespace

Value BuildErf(InstructionBuilder& b, Value x) {
  Math m(b);
  const Value a = m.Abs(x);
  const Value erf =
      m.Select(m.Less(a, m.C(1)), m.ErfSmall(a), m.Sub(m.C(1), m.ErfcLarge(a)));
  return m.Mul(m.Sign(x), erf);
}

Value BuildErfc(InstructionBuilder& b, Value x) {
  Math m(b);
  const Value a = m.Abs(x);
  const Value one = m.C(1);
  const Value of_a =
      m.Select(m.Less(a, one), m.Sub(one, m.ErfSmall(a)), m.ErfcLarge(a));
  // erfc(-a) = 2 - erfc(a).
  return m.Select(m.Less(x, m.C(0)), m.Sub(m.C(2), of_a), of_a);
}

Value BuildErfInv(InstructionBuilder& b, Value y) {
  Math m(b);
  const Value one = m.C(1);
  const Value a = m.Abs(y);
  const Value w = m.Neg(m.Log(m.Mul(m.Sub(one, a), m.Add(one, a))));
  const Value start =
      m.Mul(a, m.Select(m.Less(w, m.C(6.25)), m.Horner(CentralFit(), w),
                        m.Horner(TailFit(), m.Sqrt(w))));
  // Halley on f(x) = erf(x) - a: with u = f / f', x - u / (1 + x u)
  // (f'' = -2x f').
  const Value small = m.Less(start, one);
  const Value erf_small = m.ErfSmall(start);
  const Value erfc_large = m.ErfcLarge(start);
  const Value erf = m.Select(small, erf_small, m.Sub(one, erfc_large));
  const Value erfc = m.Select(small, m.Sub(one, erf_small), erfc_large);
  const Value residual =
      m.Select(m.Less(a, m.C(0.5)), m.Sub(erf, a), m.Sub(m.Sub(one, a), erfc));
  const Value slope =
      m.Mul(m.C(2 / std::sqrt(std::numbers::pi)), m.ExpNegSquare(start));
  const Value u = m.Div(residual, slope);
  const Value x = m.Sub(start, m.Div(u, m.Add(one, m.Mul(start, u))));
  // erf_inv(+-1) = +-inf; beyond, log gave NaN already.
  const Value at_one = b.Compare(ComparisonDirection::kEq, a, one);
  return m.Mul(m.Sign(y), m.Select(at_one, m.C(INFINITY), x));
}

}  // namespace pjrtx::ir
