// Floating-point compute functions.
//
// Round-to-nearest arithmetic uses the host's IEEE operations: directly
// for f32 and f64, and in f32 for f16 and bf16, where rounding to f32 and
// then to the 16-bit format equals rounding once (f32 has more than twice
// their precision plus two bits) for +, -, *, / and sqrt. Everything else
// (directed rounding, fma on 16-bit formats) computes in double together
// with the sign of the rounding error, exactly (error-free transforms),
// and rounds that once with soft_float.h.
#include <cmath>
#include <concepts>
#include <cstdint>

#include "tests/plugins/cuda/ptx_interpreter/compute_functions.h"
#include "tests/plugins/cuda/ptx_interpreter/float_values.h"

namespace fake_cuda::ptx {
namespace {

int Sign(double value) { return value > 0 ? 1 : (value < 0 ? -1 : 0); }

// IEEE: an exact zero sum is +0 except when rounding down (then -0),
// unless both terms are +0.
double ZeroSum(double x, double p, double q, Rounding rounding) {
  if (x != 0 || rounding != Rounding::kDown) return x;
  const bool both_positive_zero =
      p == 0 && q == 0 && !std::signbit(p) && !std::signbit(q);
  return both_positive_zero ? x : -0.0;
}

// a op b (op c) rounded to nearest in double, and in `residual` the sign
// of (exact - result). Exact for operands of at most 24 significant bits
// (f32 and narrower), where products are exact and remainders
// representable.
template <FloatOp kOp>
double ExactInDouble(double a, double b, double c, Rounding rounding,
                     int* residual) {
  *residual = 0;
  if constexpr (kOp == FloatOp::kAdd || kOp == FloatOp::kSub) {
    const double addend = kOp == FloatOp::kAdd ? b : -b;
    const double x = a + addend;
    *residual = SumResidual(a, addend, x);
    return ZeroSum(x, a, addend, rounding);
  } else if constexpr (kOp == FloatOp::kMul) {
    return a * b;
  } else if constexpr (kOp == FloatOp::kFma) {
    const double product = a * b;
    const double x = product + c;
    *residual = SumResidual(product, c, x);
    return ZeroSum(x, product, c, rounding);
  } else if constexpr (kOp == FloatOp::kDiv || kOp == FloatOp::kRcp) {
    const double n = kOp == FloatOp::kDiv ? a : 1.0;
    const double d = kOp == FloatOp::kDiv ? b : a;
    const double x = n / d;
    if (std::isfinite(x) && std::isfinite(n) && std::isfinite(d) && d != 0) {
      *residual = Sign(std::fma(-x, d, n)) * Sign(d);
    }
    return x;
  } else {
    static_assert(kOp == FloatOp::kSqrt);
    const double x = std::sqrt(a);
    if (std::isfinite(x) && a > 0) *residual = Sign(std::fma(-x, x, a));
    return x;
  }
}

// The exponent e with value = m 2^e, m in [0.5, 1) (0 for 0).
int ExponentOf(double value) {
  int exponent = 0;
  std::frexp(value, &exponent);
  return exponent;
}

// sign(a * b - x) for x = a * b rounded, finite and nonzero operands. With
// the operands scaled to [0.5, 1) (exactly, whatever their exponents) the
// product's error is far from the subnormals, where an fma could not
// represent it, so the fma's sign is exact.
int ProductResidual(double a, double b, double x) {
  if (x == 0) return Sign(a) * Sign(b);  // Underflowed to zero.
  const int ea = ExponentOf(a);
  const int eb = ExponentOf(b);
  return Sign(std::fma(std::ldexp(a, -ea), std::ldexp(b, -eb),
                       -std::ldexp(x, -ea - eb)));
}

// sign(n / d - x) for x = n / d rounded: sign(n - x d) sign(d), scaled as
// above (x d is near n).
int QuotientResidual(double n, double d, double x) {
  if (x == 0) return Sign(n) * Sign(d);
  const int ex = ExponentOf(x);
  const int ed = ExponentOf(d);
  return Sign(std::fma(-std::ldexp(x, -ex), std::ldexp(d, -ed),
                       std::ldexp(n, -ex - ed))) *
         Sign(d);
}

// sign(sqrt(a) - x) for x = sqrt(a) rounded: sign(a - x^2).
int RootResidual(double a, double x) {
  const int ex = ExponentOf(x);
  const double scaled = std::ldexp(x, -ex);
  return Sign(std::fma(-scaled, scaled, std::ldexp(a, -2 * ex)));
}

// The same for double operands: the result rounded to nearest and the
// sign of its error. A finite exact value that overflows reports the error
// towards it. No fma: decoding refuses directed rounding for fma.f64,
// whose error would need the exact sum of three doubles.
template <FloatOp kOp>
double DoubleWithResidual(double a, double b, Rounding rounding,
                          int* residual) {
  *residual = 0;
  double x;
  bool exact_infinity = false;  // An infinite operand or a division by 0.
  if constexpr (kOp == FloatOp::kAdd || kOp == FloatOp::kSub) {
    const double addend = kOp == FloatOp::kAdd ? b : -b;
    x = a + addend;
    *residual = SumResidual(a, addend, x);
    x = ZeroSum(x, a, addend, rounding);
    exact_infinity = !std::isfinite(a) || !std::isfinite(b);
  } else if constexpr (kOp == FloatOp::kMul) {
    x = a * b;
    exact_infinity = !std::isfinite(a) || !std::isfinite(b);
    if (std::isfinite(x) && a != 0 && b != 0) {
      *residual = ProductResidual(a, b, x);
    }
  } else if constexpr (kOp == FloatOp::kDiv || kOp == FloatOp::kRcp) {
    const double n = kOp == FloatOp::kDiv ? a : 1.0;
    const double d = kOp == FloatOp::kDiv ? b : a;
    x = n / d;
    exact_infinity = !std::isfinite(n) || !std::isfinite(d) || d == 0;
    if (std::isfinite(x) && !exact_infinity && n != 0) {
      *residual = QuotientResidual(n, d, x);
    }
  } else {
    static_assert(kOp == FloatOp::kSqrt);
    x = std::sqrt(a);
    exact_infinity = !std::isfinite(a);
    if (std::isfinite(x) && a > 0) *residual = RootResidual(a, x);
  }
  if (std::isinf(x) && !exact_infinity) *residual = -Sign(x);
  return x;
}

// Round-to-nearest in T's native (or f32) arithmetic.
template <FloatOp kOp, typename N>
N NearestNative(N a, N b, N c) {
  if constexpr (kOp == FloatOp::kAdd) return a + b;
  if constexpr (kOp == FloatOp::kSub) return a - b;
  if constexpr (kOp == FloatOp::kMul) return a * b;
  if constexpr (kOp == FloatOp::kDiv) return a / b;
  if constexpr (kOp == FloatOp::kRcp) return N{1} / a;
  if constexpr (kOp == FloatOp::kSqrt) return std::sqrt(a);
  if constexpr (kOp == FloatOp::kFma) return std::fma(a, b, c);
  return N{};
}

// add, sub, mul, div, fma, sqrt, rcp: correctly rounded in the
// instruction's rounding mode, with its ftz and sat.
template <FloatOp kOp, FloatValue T>
T Arithmetic(T a, T b, T c, const Instruction& in) {
  if (in.ftz) {
    a = Flush(a);
    b = Flush(b);
    c = Flush(c);
  }
  T result;
  if constexpr (std::same_as<T, double> && kOp == FloatOp::kFma) {
    result = std::fma(a, b, c);
  } else if constexpr (std::same_as<T, double>) {
    if (in.rounding == Rounding::kNearestEven) {
      result = NearestNative<kOp>(a, b, c);
    } else {
      int residual = 0;
      const double x = DoubleWithResidual<kOp>(a, b, in.rounding, &residual);
      result = RoundToDouble(x, residual, in.rounding);
    }
  } else {
    // f32 arithmetic rounds once for f32, and harmlessly twice for the
    // 16-bit formats except in fma.
    constexpr bool kNativeIsExact =
        std::same_as<T, float> || kOp != FloatOp::kFma;
    if (kNativeIsExact && in.rounding == Rounding::kNearestEven) {
      result =
          FromFloat<T>(NearestNative<kOp>(Native(a), Native(b), Native(c)));
    } else {
      int residual = 0;
      const double x = ExactInDouble<kOp>(ToDouble(a), ToDouble(b), ToDouble(c),
                                          in.rounding, &residual);
      result = FromDouble<T>(x, residual, in.rounding);
    }
  }
  if (in.sat) result = Saturate(result);
  if (in.ftz) result = Flush(result);
  return result;
}

// The .approx functions: computed in double and rounded to nearest, well
// inside the error bounds PTX documents for them.
template <FloatOp kOp>
double Approximate(double a, double b) {
  if constexpr (kOp == FloatOp::kSqrtApprox) return std::sqrt(a);
  if constexpr (kOp == FloatOp::kRcpApprox) return 1.0 / a;
  if constexpr (kOp == FloatOp::kDivApprox) return a / b;
  if constexpr (kOp == FloatOp::kRsqrtApprox) return 1.0 / std::sqrt(a);
  if constexpr (kOp == FloatOp::kSinApprox) return std::sin(a);
  if constexpr (kOp == FloatOp::kCosApprox) return std::cos(a);
  if constexpr (kOp == FloatOp::kLg2Approx) return std::log2(a);
  if constexpr (kOp == FloatOp::kEx2Approx) return std::exp2(a);
  if constexpr (kOp == FloatOp::kTanhApprox) return std::tanh(a);
  return 0;
}

template <FloatOp kOp, FloatValue T>
T ApproximateValue(T a, T b, const Instruction& in) {
  if (in.ftz) {
    a = Flush(a);
    b = Flush(b);
  }
  T result = FromDouble<T>(Approximate<kOp>(ToDouble(a), ToDouble(b)), 0,
                           Rounding::kNearestEven);
  if (in.sat) result = Saturate(result);
  if (in.ftz) result = Flush(result);
  return result;
}

// min and max: a NaN operand gives the other (or, .NaN, a NaN); -0 < +0.
template <FloatOp kOp, FloatValue T>
T MinMax(T a, T b, const Instruction& in) {
  if (in.ftz) {
    a = Flush(a);
    b = Flush(b);
  }
  constexpr bool kPropagateNan =
      kOp == FloatOp::kMinNaN || kOp == FloatOp::kMaxNaN;
  constexpr bool kMax = kOp == FloatOp::kMax || kOp == FloatOp::kMaxNaN;
  const bool a_nan = IsNan(a);
  const bool b_nan = IsNan(b);
  if (a_nan || b_nan) {
    if (kPropagateNan || (a_nan && b_nan)) return CanonicalNan<T>();
    return a_nan ? b : a;
  }
  const auto x = Native(a);
  const auto y = Native(b);
  if (x == y) {
    // Equal: only the sign of a zero can differ.
    const bool pick_a = kMax ? !std::signbit(x) : std::signbit(x);
    return pick_a ? a : b;
  }
  return (kMax ? x > y : x < y) ? a : b;
}

template <FloatOp kOp, FloatValue T>
T UnaryValue(T a, const Instruction& in) {
  if constexpr (kOp == FloatOp::kNeg || kOp == FloatOp::kAbs) {
    // Sign-bit operations, NaNs included.
    if (in.ftz) a = Flush(a);
    const Slot bits = ToSlot(a);
    return FromSlot<T>(kOp == FloatOp::kNeg ? bits ^ kSignBit<T>
                                            : bits & ~kSignBit<T>);
  } else if constexpr (kOp == FloatOp::kRoundToIntegral) {
    if (in.ftz) a = Flush(a);
    // An integral value of T is representable in T: no second rounding.
    T result = FromDouble<T>(RoundToIntegral(ToDouble(a), in.rounding), 0,
                             Rounding::kNearestEven);
    if (in.sat) result = Saturate(result);
    return result;
  } else if constexpr (kOp == FloatOp::kSqrt || kOp == FloatOp::kRcp) {
    return Arithmetic<kOp>(a, a, a, in);
  } else {
    return ApproximateValue<kOp>(a, a, in);
  }
}

template <FloatOp kOp, FloatValue T>
T BinaryValue(T a, T b, const Instruction& in) {
  if constexpr (kOp == FloatOp::kMin || kOp == FloatOp::kMax ||
                kOp == FloatOp::kMinNaN || kOp == FloatOp::kMaxNaN) {
    return MinMax<kOp>(a, b, in);
  } else if constexpr (kOp == FloatOp::kDivApprox) {
    return ApproximateValue<kOp>(a, b, in);
  } else if constexpr (kOp == FloatOp::kCopysign) {
    // Sign-bit operation, NaNs included.
    return FromSlot<T>((ToSlot(b) & ~kSignBit<T>) | (ToSlot(a) & kSignBit<T>));
  } else {
    return Arithmetic<kOp>(a, b, b, in);
  }
}

template <FloatOp kOp, FloatValue T>
void RunUnary(const Instruction& in, Slot* s) {
  s[in.d] = ToSlot(UnaryValue<kOp>(FromSlot<T>(s[in.a]), in));
}

template <FloatOp kOp, FloatValue T>
void RunBinary(const Instruction& in, Slot* s) {
  s[in.d] =
      ToSlot(BinaryValue<kOp>(FromSlot<T>(s[in.a]), FromSlot<T>(s[in.b]), in));
}

template <FloatValue T>
void RunFma(const Instruction& in, Slot* s) {
  s[in.d] = ToSlot(Arithmetic<FloatOp::kFma>(
      FromSlot<T>(s[in.a]), FromSlot<T>(s[in.b]), FromSlot<T>(s[in.c]), in));
}

enum class Arity { kUnary, kBinary, kTernary };

constexpr Arity ArityOf(FloatOp op) {
  switch (op) {
    case FloatOp::kAdd:
    case FloatOp::kSub:
    case FloatOp::kMul:
    case FloatOp::kDiv:
    case FloatOp::kMin:
    case FloatOp::kMax:
    case FloatOp::kMinNaN:
    case FloatOp::kMaxNaN:
    case FloatOp::kDivApprox:
    case FloatOp::kCopysign:
      return Arity::kBinary;
    case FloatOp::kFma:
      return Arity::kTernary;
    default:
      return Arity::kUnary;
  }
}

template <FloatOp kOp>
ComputeFn Select(Type type) {
  return VisitType<ComputeFn>(type, nullptr, [](auto tag) -> ComputeFn {
    using T = typename decltype(tag)::type;
    if constexpr (!FloatValue<T>) {
      return nullptr;
    } else if constexpr (ArityOf(kOp) == Arity::kUnary) {
      return &RunUnary<kOp, T>;
    } else if constexpr (ArityOf(kOp) == Arity::kBinary) {
      return &RunBinary<kOp, T>;
    } else {
      return &RunFma<T>;
    }
  });
}

}  // namespace

ComputeFn FloatOperation(FloatOp op, Type type) {
  switch (op) {
    case FloatOp::kAdd:
      return Select<FloatOp::kAdd>(type);
    case FloatOp::kSub:
      return Select<FloatOp::kSub>(type);
    case FloatOp::kMul:
      return Select<FloatOp::kMul>(type);
    case FloatOp::kDiv:
      return Select<FloatOp::kDiv>(type);
    case FloatOp::kFma:
      return Select<FloatOp::kFma>(type);
    case FloatOp::kMin:
      return Select<FloatOp::kMin>(type);
    case FloatOp::kMax:
      return Select<FloatOp::kMax>(type);
    case FloatOp::kMinNaN:
      return Select<FloatOp::kMinNaN>(type);
    case FloatOp::kMaxNaN:
      return Select<FloatOp::kMaxNaN>(type);
    case FloatOp::kNeg:
      return Select<FloatOp::kNeg>(type);
    case FloatOp::kAbs:
      return Select<FloatOp::kAbs>(type);
    case FloatOp::kCopysign:
      return Select<FloatOp::kCopysign>(type);
    case FloatOp::kSqrt:
      return Select<FloatOp::kSqrt>(type);
    case FloatOp::kRcp:
      return Select<FloatOp::kRcp>(type);
    case FloatOp::kSqrtApprox:
      return Select<FloatOp::kSqrtApprox>(type);
    case FloatOp::kRcpApprox:
      return Select<FloatOp::kRcpApprox>(type);
    case FloatOp::kDivApprox:
      return Select<FloatOp::kDivApprox>(type);
    case FloatOp::kRsqrtApprox:
      return Select<FloatOp::kRsqrtApprox>(type);
    case FloatOp::kSinApprox:
      return Select<FloatOp::kSinApprox>(type);
    case FloatOp::kCosApprox:
      return Select<FloatOp::kCosApprox>(type);
    case FloatOp::kLg2Approx:
      return Select<FloatOp::kLg2Approx>(type);
    case FloatOp::kEx2Approx:
      return Select<FloatOp::kEx2Approx>(type);
    case FloatOp::kTanhApprox:
      return Select<FloatOp::kTanhApprox>(type);
    case FloatOp::kRoundToIntegral:
      return Select<FloatOp::kRoundToIntegral>(type);
  }
  return nullptr;
}

}  // namespace fake_cuda::ptx
