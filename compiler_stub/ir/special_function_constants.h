// Constants of the special functions the CPU and PTX kernels both compute
// (runtime/cpu/special_functions.cc, compiler_stub/ptx/math_functions.cc).
//
// The polynomial fits erf_inv starts from: Chebyshev fits of degree 12 of
// erfinv(y) / y, in w = -log(1 - y^2) on [0, 6.25] and in sqrt(w) on [2.5, 6.1]
// (sqrt(w) is 6.0 at the largest double below 1), made by
// scripts/special_function_constants.py. Their errors, 1e-9 and 6e-8, are
// what one Halley step on erf(x) = y takes below f64's rounding. Highest
// power first, as Horner's rule takes them.
#ifndef PJRTX_COMPILER_STUB_IR_SPECIAL_FUNCTION_CONSTANTS_H_
#define PJRTX_COMPILER_STUB_IR_SPECIAL_FUNCTION_CONSTANTS_H_

#include <array>

namespace pjrtx::ir {

// Where the central fit ends (in w) and the tail fit takes over.
inline constexpr double kErfInvCentralEnd = 6.25;

inline constexpr std::array<double, 13> kErfInvCentralFit = {
    -1.2570814414523687e-11, 4.7709375702375541e-10,  -7.2614269354355026e-09,
    5.0314094879598975e-08,  -6.1915299863750884e-08, -1.1691352011907989e-06,
    2.7139718212882321e-06,  4.5251158659606087e-05,  -0.00012655586206886682,
    -0.0023360041204652897,  0.01154961467899298,     0.23201363513775869,
    0.88622692603687125};

inline constexpr std::array<double, 13> kErfInvTailFit = {
    -1.8774899500916977e-07, 9.8972746827085333e-06, -0.00023662189088503998,
    0.0033879084010476558,   -0.032294578167509837,  0.21535904738147704,
    -1.0263462234141438,     3.5018816045825045,     -8.4096009289785183,
    13.622544800802428,      -13.610781275880147,    7.7861464262199833,
    -0.88121776251351314};

// zeta(k) - 1 for k = 2..28, for the series of log Gamma around 1 and 2:
// log Gamma(1 + e) = -gamma e + sum (-1)^k zeta(k) / k e^k and
// log Gamma(2 + e) = (1 - gamma) e + sum (-1)^k (zeta(k) - 1) / k e^k,
// k >= 2 (scripts/special_function_constants.py).
inline constexpr std::array<double, 27> kZetaMinusOne = {
    0.64493406684822641,    0.20205690315959429,    0.082323233711138186,
    0.036927755143369927,   0.01734306198444914,    0.0083492773819228271,
    0.0040773561979443396,  0.0020083928260822143,  0.00099457512781808526,
    0.00049418860411946453, 0.00024608655330804832, 0.00012271334757848915,
    6.1248135058704828e-05, 3.0588236307020493e-05, 1.5282259408651871e-05,
    7.6371976378997626e-06, 3.8172932649998402e-06, 1.908212716553939e-06,
    9.5396203387279621e-07, 4.7693298678780645e-07, 2.38450502727733e-07,
    1.1921992596531106e-07, 5.960818905125948e-08,  2.9803503514652279e-08,
    1.4901554828365043e-08, 7.4507117898354301e-09, 3.7253340247884573e-09};

// The Euler-Mascheroni constant.
inline constexpr double kEulerGamma = 0.57721566490153286;

// The Bernoulli numbers B_2, B_4, ..., B_14, for the asymptotic series of
// log Gamma and digamma.
inline constexpr std::array<double, 7> kBernoulli = {
    1.0 / 6, -1.0 / 30, 1.0 / 42, -1.0 / 30, 5.0 / 66, -691.0 / 2730, 7.0 / 6};

}  // namespace pjrtx::ir

#endif  // PJRTX_COMPILER_STUB_IR_SPECIAL_FUNCTION_CONSTANTS_H_
