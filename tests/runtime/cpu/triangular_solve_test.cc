// triangular_solve on the CPU: every combination of side, triangle and
// transposition against the product it must invert, batches, and the
// entries the op must never read (the other triangle, and the diagonal
// when unit_diagonal), which hold NaN here.
#include <cmath>
#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/cpu/kernels.h"
#include "runtime/cpu/literal.h"
#include "tests/runtime/cpu/structural_test_util.h"

namespace pjrtx::cpu {
namespace {

using ::pjrtx::cpu::testing::Floats;
using ::pjrtx::cpu::testing::FloatsOf;
using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::Pointwise;

// A 3x3 triangle (lower or upper) with NaN in the other triangle, and on
// the diagonal too when `unit` (the op must take it as ones).
std::vector<double> Triangle(bool lower, bool unit) {
  const double values[3][3] = {{2, 3, 5}, {7, 4, 11}, {13, 17, 8}};
  std::vector<double> a(9);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const bool inside = lower ? j < i : j > i;
      const bool diagonal = i == j;
      a[i * 3 + j] = inside || (diagonal && !unit) ? values[i][j] : NAN;
    }
  }
  return a;
}

// The matrix op(a) stands for: the triangle, ones on the diagonal when
// `unit`, zeros elsewhere, transposed when `transpose`.
std::vector<double> Effective(const std::vector<double>& a, bool lower,
                              bool unit, bool transpose) {
  std::vector<double> m(9, 0.0);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const bool inside = lower ? j < i : j > i;
      double v = inside ? a[i * 3 + j] : 0.0;
      if (i == j) v = unit ? 1.0 : a[i * 3 + j];
      m[transpose ? j * 3 + i : i * 3 + j] = v;
    }
  }
  return m;
}

// rows x inner times inner x cols.
std::vector<double> Product(const std::vector<double>& x,
                            const std::vector<double>& y, int rows, int inner,
                            int cols) {
  std::vector<double> out(rows * cols, 0.0);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      for (int k = 0; k < inner; ++k) {
        out[i * cols + j] += x[i * inner + k] * y[k * cols + j];
      }
    }
  }
  return out;
}

TEST(TriangularSolveTest, EveryVariantInvertsItsProduct) {
  // x is known; b = op(a) x (left) or x op(a) (right); solving gives x back.
  const std::vector<double> x_left = {1, -2, 0.5, 3, 0.25, -1};   // 3x2.
  const std::vector<double> x_right = {1, -2, 0.5, 3, 0.25, -1};  // 2x3.
  for (bool left_side : {true, false}) {
    for (bool lower : {true, false}) {
      for (bool unit : {false, true}) {
        for (bool transpose : {false, true}) {
          SCOPED_TRACE(::testing::Message()
                       << "left_side " << left_side << " lower " << lower
                       << " unit_diagonal " << unit << " transpose "
                       << transpose);
          const std::vector<double> a = Triangle(lower, unit);
          const std::vector<double> m = Effective(a, lower, unit, transpose);
          const std::vector<double> b = left_side
                                            ? Product(m, x_left, 3, 3, 2)
                                            : Product(x_right, m, 2, 3, 3);
          const std::vector<int64_t> b_dims = left_side
                                                  ? std::vector<int64_t>{3, 2}
                                                  : std::vector<int64_t>{2, 3};
          Literal result = TriangularSolve(
              Floats(ElementType::kF64, {3, 3}, a),
              Floats(ElementType::kF64, b_dims, b),
              TriangularSolveOptions{left_side, lower, unit, transpose});
          EXPECT_EQ(result.dims(), b_dims);
          EXPECT_THAT(
              FloatsOf(result),
              Pointwise(DoubleNear(1e-12), left_side ? x_left : x_right));
        }
      }
    }
  }
}

TEST(TriangularSolveTest, BatchesSolveTheirOwnSystems) {
  // Two 2x2 lower systems, one right-hand side each.
  Literal a =
      Floats(ElementType::kF32, {2, 2, 2}, {2, NAN, 1, 4, 1, NAN, 3, 2});
  Literal b = Floats(ElementType::kF32, {2, 2, 1}, {4, 10, 1, 7});
  Literal x = TriangularSolve(a, b, TriangularSolveOptions{});
  // First: 2 x0 = 4, x0 + 4 x1 = 10. Second: x0 = 1, 3 x0 + 2 x1 = 7.
  EXPECT_THAT(FloatsOf(x), ElementsAre(2, 2, 1, 2));
}

TEST(TriangularSolveTest, NarrowTypesRoundOnceWhenStored) {
  // 1/3 in f16 is the nearest f16 to the exact quotient.
  Literal x = TriangularSolve(Floats(ElementType::kF16, {1, 1}, {3}),
                              Floats(ElementType::kF16, {1, 1}, {1}),
                              TriangularSolveOptions{});
  EXPECT_EQ(x.type(), ElementType::kF16);
  EXPECT_EQ(FloatsOf(x)[0], 0.333251953125);
}

TEST(TriangularSolveTest, ZeroOnTheDiagonalGivesIeeeResults) {
  Literal x = TriangularSolve(Floats(ElementType::kF32, {2, 2}, {0, 0, 1, 1}),
                              Floats(ElementType::kF32, {2, 1}, {1, 1}),
                              TriangularSolveOptions{});
  // x0 = 1 / 0 = +inf; x1 = (1 - 1 * inf) / 1 = -inf.
  EXPECT_THAT(FloatsOf(x), ElementsAre(INFINITY, -INFINITY));
}

TEST(TriangularSolveTest, EmptySystemsGiveEmptyResults) {
  Literal x = TriangularSolve(Floats(ElementType::kF32, {0, 0}, {}),
                              Floats(ElementType::kF32, {0, 4}, {}),
                              TriangularSolveOptions{});
  EXPECT_EQ(x.num_elements(), 0);
}

}  // namespace
}  // namespace pjrtx::cpu
