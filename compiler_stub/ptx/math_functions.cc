// The elementwise math functions PTX has no accurate instruction for
// (sine, cosine, tangent, tanh, logistic, exp and log on f64, expm1,
// log1p, cbrt, power, atan2, round half away from zero, and chlo's erf,
// erfc, erf_inv, lgamma and digamma), emitted as f64 code: Cody-Waite argument
// reduction and Taylor polynomials of high enough degree that the f64 result is
// within a few ulp, so that every narrower type rounds it correctly almost
// always. Branch-free but for erfc's continued fraction, a loop every thread
// runs the same number of times: special values are picked with selp at the
// end.
//
// Accuracy limits: sine, cosine and tangent reduce by pi/2 in two parts,
// accurate for |x| below about 2^30; power is exp(y log x), within about
// |y log x| ulp.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler_stub/ir/special_function_constants.h"
#include "compiler_stub/ptx/instruction_emitter.h"

namespace pjrtx::ptx {
namespace {

using ir::ElementType;
using ir::UnaryOp;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// ln 2 and pi/2 in two parts each: the high part's product with a small
// integer is exact (fdlibm's split for ln 2; the double nearest pi/2 and
// the remainder for pi/2, used with fma).
constexpr double kLn2Hi = 6.93147180369123816490e-01;
constexpr double kLn2Lo = 1.90821492927058770002e-10;
constexpr double kLog2E = 1.44269504088896338700e+00;
constexpr double kPiOver2Hi = 1.5707963267948966e+00;
constexpr double kPiOver2Lo = 6.123233995736766e-17;
constexpr double kTwoOverPi = 6.36619772367581382433e-01;
constexpr double kSqrt2 = 1.41421356237309514547e+00;
constexpr double kSmallestNormal = 2.2250738585072014e-308;

// 1/n! for n = 0..20.
double InverseFactorial(int n) {
  double f = 1;
  for (int i = 2; i <= n; ++i) f *= i;
  return 1 / f;
}

std::string D(double value) { return F64Immediate(value); }

}  // namespace

std::string InstructionEmitter::F64Op(absl::string_view opcode,
                                      std::vector<std::string> operands) {
  const std::string r = NewRegister(ElementType::kF64);
  operands.insert(operands.begin(), r);
  builder_.Emit(opcode, operands);
  return r;
}

std::string InstructionEmitter::PredOp(absl::string_view opcode,
                                       std::vector<std::string> operands) {
  const std::string r = NewRegister(ElementType::kPred);
  operands.insert(operands.begin(), r);
  builder_.Emit(opcode, operands);
  return r;
}

std::string InstructionEmitter::Horner(const std::string& x,
                                       const std::vector<double>& c) {
  // c[0] is the highest degree's coefficient.
  std::string acc = F64Op("mov.f64", {D(c[0])});
  for (size_t i = 1; i < c.size(); ++i) {
    acc = F64Op("fma.rn.f64", {acc, x, D(c[i])});
  }
  return acc;
}

std::string InstructionEmitter::Pow2(const std::string& k) {
  // k in the normal exponent range: the double with exponent field k+1023.
  const std::string biased = NewRegister(ElementType::kS32);
  builder_.Emit("add.s32", {biased, k, "1023"});
  const std::string wide = NewRegister(ElementType::kU64);
  builder_.Emit("cvt.u64.u32", {wide, biased});
  const std::string bits = NewRegister(ElementType::kU64);
  builder_.Emit("shl.b64", {bits, wide, "52"});
  return F64Op("mov.b64", {bits});
}

std::string InstructionEmitter::ScaledExpF64(const std::string& x,
                                             const std::string& r,
                                             const std::string& k) {
  std::vector<double> taylor;
  for (int n = 13; n >= 0; --n) taylor.push_back(InverseFactorial(n));
  const std::string p = Horner(r, taylor);
  const std::string ki = NewRegister(ElementType::kS32);
  builder_.Emit("cvt.rni.s32.f64", {ki, k});
  const std::string k1 = NewRegister(ElementType::kS32);
  builder_.Emit("shr.s32", {k1, ki, "1"});
  const std::string k2 = NewRegister(ElementType::kS32);
  builder_.Emit("sub.s32", {k2, ki, k1});
  std::string y = F64Op("mul.rn.f64", {p, Pow2(k1)});
  y = F64Op("mul.rn.f64", {y, Pow2(k2)});
  // The callers' clamps dropped NaN.
  const std::string nan = PredOp("testp.notanumber.f64", {x});
  return F64Op("selp.f64", {x, y, nan});
}

std::string InstructionEmitter::ExpF64(const std::string& x) {
  // exp(x) = 2^k exp(r), r = x - k ln 2 in [-ln2/2, ln2/2]; clamped so
  // that 2^k, applied in two halves, spans overflow and underflow.
  std::string c = F64Op("max.f64", {x, D(-746.0)});
  c = F64Op("min.f64", {c, D(710.0)});
  const std::string k =
      F64Op("cvt.rni.f64.f64", {F64Op("mul.rn.f64", {c, D(kLog2E)})});
  std::string r = F64Op("fma.rn.f64", {k, D(-kLn2Hi), c});
  r = F64Op("fma.rn.f64", {k, D(-kLn2Lo), r});
  return ScaledExpF64(x, r, k);
}

std::string InstructionEmitter::Exp2F64(const std::string& x) {
  // 2^x = 2^k e^(r ln 2), k = round(x), r = x - k exact in [-1/2, 1/2]: so
  // an integer x gives 2^k exactly (e^0 = 1), which e^(x ln 2) misses.
  // Clamped as ExpF64 is.
  std::string c = F64Op("max.f64", {x, D(-1076.0)});
  c = F64Op("min.f64", {c, D(1025.0)});
  const std::string k = F64Op("cvt.rni.f64.f64", {c});
  const std::string r =
      F64Op("mul.rn.f64", {F64Op("sub.rn.f64", {c, k}), D(std::numbers::ln2)});
  return ScaledExpF64(x, r, k);
}

std::string InstructionEmitter::Expm1F64(const std::string& x) {
  // Near 0, x times its series (no cancellation); elsewhere exp(x) - 1.
  std::vector<double> series;
  for (int n = 17; n >= 1; --n) series.push_back(InverseFactorial(n));
  const std::string near = F64Op("mul.rn.f64", {x, Horner(x, series)});
  const std::string far = F64Op("sub.rn.f64", {ExpF64(x), D(1.0)});
  const std::string small =
      PredOp("setp.lt.f64", {F64Op("abs.f64", {x}), D(0.5)});
  return F64Op("selp.f64", {near, far, small});
}

std::string InstructionEmitter::LogF64(const std::string& x) {
  // x = m 2^e with m in [sqrt(1/2), sqrt(2)); log m = 2 atanh(f),
  // f = (m - 1) / (m + 1), |f| <= 0.172. Subnormals are scaled up first.
  const std::string tiny = PredOp("setp.lt.f64", {x, D(kSmallestNormal)});
  const std::string scaled =
      F64Op("selp.f64", {F64Op("mul.rn.f64", {x, D(0x1p54)}), x, tiny});
  const std::string bits = NewRegister(ElementType::kU64);
  builder_.Emit("mov.b64", {bits, scaled});
  const std::string field = NewRegister(ElementType::kU64);
  builder_.Emit("shr.u64", {field, bits, "52"});
  const std::string exponent_bits = NewRegister(ElementType::kU64);
  builder_.Emit("and.b64", {exponent_bits, field, "2047"});
  std::string e = NewRegister(ElementType::kS32);
  builder_.Emit("cvt.s32.u64", {e, exponent_bits});
  const std::string bias = NewRegister(ElementType::kS32);
  builder_.Emit("selp.s32", {bias, "1077", "1023", tiny});
  const std::string unbiased = NewRegister(ElementType::kS32);
  builder_.Emit("sub.s32", {unbiased, e, bias});
  const std::string mantissa = NewRegister(ElementType::kU64);
  builder_.Emit("and.b64",
                {mantissa, bits, HexImmediate(0x000FFFFFFFFFFFFFull, 16)});
  const std::string one_to_two = NewRegister(ElementType::kU64);
  builder_.Emit("or.b64", {one_to_two, mantissa,
                           HexImmediate(0x3FF0000000000000ull, 16)});
  std::string m = F64Op("mov.b64", {one_to_two});
  const std::string above = PredOp("setp.gt.f64", {m, D(kSqrt2)});
  m = F64Op("selp.f64", {F64Op("mul.rn.f64", {m, D(0.5)}), m, above});
  const std::string carry = NewRegister(ElementType::kS32);
  builder_.Emit("selp.s32", {carry, "1", "0", above});
  const std::string exponent = NewRegister(ElementType::kS32);
  builder_.Emit("add.s32", {exponent, unbiased, carry});
  const std::string f = F64Op("div.rn.f64", {F64Op("sub.rn.f64", {m, D(1.0)}),
                                             F64Op("add.rn.f64", {m, D(1.0)})});
  const std::string s = F64Op("mul.rn.f64", {f, f});
  std::vector<double> series;
  for (int n = 11; n >= 0; --n) series.push_back(1.0 / (2 * n + 1));
  const std::string half_log_m = F64Op("mul.rn.f64", {f, Horner(s, series)});
  const std::string log_m = F64Op("add.rn.f64", {half_log_m, half_log_m});
  const std::string ef = F64Op("cvt.rn.f64.s32", {exponent});
  std::string y = F64Op("fma.rn.f64", {ef, D(kLn2Lo), log_m});
  y = F64Op("fma.rn.f64", {ef, D(kLn2Hi), y});
  // log 0 = -inf, log of a negative is NaN, log inf = inf, NaN stays.
  y = F64Op("selp.f64", {D(-kInf), y, PredOp("setp.eq.f64", {x, D(0.0)})});
  y = F64Op("selp.f64", {D(kNaN), y, PredOp("setp.lt.f64", {x, D(0.0)})});
  y = F64Op("selp.f64", {x, y, PredOp("setp.eq.f64", {x, D(kInf)})});
  return F64Op("selp.f64", {x, y, PredOp("testp.notanumber.f64", {x})});
}

std::string InstructionEmitter::Log1pF64(const std::string& x) {
  // log(u) * x / (u - 1) with u = 1 + x recovers what rounding u lost.
  const std::string u = F64Op("add.rn.f64", {x, D(1.0)});
  const std::string ratio =
      F64Op("div.rn.f64", {x, F64Op("sub.rn.f64", {u, D(1.0)})});
  std::string y = F64Op("mul.rn.f64", {LogF64(u), ratio});
  y = F64Op("selp.f64", {x, y, PredOp("setp.eq.f64", {u, D(1.0)})});
  return F64Op("selp.f64", {x, y, PredOp("setp.eq.f64", {x, D(kInf)})});
}

std::string InstructionEmitter::SinCosTanF64(UnaryOp op, const std::string& x) {
  // x = k pi/2 + r, |r| <= pi/4; the quadrant k mod 4 picks +-sin r or
  // +-cos r.
  const std::string k =
      F64Op("cvt.rni.f64.f64", {F64Op("mul.rn.f64", {x, D(kTwoOverPi)})});
  std::string r = F64Op("fma.rn.f64", {k, D(-kPiOver2Hi), x});
  r = F64Op("fma.rn.f64", {k, D(-kPiOver2Lo), r});
  const std::string z = F64Op("mul.rn.f64", {r, r});
  std::vector<double> sine, cosine;
  for (int n = 17; n >= 3; n -= 2) {
    sine.push_back(((n - 1) / 2) % 2 == 0 ? InverseFactorial(n)
                                          : -InverseFactorial(n));
  }
  for (int n = 18; n >= 0; n -= 2) {
    cosine.push_back((n / 2) % 2 == 0 ? InverseFactorial(n)
                                      : -InverseFactorial(n));
  }
  // sin r = r + r z P(z); cos r = Q(z).
  const std::string rz = F64Op("mul.rn.f64", {r, z});
  const std::string s = F64Op("fma.rn.f64", {rz, Horner(z, sine), r});
  const std::string c = Horner(z, cosine);
  // k mod 4, exact for |k| < 2^53.
  const std::string quarter =
      F64Op("cvt.rmi.f64.f64", {F64Op("mul.rn.f64", {k, D(0.25)})});
  const std::string qf = F64Op("fma.rn.f64", {quarter, D(-4.0), k});
  const std::string q = NewRegister(ElementType::kS32);
  builder_.Emit("cvt.rni.s32.f64", {q, qf});
  const std::string low = NewRegister(ElementType::kS32);
  builder_.Emit("and.b32", {low, q, "1"});
  const std::string odd = PredOp("setp.ne.s32", {low, "0"});
  std::string y;
  if (op == UnaryOp::kTan) {
    const std::string even_tan = F64Op("div.rn.f64", {s, c});
    const std::string odd_tan = F64Op("neg.f64", {F64Op("div.rn.f64", {c, s})});
    y = F64Op("selp.f64", {odd_tan, even_tan, odd});
  } else {
    const bool sine_wanted = op == UnaryOp::kSine;
    const std::string base =
        F64Op("selp.f64", {sine_wanted ? c : s, sine_wanted ? s : c, odd});
    // sine is negative in quadrants 2 and 3, cosine in 1 and 2.
    const std::string shifted = NewRegister(ElementType::kS32);
    builder_.Emit("add.s32", {shifted, q, sine_wanted ? "0" : "1"});
    const std::string high = NewRegister(ElementType::kS32);
    builder_.Emit("and.b32", {high, shifted, "2"});
    const std::string negative = PredOp("setp.ne.s32", {high, "0"});
    y = F64Op("selp.f64", {F64Op("neg.f64", {base}), base, negative});
  }
  if (op == UnaryOp::kCosine) return y;
  // sin(+-0) and tan(+-0) keep the zero's sign, which the reduction lost.
  return F64Op("selp.f64", {x, y, PredOp("setp.eq.f64", {x, D(0.0)})});
}

std::string InstructionEmitter::TanhF64(const std::string& x) {
  // tanh |x| = u / (u + 2), u = expm1(2|x|); 1 beyond 22, where u
  // overflows long before tanh stops being 1 in f64.
  const std::string a = F64Op("abs.f64", {x});
  const std::string u = Expm1F64(F64Op("add.rn.f64", {a, a}));
  std::string t = F64Op("div.rn.f64", {u, F64Op("add.rn.f64", {u, D(2.0)})});
  t = F64Op("selp.f64", {D(1.0), t, PredOp("setp.gt.f64", {a, D(22.0)})});
  const std::string y = F64Op("selp.f64", {F64Op("neg.f64", {t}), t,
                                           PredOp("setp.lt.f64", {x, D(0.0)})});
  // +-0 and NaN stay.
  return F64Op("selp.f64", {x, y, PredOp("setp.equ.f64", {x, D(0.0)})});
}

std::string InstructionEmitter::LogisticF64(const std::string& x) {
  return F64Op("rcp.rn.f64",
               {F64Op("add.rn.f64", {D(1.0), ExpF64(F64Op("neg.f64", {x}))})});
}

std::string InstructionEmitter::CbrtF64(const std::string& x) {
  // exp(log|x| / 3), then a Newton step; zeros, infinities and NaN stay.
  const std::string a = F64Op("abs.f64", {x});
  std::string y = ExpF64(F64Op("mul.rn.f64", {LogF64(a), D(1.0 / 3.0)}));
  const std::string y2 = F64Op("mul.rn.f64", {y, y});
  const std::string step =
      F64Op("fma.rn.f64", {y, D(2.0), F64Op("div.rn.f64", {a, y2})});
  y = F64Op("mul.rn.f64", {step, D(1.0 / 3.0)});
  y = F64Op("selp.f64",
            {F64Op("neg.f64", {y}), y, PredOp("setp.lt.f64", {x, D(0.0)})});
  const std::string keep = PredOp("setp.equ.f64", {a, D(0.0)});
  y = F64Op("selp.f64", {x, y, keep});
  return F64Op("selp.f64", {x, y, PredOp("setp.eq.f64", {a, D(kInf)})});
}

std::string InstructionEmitter::PowerF64(const std::string& x,
                                         const std::string& y) {
  // |x|^y = exp(y log |x|); a negative base needs an integral exponent
  // (its sign from the exponent's parity), else NaN.
  const std::string magnitude =
      ExpF64(F64Op("mul.rn.f64", {y, LogF64(F64Op("abs.f64", {x}))}));
  const std::string integral =
      PredOp("setp.eq.f64", {F64Op("cvt.rzi.f64.f64", {y}), y});
  const std::string half = F64Op("mul.rn.f64", {y, D(0.5)});
  const std::string odd_half =
      PredOp("setp.ne.f64", {F64Op("cvt.rzi.f64.f64", {half}), half});
  const std::string odd = PredOp("and.pred", {integral, odd_half});
  // The sign bit, so that -0 counts as negative for odd exponents.
  const std::string bits = NewRegister(ElementType::kS64);
  builder_.Emit("mov.b64", {bits, x});
  const std::string sign = PredOp("setp.lt.s64", {bits, "0"});
  const std::string flip = PredOp("and.pred", {sign, odd});
  std::string r =
      F64Op("selp.f64", {F64Op("neg.f64", {magnitude}), magnitude, flip});
  const std::string negative = PredOp("setp.lt.f64", {x, D(0.0)});
  const std::string fractional = PredOp("not.pred", {integral});
  r = F64Op("selp.f64",
            {D(kNaN), r, PredOp("and.pred", {negative, fractional})});
  // x^0 = 1 and 1^y = 1, NaN or not.
  r = F64Op("selp.f64", {D(1.0), r, PredOp("setp.eq.f64", {y, D(0.0)})});
  return F64Op("selp.f64", {D(1.0), r, PredOp("setp.eq.f64", {x, D(1.0)})});
}

std::string InstructionEmitter::Atan2F64(const std::string& y,
                                         const std::string& x) {
  // a = atan(min/max) of |y| and |x|, in [0, pi/4]: two halvings,
  // atan t = 2 atan(t / (1 + sqrt(1 + t^2))), bring the argument below
  // tan(pi/16) for the series. Then the octant and the quadrant.
  const std::string ay = F64Op("abs.f64", {y});
  const std::string ax = F64Op("abs.f64", {x});
  const std::string steep = PredOp("setp.gt.f64", {ay, ax});
  const std::string t = F64Op(
      "div.rn.f64", {F64Op("min.f64", {ay, ax}), F64Op("max.f64", {ay, ax})});
  std::string v = t;
  for (int i = 0; i < 2; ++i) {
    const std::string root =
        F64Op("sqrt.rn.f64", {F64Op("fma.rn.f64", {v, v, D(1.0)})});
    v = F64Op("div.rn.f64", {v, F64Op("add.rn.f64", {root, D(1.0)})});
  }
  std::vector<double> series;
  for (int n = 12; n >= 0; --n) {
    series.push_back((n % 2 == 0 ? 1.0 : -1.0) / (2 * n + 1));
  }
  const std::string atan_v =
      F64Op("mul.rn.f64", {v, Horner(F64Op("mul.rn.f64", {v, v}), series)});
  std::string a = F64Op("mul.rn.f64", {atan_v, D(4.0)});
  // Steep: pi/2 - a; both infinite: pi/4; both zero: 0.
  const std::string complement = F64Op(
      "add.rn.f64", {F64Op("sub.rn.f64", {D(kPiOver2Hi), a}), D(kPiOver2Lo)});
  a = F64Op("selp.f64", {complement, a, steep});
  const std::string both_infinite =
      PredOp("and.pred", {PredOp("setp.eq.f64", {ax, D(kInf)}),
                          PredOp("setp.eq.f64", {ay, D(kInf)})});
  a = F64Op("selp.f64", {D(kPiOver2Hi / 2), a, both_infinite});
  a = F64Op("selp.f64", {D(0.0), a, PredOp("setp.eq.f64", {ay, D(0.0)})});
  // x negative (-0 included): pi - a.
  const std::string x_bits = NewRegister(ElementType::kS64);
  builder_.Emit("mov.b64", {x_bits, x});
  const std::string left = PredOp("setp.lt.s64", {x_bits, "0"});
  const std::string reflected =
      F64Op("add.rn.f64",
            {F64Op("sub.rn.f64", {D(2 * kPiOver2Hi), a}), D(2 * kPiOver2Lo)});
  a = F64Op("selp.f64", {reflected, a, left});
  // The sign of y (-0 included).
  const std::string y_bits = NewRegister(ElementType::kS64);
  builder_.Emit("mov.b64", {y_bits, y});
  const std::string below = PredOp("setp.lt.s64", {y_bits, "0"});
  a = F64Op("selp.f64", {F64Op("neg.f64", {a}), a, below});
  const std::string nan =
      PredOp("or.pred", {PredOp("testp.notanumber.f64", {x}),
                         PredOp("testp.notanumber.f64", {y})});
  return F64Op("selp.f64", {F64Op("add.rn.f64", {x, y}), a, nan});
}

std::string InstructionEmitter::RemainderF64(const std::string& x,
                                             const std::string& y) {
  // fmod by long division: while r >= |y|, subtract the largest |y| * 2^k
  // not above r. Each subtraction is exact (Sterbenz: t <= r < 2t), so
  // the result is exact; at most one pass per bit of the exponent gap.
  const std::string ay = F64Op("abs.f64", {y});
  const std::string r = F64Op("abs.f64", {x});
  const std::string ay_exponent = Exponent(ay);
  const std::string loop = NewLabel("fmod");
  const std::string end = NewLabel("fmod_end");
  // NaN, x infinite or y zero: NaN; y infinite: x (the loop never runs).
  const std::string special = PredOp(
      "or.pred", {PredOp("or.pred", {PredOp("testp.notanumber.f64", {x}),
                                     PredOp("testp.notanumber.f64", {y})}),
                  PredOp("or.pred", {PredOp("setp.eq.f64", {r, D(kInf)}),
                                     PredOp("setp.eq.f64", {ay, D(0.0)})})});
  builder_.Emit(absl::StrCat("@", special, " bra"), {end});
  builder_.EmitLabel(loop);
  const std::string below = PredOp("setp.lt.f64", {r, ay});
  builder_.Emit(absl::StrCat("@", below, " bra"), {end});
  // t = |y| * 2^(e(r) - e(|y|)), halved if above r; the power applied in
  // steps of at most 2^1000, each exact.
  std::string gap = NewRegister(ElementType::kS32);
  builder_.Emit("sub.s32", {gap, Exponent(r), ay_exponent});
  std::string t = ay;
  for (int i = 0; i < 3; ++i) {
    const std::string step = NewRegister(ElementType::kS32);
    builder_.Emit("min.s32", {step, gap, "1000"});
    t = F64Op("mul.rn.f64", {t, Pow2(step)});
    const std::string rest = NewRegister(ElementType::kS32);
    builder_.Emit("sub.s32", {rest, gap, step});
    gap = rest;
  }
  const std::string over = PredOp("setp.gt.f64", {t, r});
  const std::string fitted =
      F64Op("selp.f64", {F64Op("mul.rn.f64", {t, D(0.5)}), t, over});
  builder_.Emit("sub.rn.f64", {r, r, fitted});
  builder_.Emit("bra", {loop});
  builder_.EmitLabel(end);
  // The dividend's sign (-0 included), NaN for the special cases but an
  // infinite y.
  const std::string bits = NewRegister(ElementType::kS64);
  builder_.Emit("mov.b64", {bits, x});
  std::string result = F64Op("selp.f64", {F64Op("neg.f64", {r}), r,
                                          PredOp("setp.lt.s64", {bits, "0"})});
  const std::string undefined =
      PredOp("and.pred", {special, PredOp("setp.ne.f64", {ay, D(kInf)})});
  result = F64Op("selp.f64", {D(kNaN), result, undefined});
  return F64Op("selp.f64",
               {F64Op("add.rn.f64", {x, y}), result,
                PredOp("or.pred", {PredOp("testp.notanumber.f64", {x}),
                                   PredOp("testp.notanumber.f64", {y})})});
}

std::string InstructionEmitter::Exponent(const std::string& v) {
  // The unbiased exponent of a positive finite v, subnormals included
  // (from the position of their highest set bit).
  const std::string bits = NewRegister(ElementType::kU64);
  builder_.Emit("mov.b64", {bits, v});
  const std::string field64 = NewRegister(ElementType::kU64);
  builder_.Emit("shr.u64", {field64, bits, "52"});
  const std::string field = NewRegister(ElementType::kS32);
  builder_.Emit("cvt.u32.u64", {field, field64});
  const std::string normal = NewRegister(ElementType::kS32);
  builder_.Emit("sub.s32", {normal, field, "1023"});
  const std::string zeros = NewRegister(ElementType::kS32);
  builder_.Emit("clz.b64", {zeros, bits});
  const std::string subnormal = NewRegister(ElementType::kS32);
  builder_.Emit("sub.s32", {subnormal, "-1011", zeros});
  const std::string is_subnormal = PredOp("setp.eq.s32", {field, "0"});
  const std::string e = NewRegister(ElementType::kS32);
  builder_.Emit("selp.s32", {e, subnormal, normal, is_subnormal});
  return e;
}

std::string InstructionEmitter::NewLabel(absl::string_view stem) {
  // "em" keeps them apart from the kernel writer's labels.
  return absl::StrCat("$L__em_", stem, labels_++);
}

std::string InstructionEmitter::RoundHalfAwayFromZero(const std::string& x,
                                                      ElementType wide) {
  // t = trunc(x); |x - t| is exact, and at least 1/2 moves t away from 0.
  const std::string s = wide == ElementType::kF64 ? "f64" : "f32";
  auto op = [&](absl::string_view opcode, std::vector<std::string> operands) {
    const std::string r = NewWideRegister(wide);
    operands.insert(operands.begin(), r);
    builder_.Emit(opcode, operands);
    return r;
  };
  auto imm = [&](double value) {
    return wide == ElementType::kF64 ? F64Immediate(value)
                                     : F32Immediate(static_cast<float>(value));
  };
  const std::string t = op(absl::StrCat("cvt.rzi.", s, ".", s), {x});
  const std::string fraction =
      op(absl::StrCat("abs.", s), {op(absl::StrCat("sub.rn.", s), {x, t})});
  const std::string half =
      PredOp(absl::StrCat("setp.ge.", s), {fraction, imm(0.5)});
  const std::string negative =
      PredOp(absl::StrCat("setp.lt.", s), {x, imm(0.0)});
  const std::string step =
      op(absl::StrCat("selp.", s), {imm(-1.0), imm(1.0), negative});
  const std::string away = op(absl::StrCat("add.rn.", s), {t, step});
  return op(absl::StrCat("selp.", s), {away, t, half});
}

// exp(-a^2) for a >= 0, a split in halves whose products are exact
// (Dekker), so that the argument carries no rounding error; a is capped
// at 30, beyond which the result is 0 anyway (and the split would
// overflow).
std::string InstructionEmitter::ExpNegSquareF64(const std::string& a) {
  const std::string c = F64Op("min.f64", {a, D(30.0)});
  const std::string scaled = F64Op("mul.rn.f64", {c, D(134217729.0)});
  const std::string high =
      F64Op("sub.rn.f64", {scaled, F64Op("sub.rn.f64", {scaled, c})});
  const std::string low = F64Op("sub.rn.f64", {c, high});
  const std::string rest =
      F64Op("add.rn.f64",
            {F64Op("mul.rn.f64", {F64Op("add.rn.f64", {high, high}), low}),
             F64Op("mul.rn.f64", {low, low})});
  return F64Op("mul.rn.f64",
               {ExpF64(F64Op("neg.f64", {F64Op("mul.rn.f64", {high, high})})),
                ExpF64(F64Op("neg.f64", {rest}))});
}

// erf(a) for 0 <= a < 1: (2 / sqrt(pi)) a sum (-1)^n a^2n / (n! (2n+1)),
// 19 terms.
std::string InstructionEmitter::ErfSmallF64(const std::string& a) {
  std::vector<double> series;
  for (int n = 18; n >= 0; --n) {
    series.push_back((n % 2 == 0 ? 1 : -1) * InverseFactorial(n) / (2 * n + 1));
  }
  const std::string p = Horner(F64Op("mul.rn.f64", {a, a}), series);
  return F64Op("mul.rn.f64", {F64Op("mul.rn.f64", {a, p}),
                              D(2 / std::sqrt(std::numbers::pi))});
}

// erfc(a) for a >= 1: exp(-a^2) / (sqrt(pi) (a + (1/2) / (a + 1 / (a +
// (3/2) / ...)))), the continued fraction 200 levels deep, evaluated from
// the deepest level up in a loop.
std::string InstructionEmitter::ErfcLargeF64(const std::string& a) {
  const std::string f = F64Op("mov.f64", {a});
  const std::string k = F64Op("mov.f64", {D(100.0)});  // 200 / 2.
  const std::string top = NewLabel("erfc_fraction");
  builder_.EmitLabel(top);
  const std::string q = NewRegister(ElementType::kF64);
  builder_.Emit("div.rn.f64", {q, k, f});
  builder_.Emit("add.rn.f64", {f, a, q});
  builder_.Emit("sub.rn.f64", {k, k, D(0.5)});
  const std::string more = PredOp("setp.gt.f64", {k, D(0.0)});
  builder_.Emit(absl::StrCat("@", more, " bra"), {top});
  return F64Op("div.rn.f64",
               {ExpNegSquareF64(a),
                F64Op("mul.rn.f64", {D(std::sqrt(std::numbers::pi)), f})});
}

std::string InstructionEmitter::ErfF64(const std::string& x) {
  const std::string a = F64Op("abs.f64", {x});
  const std::string small = PredOp("setp.lt.f64", {a, D(1.0)});
  const std::string erf = F64Op(
      "selp.f64",
      {ErfSmallF64(a), F64Op("sub.rn.f64", {D(1.0), ErfcLargeF64(a)}), small});
  // erf(-x) = -erf(x); NaN stays NaN (the large branch gives it).
  return F64Op("copysign.f64", {x, erf});
}

std::string InstructionEmitter::ErfcF64(const std::string& x) {
  const std::string a = F64Op("abs.f64", {x});
  const std::string small = PredOp("setp.lt.f64", {a, D(1.0)});
  const std::string of_a = F64Op(
      "selp.f64",
      {F64Op("sub.rn.f64", {D(1.0), ErfSmallF64(a)}), ErfcLargeF64(a), small});
  // erfc(-a) = 2 - erfc(a).
  const std::string negative = PredOp("setp.lt.f64", {x, D(0.0)});
  return F64Op("selp.f64",
               {F64Op("sub.rn.f64", {D(2.0), of_a}), of_a, negative});
}

// As the CPU's ErfInv (runtime/cpu/special_functions.h): the fit, then
// one Halley step with erf and erfc as above.
std::string InstructionEmitter::ErfInvF64(const std::string& y) {
  const std::string a = F64Op("abs.f64", {y});
  const std::string w =
      F64Op("neg.f64",
            {LogF64(F64Op("mul.rn.f64", {F64Op("sub.rn.f64", {D(1.0), a}),
                                         F64Op("add.rn.f64", {D(1.0), a})}))});
  const std::vector<double> central(ir::kErfInvCentralFit.begin(),
                                    ir::kErfInvCentralFit.end());
  const std::vector<double> tail(ir::kErfInvTailFit.begin(),
                                 ir::kErfInvTailFit.end());
  const std::string in_center =
      PredOp("setp.lt.f64", {w, D(ir::kErfInvCentralEnd)});
  const std::string x =
      F64Op("mul.rn.f64",
            {a, F64Op("selp.f64",
                      {Horner(w, central),
                       Horner(F64Op("sqrt.rn.f64", {w}), tail), in_center})});
  // Halley on f(x) = erf(x) - a: with u = f / f', x - u / (1 + x u).
  const std::string x_small = PredOp("setp.lt.f64", {x, D(1.0)});
  const std::string erf_small = ErfSmallF64(x);
  const std::string erfc_large = ErfcLargeF64(x);
  const std::string erf =
      F64Op("selp.f64",
            {erf_small, F64Op("sub.rn.f64", {D(1.0), erfc_large}), x_small});
  const std::string erfc =
      F64Op("selp.f64",
            {F64Op("sub.rn.f64", {D(1.0), erf_small}), erfc_large, x_small});
  const std::string low = PredOp("setp.lt.f64", {a, D(0.5)});
  const std::string residual = F64Op(
      "selp.f64",
      {F64Op("sub.rn.f64", {erf, a}),
       F64Op("sub.rn.f64", {F64Op("sub.rn.f64", {D(1.0), a}), erfc}), low});
  const std::string slope = F64Op(
      "mul.rn.f64", {D(2 / std::sqrt(std::numbers::pi)), ExpNegSquareF64(x)});
  const std::string u = F64Op("div.rn.f64", {residual, slope});
  const std::string step =
      F64Op("div.rn.f64",
            {u, F64Op("add.rn.f64", {D(1.0), F64Op("mul.rn.f64", {x, u})})});
  std::string result = F64Op("sub.rn.f64", {x, step});
  // +-1 gives +-infinity; beyond, the log gave NaN already.
  const std::string at_one = PredOp("setp.eq.f64", {a, D(1.0)});
  result = F64Op("selp.f64", {D(INFINITY), result, at_one});
  return F64Op("copysign.f64", {y, result});
}

// sin(pi x) and tan(pi x) with x reduced mod 2 first (exactly), so that
// pi x carries no large rounding error.
std::string InstructionEmitter::TrigPiF64(UnaryOp op, const std::string& x) {
  const std::string half =
      F64Op("cvt.rni.f64.f64", {F64Op("mul.rn.f64", {x, D(0.5)})});
  const std::string r = F64Op("fma.rn.f64", {half, D(-2.0), x});
  return SinCosTanF64(op, F64Op("mul.rn.f64", {r, D(std::numbers::pi)}));
}

// The shared steps of lgamma and digamma for v >= 1/2: z = v + 10 below 10
// (else v), and what moving v up to z adds: the sum of 1/(v + k) (digamma)
// or the log of the product of (v + k) (lgamma), k = 0..9, else 0.
std::string InstructionEmitter::ShiftedArgumentF64(const std::string& v) {
  const std::string low = PredOp("setp.lt.f64", {v, D(10.0)});
  return F64Op("selp.f64", {F64Op("add.rn.f64", {v, D(10.0)}), v, low});
}

// log Gamma(v) for v >= 1/2: Stirling's series at z >= 10 (7 terms),
// minus log(v (v + 1) ... (v + 9)) where v was moved up (which cancels
// near the zeros at 1 and 2: LgammaF64 takes series there).
std::string InstructionEmitter::LogGammaPositiveF64(const std::string& v) {
  const std::string z = ShiftedArgumentF64(v);
  std::string product = v;
  for (int k = 1; k < 10; ++k) {
    product =
        F64Op("mul.rn.f64",
              {product, F64Op("add.rn.f64", {v, D(static_cast<double>(k))})});
  }
  const std::string low = PredOp("setp.lt.f64", {v, D(10.0)});
  const std::string shift = F64Op("selp.f64", {LogF64(product), D(0.0), low});
  std::vector<double> series;  // B_2k / (2k (2k - 1)), highest k first.
  for (int k = 7; k >= 1; --k) {
    series.push_back(ir::kBernoulli[k - 1] / ((2 * k) * (2 * k - 1)));
  }
  const std::string inverse = F64Op("div.rn.f64", {D(1.0), z});
  const std::string tail =
      F64Op("mul.rn.f64",
            {inverse, Horner(F64Op("mul.rn.f64", {inverse, inverse}), series)});
  const std::string log_z = LogF64(z);
  std::string r =
      F64Op("mul.rn.f64", {F64Op("sub.rn.f64", {z, D(0.5)}), log_z});
  r = F64Op("sub.rn.f64", {r, z});
  r = F64Op("add.rn.f64", {r, D(0.5 * std::log(2 * std::numbers::pi))});
  r = F64Op("add.rn.f64", {r, tail});
  return F64Op("sub.rn.f64", {r, shift});
}

// log Gamma near its zeros at 1 and 2, where Stirling's series after the
// shift cancels: with e = x - 1 (or x - 2), |e| <= 1/4,
// -gamma e + sum_k (-1)^k zeta(k) / k e^k (or (1 - gamma) e + sum_k (-1)^k
// (zeta(k) - 1) / k e^k), k = 2..28, which is accurate relative to the
// small result.
std::string InstructionEmitter::LogGammaNearZeroF64(const std::string& e,
                                                    bool at_two) {
  std::vector<double> series;  // Highest power first, down to e^1.
  for (int k = 28; k >= 2; --k) {
    const double zeta = (at_two ? 0.0 : 1.0) + ir::kZetaMinusOne[k - 2];
    series.push_back((k % 2 == 0 ? zeta : -zeta) / k);
  }
  series.push_back(at_two ? 1 - ir::kEulerGamma : -ir::kEulerGamma);
  return F64Op("mul.rn.f64", {e, Horner(e, series)});
}

std::string InstructionEmitter::LgammaF64(const std::string& x) {
  std::string positive = LogGammaPositiveF64(x);
  for (const bool at_two : {false, true}) {
    const std::string e = F64Op("sub.rn.f64", {x, D(at_two ? 2.0 : 1.0)});
    const std::string near =
        PredOp("setp.le.f64", {F64Op("abs.f64", {e}), D(0.25)});
    positive =
        F64Op("selp.f64", {LogGammaNearZeroF64(e, at_two), positive, near});
  }
  // Reflection: log(pi / |sin(pi x)|) - log Gamma(1 - x).
  const std::string reflected =
      F64Op("sub.rn.f64",
            {LogF64(F64Op("div.rn.f64",
                          {D(std::numbers::pi),
                           F64Op("abs.f64", {TrigPiF64(UnaryOp::kSine, x)})})),
             LogGammaPositiveF64(F64Op("sub.rn.f64", {D(1.0), x}))});
  const std::string low = PredOp("setp.lt.f64", {x, D(0.5)});
  std::string r = F64Op("selp.f64", {reflected, positive, low});
  // Below 2^-52, log Gamma(x) is -log|x| to f64's precision, and pi /
  // sin(pi x) would overflow for subnormal x.
  const std::string tiny =
      PredOp("setp.lt.f64", {F64Op("abs.f64", {x}), D(0x1p-52)});
  r = F64Op("selp.f64",
            {F64Op("neg.f64", {LogF64(F64Op("abs.f64", {x}))}), r, tiny});
  // Poles (0 and the negative integers) and both infinities give +inf.
  const std::string integral =
      PredOp("setp.eq.f64", {x, F64Op("cvt.rmi.f64.f64", {x})});
  const std::string nonpositive = PredOp("setp.le.f64", {x, D(0.0)});
  const std::string pole = PredOp("and.pred", {integral, nonpositive});
  const std::string infinite =
      PredOp("setp.eq.f64", {F64Op("abs.f64", {x}), D(kInf)});
  r = F64Op("selp.f64", {D(kInf), r, pole});
  return F64Op("selp.f64", {D(kInf), r, infinite});
}

// digamma(v) for v >= 1/2: log z - 1/(2z) - sum B_2k / (2k z^2k) at
// z >= 10, minus 1/(v + k) for the steps v was moved up.
std::string InstructionEmitter::DigammaPositiveF64(const std::string& v) {
  const std::string z = ShiftedArgumentF64(v);
  std::string sum = F64Op("div.rn.f64", {D(1.0), v});
  for (int k = 1; k < 10; ++k) {
    sum = F64Op(
        "add.rn.f64",
        {sum,
         F64Op("div.rn.f64",
               {D(1.0), F64Op("add.rn.f64", {v, D(static_cast<double>(k))})})});
  }
  const std::string low = PredOp("setp.lt.f64", {v, D(10.0)});
  const std::string shift = F64Op("selp.f64", {sum, D(0.0), low});
  std::vector<double> series;  // B_2k / 2k, highest k first.
  for (int k = 7; k >= 1; --k) {
    series.push_back(ir::kBernoulli[k - 1] / (2 * k));
  }
  const std::string inverse = F64Op("div.rn.f64", {D(1.0), z});
  const std::string square = F64Op("mul.rn.f64", {inverse, inverse});
  const std::string tail =
      F64Op("mul.rn.f64", {square, Horner(square, series)});
  std::string r =
      F64Op("sub.rn.f64", {LogF64(z), F64Op("mul.rn.f64", {D(0.5), inverse})});
  r = F64Op("sub.rn.f64", {r, tail});
  return F64Op("sub.rn.f64", {r, shift});
}

std::string InstructionEmitter::DigammaF64(const std::string& x) {
  const std::string positive = DigammaPositiveF64(x);
  // Reflection: digamma(1 - x) - pi / tan(pi x).
  const std::string reflected =
      F64Op("sub.rn.f64", {DigammaPositiveF64(F64Op("sub.rn.f64", {D(1.0), x})),
                           F64Op("div.rn.f64", {D(std::numbers::pi),
                                                TrigPiF64(UnaryOp::kTan, x)})});
  const std::string low = PredOp("setp.lt.f64", {x, D(0.5)});
  const std::string r = F64Op("selp.f64", {reflected, positive, low});
  // Poles: NaN.
  const std::string integral =
      PredOp("setp.eq.f64", {x, F64Op("cvt.rmi.f64.f64", {x})});
  const std::string nonpositive = PredOp("setp.le.f64", {x, D(0.0)});
  const std::string pole = PredOp("and.pred", {integral, nonpositive});
  return F64Op("selp.f64", {D(kNaN), r, pole});
}

std::string InstructionEmitter::MathF64(UnaryOp op, const std::string& x) {
  switch (op) {
    case UnaryOp::kSine:
    case UnaryOp::kCosine:
    case UnaryOp::kTan:
      return SinCosTanF64(op, x);
    case UnaryOp::kTanh:
      return TanhF64(x);
    case UnaryOp::kLogistic:
      return LogisticF64(x);
    case UnaryOp::kExponential:
      return ExpF64(x);
    case UnaryOp::kExp2:
      return Exp2F64(x);
    case UnaryOp::kLog2:
      return F64Op("mul.rn.f64", {LogF64(x), D(std::numbers::log2e)});
    case UnaryOp::kExponentialMinusOne:
      return Expm1F64(x);
    case UnaryOp::kLog:
      return LogF64(x);
    case UnaryOp::kLogPlusOne:
      return Log1pF64(x);
    case UnaryOp::kCbrt:
      return CbrtF64(x);
    case UnaryOp::kErf:
      return ErfF64(x);
    case UnaryOp::kErfc:
      return ErfcF64(x);
    case UnaryOp::kErfInv:
      return ErfInvF64(x);
    case UnaryOp::kLgamma:
      return LgammaF64(x);
    case UnaryOp::kDigamma:
      return DigammaF64(x);
    default:
      return x;  // Not a math function; callers ask only for the above.
  }
}

bool InstructionEmitter::IsMathFunction(UnaryOp op) {
  constexpr UnaryOp kMathFunctions[] = {
      UnaryOp::kSine,     UnaryOp::kCosine,
      UnaryOp::kTan,      UnaryOp::kTanh,
      UnaryOp::kLogistic, UnaryOp::kExponential,
      UnaryOp::kLog,      UnaryOp::kExponentialMinusOne,
      UnaryOp::kCbrt,     UnaryOp::kLogPlusOne,
      UnaryOp::kErf,      UnaryOp::kErfc,
      UnaryOp::kErfInv,   UnaryOp::kLgamma,
      UnaryOp::kDigamma,  UnaryOp::kExp2,
      UnaryOp::kLog2};
  return std::find(std::begin(kMathFunctions), std::end(kMathFunctions), op) !=
         std::end(kMathFunctions);
}

std::string InstructionEmitter::ToF64(const Register& x) {
  if (x.type == ElementType::kF64) return x.name;
  return F64Op("cvt.f64.f32", {Widen(x)});
}

Register InstructionEmitter::FromF64(const std::string& value,
                                     ElementType type) {
  switch (type) {
    case ElementType::kF64:
      return Register{value, type};
    case ElementType::kF32: {
      const std::string r = NewRegister(ElementType::kF32);
      builder_.Emit("cvt.rn.f32.f64", {r, value});
      return Register{r, type};
    }
    default:
      // Rounded to odd in f32 first, so that rounding to f16 or bf16 is
      // correct.
      return Narrow(RoundToOddF32(Register{value, ElementType::kF64}), type);
  }
}

}  // namespace pjrtx::ptx
