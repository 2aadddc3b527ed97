#include "runtime/cpu/special_functions.h"

#include <cmath>
#include <limits>
#include <numbers>

#include "compiler_stub/ir/special_function_constants.h"

namespace pjrtx::cpu {
namespace {

template <size_t N>
double Horner(const std::array<double, N>& c, double x) {
  double r = c[0];
  for (size_t i = 1; i < N; ++i) r = r * x + c[i];
  return r;
}

}  // namespace

double ErfInv(double y) {
  const double a = std::fabs(y);
  if (a == 1) return std::copysign(std::numeric_limits<double>::infinity(), y);
  if (!(a < 1)) return std::numeric_limits<double>::quiet_NaN();
  const double w = -std::log((1 - a) * (1 + a));
  const double x = a * (w < ir::kErfInvCentralEnd
                            ? Horner(ir::kErfInvCentralFit, w)
                            : Horner(ir::kErfInvTailFit, std::sqrt(w)));
  // Halley on f(x) = erf(x) - a: with u = f / f', x - u / (1 + x u)
  // (f'' = -2x f').
  const double residual = a < 0.5 ? std::erf(x) - a : (1 - a) - std::erfc(x);
  const double slope = 2 / std::sqrt(std::numbers::pi) * std::exp(-x * x);
  const double u = residual / slope;
  return std::copysign(x - u / (1 + x * u), y);
}

double LogGamma(double x) {
  int sign;
  return lgamma_r(x, &sign);
}

double Digamma(double x) {
  if (x <= 0 && x == std::floor(x)) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  double reflection = 0;
  if (x < 0.5) {
    // psi(x) = psi(1 - x) - pi / tan(pi x), with x reduced mod 2 first so
    // that pi x carries no large rounding error.
    const double r = x - 2 * std::nearbyint(x / 2);
    reflection = -std::numbers::pi / std::tan(std::numbers::pi * r);
    x = 1 - x;
  }
  double shift = 0;
  for (; x < 10; x += 1) shift += 1 / x;
  const double inverse_square = 1 / (x * x);
  double power = inverse_square;
  double series = 0;
  for (int k = 1; k <= 7; ++k) {
    series += ir::kBernoulli[k - 1] / (2 * k) * power;
    power *= inverse_square;
  }
  return std::log(x) - 0.5 / x - series - shift + reflection;
}

}  // namespace pjrtx::cpu
