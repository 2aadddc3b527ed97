#include "runtime/cpu/special_functions.h"

#include <cmath>
#include <limits>
#include <numbers>

#include "compiler_stub/ir/erf_inv_fit.h"

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

}  // namespace pjrtx::cpu
