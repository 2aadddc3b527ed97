// Tests of the elementwise kernels of kernels.h. Expected values follow the
// StableHLO spec and reference interpreter semantics.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "compiler_stub/ir/float_formats.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/cpu/kernels.h"
#include "runtime/cpu/literal.h"

namespace pjrtx::cpu {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kInt32Min = std::numeric_limits<int32_t>::min();
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

using Ty = ElementType;

// A rank-1 Literal (rank 0 when `scalar`) built with SetInt.
Literal Ints(Ty type, std::vector<int64_t> values, bool scalar = false) {
  Literal literal(Shape{
      type, scalar
                ? std::vector<int64_t>{}
                : std::vector<int64_t>{static_cast<int64_t>(values.size())}});
  for (size_t i = 0; i < values.size(); ++i) literal.SetInt(i, values[i]);
  return literal;
}
Literal Floats(Ty type, std::vector<double> values, bool scalar = false) {
  Literal literal(Shape{
      type, scalar
                ? std::vector<int64_t>{}
                : std::vector<int64_t>{static_cast<int64_t>(values.size())}});
  for (size_t i = 0; i < values.size(); ++i) literal.SetFloat(i, values[i]);
  return literal;
}
Literal Preds(std::vector<bool> values, bool scalar = false) {
  Literal literal(Shape{
      Ty::kPred,
      scalar ? std::vector<int64_t>{}
             : std::vector<int64_t>{static_cast<int64_t>(values.size())}});
  for (size_t i = 0; i < values.size(); ++i) literal.SetInt(i, values[i]);
  return literal;
}
// Raw element bits, little-endian in each element's storage.
Literal FromBits(Ty type, std::vector<uint64_t> bits) {
  Literal literal(Shape{type, {static_cast<int64_t>(bits.size())}});
  const size_t size = ir::StorageSize(type);
  for (size_t i = 0; i < bits.size(); ++i) {
    std::memcpy(literal.data() + i * size, &bits[i], size);
  }
  return literal;
}

std::vector<int64_t> IntsOf(const Literal& literal) {
  std::vector<int64_t> values;
  for (int64_t i = 0; i < literal.num_elements(); ++i) {
    values.push_back(literal.GetInt(i));
  }
  return values;
}
std::vector<uint64_t> UIntsOf(const Literal& literal) {
  std::vector<uint64_t> values;
  for (int64_t i = 0; i < literal.num_elements(); ++i) {
    values.push_back(literal.GetUInt(i));
  }
  return values;
}
std::vector<bool> PredsOf(const Literal& literal) {
  std::vector<bool> values;
  for (int64_t i = 0; i < literal.num_elements(); ++i) {
    values.push_back(literal.GetInt(i) != 0);
  }
  return values;
}
std::vector<uint64_t> BitsOf(const Literal& literal) {
  std::vector<uint64_t> bits;
  const size_t size = ir::StorageSize(literal.type());
  for (int64_t i = 0; i < literal.num_elements(); ++i) {
    uint64_t value = 0;
    std::memcpy(&value, literal.data() + i * size, size);
    bits.push_back(value);
  }
  return bits;
}

// Checks floats: NaN matches NaN, zeros must have the expected sign, and
// other values agree within `relative_tolerance`.
void ExpectFloats(const Literal& literal, std::vector<double> expected,
                  double relative_tolerance = 0) {
  ASSERT_EQ(literal.num_elements(), static_cast<int64_t>(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i) {
    const double actual = literal.GetFloat(i);
    if (std::isnan(expected[i])) {
      EXPECT_TRUE(std::isnan(actual)) << "element " << i << ": " << actual;
    } else if (expected[i] == 0 || std::isinf(expected[i])) {
      EXPECT_EQ(actual, expected[i]) << "element " << i;
      EXPECT_EQ(std::signbit(actual), std::signbit(expected[i]))
          << "element " << i;
    } else {
      EXPECT_NEAR(actual, expected[i],
                  std::abs(expected[i]) * relative_tolerance)
          << "element " << i;
    }
  }
}

Literal UnaryOk(UnaryOp op, const Literal& x) {
  Shape result = x.shape();
  if (op == UnaryOp::kIsFinite) result.type = Ty::kPred;
  absl::StatusOr<Literal> out = Unary(op, x, result);
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? *std::move(out) : Literal();
}
Literal BinaryOk(BinaryOp op, const Literal& lhs, const Literal& rhs) {
  absl::StatusOr<Literal> out = Binary(op, lhs, rhs, lhs.shape());
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? *std::move(out) : Literal();
}

// ------------------------------- Unary ---------------------------------

TEST(UnaryTest, AbsWrapsIntegersAndClearsFloatSigns) {
  EXPECT_THAT(
      IntsOf(UnaryOk(UnaryOp::kAbs, Ints(Ty::kS64, {-2, 0, 2, kInt64Min}))),
      ElementsAre(2, 0, 2, kInt64Min));
  EXPECT_THAT(IntsOf(UnaryOk(UnaryOp::kAbs, Ints(Ty::kS8, {-128, -5}))),
              ElementsAre(-128, 5));
  EXPECT_THAT(IntsOf(UnaryOk(UnaryOp::kAbs, Ints(Ty::kS4, {-8, -7, 3}))),
              ElementsAre(-8, 7, 3));
  EXPECT_THAT(IntsOf(UnaryOk(UnaryOp::kAbs, Ints(Ty::kS2, {-2, -1}))),
              ElementsAre(-2, 1));
  ExpectFloats(UnaryOk(UnaryOp::kAbs, Floats(Ty::kF64, {23.1, -23.1, -0.0})),
               {23.1, 23.1, 0.0});
  ExpectFloats(UnaryOk(UnaryOp::kAbs, Floats(Ty::kF8E4M3FN, {-448, -0.0})),
               {448, 0.0});
}

TEST(UnaryTest, CeilAndFloorKeepSpecialValues) {
  const double tiny = std::ldexp(1.0, -133);  // bf16's smallest subnormal.
  for (Ty type : {Ty::kBF16, Ty::kF32, Ty::kF64}) {
    const Literal x =
        Floats(type, {-kInf, -2.5, -tiny, -0.0, 0.0, tiny, 2.5, kInf, kNaN});
    ExpectFloats(UnaryOk(UnaryOp::kCeil, x),
                 {-kInf, -2, -0.0, -0.0, 0.0, 1, 3, kInf, kNaN});
    ExpectFloats(UnaryOk(UnaryOp::kFloor, x),
                 {-kInf, -3, -1, -0.0, 0.0, 0.0, 2, kInf, kNaN});
  }
  const Literal half = FromBits(Ty::kF16, {0xFC00, 0x8001, 0x0001, 0x7E00});
  ExpectFloats(UnaryOk(UnaryOp::kCeil, half), {-kInf, -0.0, 1, kNaN});
  ExpectFloats(UnaryOk(UnaryOp::kFloor, half), {-kInf, -1, 0.0, kNaN});
}

TEST(UnaryTest, CountLeadingZerosWithinTheTypeWidth) {
  Literal x(Shape{Ty::kS64, {2, 2}});
  for (int i = 0; i < 4; ++i)
    x.SetInt(i, std::vector<int64_t>{0, 1, 128, -1}[i]);
  const Literal out = UnaryOk(UnaryOp::kCountLeadingZeros, x);
  EXPECT_EQ(out.dims(), (std::vector<int64_t>{2, 2}));
  EXPECT_THAT(IntsOf(out), ElementsAre(64, 63, 56, 0));
  EXPECT_THAT(IntsOf(UnaryOk(UnaryOp::kCountLeadingZeros,
                             Ints(Ty::kS4, {0, 1, 7, -1}))),
              ElementsAre(4, 3, 1, 0));
  EXPECT_THAT(
      IntsOf(UnaryOk(UnaryOp::kCountLeadingZeros, Ints(Ty::kU8, {0, 1, 255}))),
      ElementsAre(8, 7, 0));
  // clz(0) = 2 does not fit si2: it wraps to -2.
  EXPECT_THAT(
      IntsOf(UnaryOk(UnaryOp::kCountLeadingZeros, Ints(Ty::kS2, {0, 1}))),
      ElementsAre(-2, 1));
  EXPECT_THAT(IntsOf(UnaryOk(UnaryOp::kCountLeadingZeros, Ints(Ty::kU32, {1}))),
              ElementsAre(31));
}

TEST(UnaryTest, PopcntCountsTheTypesBits) {
  EXPECT_THAT(
      IntsOf(UnaryOk(UnaryOp::kPopcnt, Ints(Ty::kS64, {0, 1, 2, 127, -1}))),
      ElementsAre(0, 1, 1, 7, 64));
  EXPECT_THAT(IntsOf(UnaryOk(UnaryOp::kPopcnt, Ints(Ty::kS4, {-1, -8}))),
              ElementsAre(4, 1));
  EXPECT_THAT(IntsOf(UnaryOk(UnaryOp::kPopcnt, Ints(Ty::kU4, {15, 6}))),
              ElementsAre(4, 2));
  EXPECT_THAT(IntsOf(UnaryOk(UnaryOp::kPopcnt, Ints(Ty::kS16, {-1}))),
              ElementsAre(16));
}

TEST(UnaryTest, NegateWrapsIntegers) {
  EXPECT_THAT(
      IntsOf(UnaryOk(UnaryOp::kNegate, Ints(Ty::kS4, {-8, -1, 0, 1, 7}))),
      ElementsAre(-8, 1, 0, -1, -7));
  EXPECT_THAT(IntsOf(UnaryOk(UnaryOp::kNegate, Ints(Ty::kU4, {0, 8, 15}))),
              ElementsAre(0, 8, 1));
  EXPECT_THAT(IntsOf(UnaryOk(UnaryOp::kNegate, Ints(Ty::kU2, {1, 2}))),
              ElementsAre(3, 2));
  EXPECT_THAT(IntsOf(UnaryOk(UnaryOp::kNegate,
                             Ints(Ty::kS32, {kInt32Min, -65537, 65536}))),
              ElementsAre(kInt32Min, 65537, -65536));
  EXPECT_THAT(UIntsOf(UnaryOk(UnaryOp::kNegate,
                              Ints(Ty::kU64, {0, int64_t{1} << 32, -1}))),
              ElementsAre(0u, 18446744069414584320u, 1u));
  EXPECT_THAT(IntsOf(UnaryOk(UnaryOp::kNegate, Ints(Ty::kS64, {kInt64Min}))),
              ElementsAre(kInt64Min));
  ExpectFloats(
      UnaryOk(UnaryOp::kNegate, Floats(Ty::kF32, {0.0, -0.0, 0.1, kInf, kNaN})),
      {-0.0, 0.0, -0.1, -kInf, kNaN}, 1e-7);
  // NaN payloads survive negation in narrow formats.
  EXPECT_THAT(BitsOf(UnaryOk(UnaryOp::kNegate,
                             FromBits(Ty::kBF16, {0x7FFF, 0x0001, 0x7F80}))),
              ElementsAre(0xFFFF, 0x8001, 0xFF80));
  EXPECT_THAT(
      BitsOf(UnaryOk(UnaryOp::kNegate, FromBits(Ty::kF8E4M3FN, {0x7F, 0x01}))),
      ElementsAre(0xFF, 0x81));
}

TEST(UnaryTest, NotIsBitwiseForIntegersAndLogicalForPred) {
  EXPECT_THAT(IntsOf(UnaryOk(UnaryOp::kNot, Ints(Ty::kS4, {7, -8, 0}))),
              ElementsAre(-8, 7, -1));
  EXPECT_THAT(IntsOf(UnaryOk(UnaryOp::kNot, Ints(Ty::kU4, {0, 7, 15}))),
              ElementsAre(15, 8, 0));
  EXPECT_THAT(IntsOf(UnaryOk(UnaryOp::kNot, Ints(Ty::kU2, {0, 1}))),
              ElementsAre(3, 2));
  EXPECT_THAT(UIntsOf(UnaryOk(UnaryOp::kNot, Ints(Ty::kU64, {0}))),
              ElementsAre(std::numeric_limits<uint64_t>::max()));
  EXPECT_THAT(IntsOf(UnaryOk(UnaryOp::kNot, Ints(Ty::kS16, {32767}))),
              ElementsAre(-32768));
  EXPECT_THAT(PredsOf(UnaryOk(UnaryOp::kNot, Preds({false, true}))),
              ElementsAre(true, false));
  const Literal scalar = UnaryOk(UnaryOp::kNot, Preds({false}, true));
  EXPECT_TRUE(scalar.dims().empty());
  EXPECT_THAT(BitsOf(scalar), ElementsAre(1));
}

TEST(UnaryTest, Sign) {
  EXPECT_THAT(IntsOf(UnaryOk(UnaryOp::kSign, Ints(Ty::kS64, {-7, 0, 9}))),
              ElementsAre(-1, 0, 1));
  EXPECT_THAT(IntsOf(UnaryOk(UnaryOp::kSign, Ints(Ty::kS2, {-2, 0, 1}))),
              ElementsAre(-1, 0, 1));
  EXPECT_THAT(IntsOf(UnaryOk(UnaryOp::kSign, Ints(Ty::kU8, {0, 200}))),
              ElementsAre(0, 1));
  ExpectFloats(UnaryOk(UnaryOp::kSign,
                       Floats(Ty::kF64, {kNaN, -1.5, -0.0, 0.0, 3.0, -kInf})),
               {kNaN, -1, -0.0, 0.0, 1, -1});
  ExpectFloats(UnaryOk(UnaryOp::kSign, Floats(Ty::kF16, {-0.0, 65504, kNaN})),
               {-0.0, 1, kNaN});
}

TEST(UnaryTest, IsFiniteGivesPred) {
  const Literal f64 =
      Floats(Ty::kF64, {-kInf, kInf, kNaN, -10.0, -0.0, 0.0, 10.0});
  const Literal out = UnaryOk(UnaryOp::kIsFinite, f64);
  EXPECT_EQ(out.type(), Ty::kPred);
  EXPECT_THAT(PredsOf(out),
              ElementsAre(false, false, false, true, true, true, true));
  EXPECT_THAT(PredsOf(UnaryOk(UnaryOp::kIsFinite,
                              FromBits(Ty::kF8E4M3FN, {0x7F, 0x7E, 0xFF}))),
              ElementsAre(false, true, false));
  EXPECT_THAT(PredsOf(UnaryOk(UnaryOp::kIsFinite,
                              FromBits(Ty::kF8E5M2, {0x7C, 0x7B, 0x7D}))),
              ElementsAre(false, true, false));
  EXPECT_THAT(PredsOf(UnaryOk(UnaryOp::kIsFinite,
                              FromBits(Ty::kF16, {0x7C00, 0x7BFF}))),
              ElementsAre(false, true));
}

TEST(UnaryTest, RoundingModes) {
  for (Ty type : {Ty::kF16, Ty::kBF16, Ty::kF32, Ty::kF64}) {
    const Literal x = Floats(type, {-2.5, 0.4, 0.5, 0.6, 2.5, -0.5, 3.5});
    ExpectFloats(UnaryOk(UnaryOp::kRoundNearestAfz, x),
                 {-3, 0.0, 1, 1, 3, -1, 4});
    ExpectFloats(UnaryOk(UnaryOp::kRoundNearestEven, x),
                 {-2, 0.0, 0.0, 1, 2, -0.0, 4});
  }
}

TEST(UnaryTest, TranscendentalsInDouble) {
  const Literal x = Floats(Ty::kF64, {0.0, 1.0, 2.0, 3.0});
  ExpectFloats(
      UnaryOk(UnaryOp::kExponential, x),
      {1.0, 2.7182818284590451, 7.3890560989306504, 20.085536923187668}, 1e-15);
  ExpectFloats(
      UnaryOk(UnaryOp::kExponentialMinusOne, x),
      {0.0, 1.7182818284590451, 6.3890560989306504, 19.085536923187668}, 1e-15);
  ExpectFloats(
      UnaryOk(UnaryOp::kLogistic, x),
      {0.5, 0.73105857863000488, 0.88079707797788244, 0.95257412682243322},
      1e-15);
  ExpectFloats(UnaryOk(UnaryOp::kLog, Floats(Ty::kF64, {1, 2, 0, -1})),
               {0.0, 0.69314718055994529, -kInf, kNaN}, 1e-15);
  ExpectFloats(
      UnaryOk(UnaryOp::kLogPlusOne, Floats(Ty::kF64, {0.0, -0.999, 7.0})),
      {0.0, -6.9077552789821368, 2.0794415416798357}, 1e-15);
  ExpectFloats(UnaryOk(UnaryOp::kCbrt, Floats(Ty::kF64, {0, 8, -27})),
               {0.0, 2, -3}, 1e-15);
  ExpectFloats(UnaryOk(UnaryOp::kSqrt, Floats(Ty::kF64, {0, 4, 9, -1})),
               {0.0, 2, 3, kNaN});
  ExpectFloats(UnaryOk(UnaryOp::kRsqrt, Floats(Ty::kF64, {1, 4, 9, 0})),
               {1, 0.5, 0.33333333333333331, kInf}, 1e-15);
  ExpectFloats(UnaryOk(UnaryOp::kTan, Floats(Ty::kF64, {0, 1.57079632})),
               {0.0, 147169271.76124874}, 1e-12);
  ExpectFloats(
      UnaryOk(UnaryOp::kTanh, Floats(Ty::kF64, {-0.0, 1.0, kInf, -kInf})),
      {-0.0, 0.76159415595576485, 1, -1}, 1e-15);
  ExpectFloats(UnaryOk(UnaryOp::kSine, Floats(Ty::kF64, {-0.0, 1.0, kInf})),
               {-0.0, 0.8414709848078965, kNaN}, 1e-15);
  ExpectFloats(UnaryOk(UnaryOp::kCosine, Floats(Ty::kF64, {0.0, 1.0, -kInf})),
               {1.0, 0.54030230586813977, kNaN}, 1e-15);
}

TEST(UnaryTest, NarrowTypesRoundTheDoubleResultOnce) {
  // bf16 sine(3.140625) is the bf16 nearest to the true result.
  ExpectFloats(UnaryOk(UnaryOp::kSine, Floats(Ty::kBF16, {3.140625})),
               {ir::BFloat16ToFloat(ir::DoubleToBFloat16(std::sin(3.140625)))});
  ExpectFloats(UnaryOk(UnaryOp::kSine, Floats(Ty::kBF16, {3.140625})),
               {9.689330e-04}, 1e-5);
  ExpectFloats(UnaryOk(UnaryOp::kTanh, Floats(Ty::kF16, {0.125})),
               {1.243290e-01}, 1e-5);
  ExpectFloats(UnaryOk(UnaryOp::kExponential, Floats(Ty::kF32, {10.0f})),
               {static_cast<float>(std::exp(10.0))});
  // exp overflows to infinity in f16 and to NaN in E4M3FN.
  ExpectFloats(UnaryOk(UnaryOp::kExponential, Floats(Ty::kF16, {12.0})),
               {kInf});
  ExpectFloats(UnaryOk(UnaryOp::kExponential, Floats(Ty::kF8E4M3FN, {7.0})),
               {kNaN});
  ExpectFloats(UnaryOk(UnaryOp::kLogistic, Floats(Ty::kF8E5M2, {0.0, -100})),
               {0.5, 0.0});
  ExpectFloats(UnaryOk(UnaryOp::kSqrt, Floats(Ty::kF8E4M3FN, {4.0, 2.0})),
               {2.0, 1.375});  // sqrt(2) = 1.414 rounds to 1.375.
}

TEST(UnaryTest, UnsupportedCombinationsAreErrors) {
  absl::StatusOr<Literal> sine =
      Unary(UnaryOp::kSine, Ints(Ty::kS32, {1}), Shape{Ty::kS32, {1}});
  EXPECT_EQ(sine.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(sine.status().message(), HasSubstr("sine"));
  EXPECT_THAT(sine.status().message(), HasSubstr("si32"));
  EXPECT_FALSE(
      Unary(UnaryOp::kNot, Floats(Ty::kF32, {1}), Shape{Ty::kF32, {1}}).ok());
  EXPECT_FALSE(
      Unary(UnaryOp::kPopcnt, Floats(Ty::kF16, {1}), Shape{Ty::kF16, {1}})
          .ok());
  EXPECT_FALSE(
      Unary(UnaryOp::kNegate, Preds({true}), Shape{Ty::kPred, {1}}).ok());
  EXPECT_FALSE(
      Unary(UnaryOp::kIsFinite, Ints(Ty::kS8, {1}), Shape{Ty::kPred, {1}})
          .ok());
  // Result shapes that do not fit the operand.
  EXPECT_FALSE(
      Unary(UnaryOp::kAbs, Floats(Ty::kF32, {1}), Shape{Ty::kF32, {2}}).ok());
  EXPECT_FALSE(
      Unary(UnaryOp::kIsFinite, Floats(Ty::kF32, {1}), Shape{Ty::kF32, {1}})
          .ok());
}

TEST(UnaryTest, EmptyTensors) {
  const Literal empty(Shape{Ty::kS4, {2, 0, 3}});
  const Literal out = UnaryOk(UnaryOp::kNegate, empty);
  EXPECT_EQ(out.shape(), empty.shape());
}

// ------------------------------- Binary --------------------------------

TEST(BinaryTest, AddWrapsEveryIntegerWidth) {
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kAdd, Ints(Ty::kS2, {1, 0, -1, -2, 1}),
                              Ints(Ty::kS2, {-1, 1, 1, 1, 1}))),
              ElementsAre(0, 1, 0, -1, -2));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kAdd, Ints(Ty::kU2, {0, 2, 3}),
                              Ints(Ty::kU2, {1, 1, 1}))),
              ElementsAre(1, 3, 0));
  EXPECT_THAT(
      IntsOf(BinaryOk(BinaryOp::kAdd, Ints(Ty::kS4, {0, 1, 2, -3, 0, 7}),
                      Ints(Ty::kS4, {-8, -1, 2, -3, 7, 1}))),
      ElementsAre(-8, 0, 4, -6, 7, -8));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kAdd, Ints(Ty::kU4, {0, 2, 15}),
                              Ints(Ty::kU4, {15, 3, 1}))),
              ElementsAre(15, 5, 0));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kAdd, Ints(Ty::kS8, {127, -128}),
                              Ints(Ty::kS8, {1, -1}))),
              ElementsAre(-128, 127));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kAdd, Ints(Ty::kU16, {65535}),
                              Ints(Ty::kU16, {2}))),
              ElementsAre(1));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kAdd, Ints(Ty::kS32, {kInt32Max}),
                              Ints(Ty::kS32, {1}))),
              ElementsAre(kInt32Min));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kAdd, Ints(Ty::kS64, {kInt64Max}),
                              Ints(Ty::kS64, {1}))),
              ElementsAre(kInt64Min));
  EXPECT_THAT(UIntsOf(BinaryOk(BinaryOp::kAdd, Ints(Ty::kU64, {-1}),
                               Ints(Ty::kU64, {2}))),
              ElementsAre(1u));
  EXPECT_THAT(
      PredsOf(BinaryOk(BinaryOp::kAdd, Preds({false, false, true, true}),
                       Preds({false, true, false, true}))),
      ElementsAre(false, true, true, true));
}

TEST(BinaryTest, AddFloats) {
  ExpectFloats(
      BinaryOk(BinaryOp::kAdd,
               Floats(Ty::kF64, {0.0, -0.0, 1.0, 0.1, kInf, kInf, -kInf}),
               Floats(Ty::kF64, {0.0, -0.0, 7.0, 0.3, 0.0, -kInf, -kInf})),
      {0.0, -0.0, 8, 0.4, kInf, kNaN, -kInf}, 1e-15);
  ExpectFloats(BinaryOk(BinaryOp::kAdd, Floats(Ty::kF16, {0.1, 3.141}),
                        Floats(Ty::kF16, {0.3, 3.141})),
               {3.999020e-01, 6.281250e+00}, 1e-6);
  ExpectFloats(BinaryOk(BinaryOp::kAdd, Floats(Ty::kBF16, {0.1, 3.140625}),
                        Floats(Ty::kBF16, {0.3, 3.140625})),
               {4.003910e-01, 6.281250e+00}, 1e-6);
  // Smallest subnormals cancel to +0.
  ExpectFloats(BinaryOk(BinaryOp::kAdd, FromBits(Ty::kBF16, {0x0001}),
                        FromBits(Ty::kBF16, {0x8001})),
               {0.0});
  ExpectFloats(BinaryOk(BinaryOp::kAdd, Floats(Ty::kF8E4M3FN, {448, 1}),
                        Floats(Ty::kF8E4M3FN, {32, 0.0625})),
               {kNaN, 1.0});  // 480 overflows; 1.0625 ties to 1.
  ExpectFloats(BinaryOk(BinaryOp::kAdd, Floats(Ty::kF8E5M2, {57344}),
                        Floats(Ty::kF8E5M2, {8192})),
               {kInf});
}

TEST(BinaryTest, SubtractAndMultiply) {
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kSubtract, Ints(Ty::kU4, {0, 2}),
                              Ints(Ty::kU4, {15, 3}))),
              ElementsAre(1, 15));
  EXPECT_THAT(
      IntsOf(BinaryOk(BinaryOp::kSubtract, Ints(Ty::kS4, {0, 1, 2, -3, 0}),
                      Ints(Ty::kS4, {-8, -1, 2, -3, 7}))),
      ElementsAre(-8, 2, 0, 0, -7));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kSubtract, Ints(Ty::kS64, {0}),
                              Ints(Ty::kS64, {kInt64Min}))),
              ElementsAre(kInt64Min));
  ExpectFloats(BinaryOk(BinaryOp::kSubtract, Floats(Ty::kF32, {kInf, 1}),
                        Floats(Ty::kF32, {kInf, 1})),
               {kNaN, 0.0});
  EXPECT_THAT(
      IntsOf(BinaryOk(BinaryOp::kMultiply, Ints(Ty::kS8, {0, 1, 8, -9, 16}),
                      Ints(Ty::kS8, {-128, -1, 8, -9, 16}))),
      ElementsAre(0, -1, 64, 81, 0));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kMultiply, Ints(Ty::kU16, {256, 65535}),
                              Ints(Ty::kU16, {256, 65535}))),
              ElementsAre(0, 1));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kMultiply,
                              Ints(Ty::kS32, {32768, -32769, kInt32Min}),
                              Ints(Ty::kS32, {32768, -32769, -1}))),
              ElementsAre(1073741824, 1073807361, kInt32Min));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kMultiply, Ints(Ty::kS64, {kInt64Min}),
                              Ints(Ty::kS64, {-1}))),
              ElementsAre(kInt64Min));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kMultiply, Ints(Ty::kS4, {3, -4}),
                              Ints(Ty::kS4, {3, 2}))),
              ElementsAre(-7, -8));
  EXPECT_THAT(
      PredsOf(BinaryOk(BinaryOp::kMultiply, Preds({false, false, true, true}),
                       Preds({false, true, false, true}))),
      ElementsAre(false, false, false, true));
  ExpectFloats(BinaryOk(BinaryOp::kMultiply, Floats(Ty::kF64, {kInf, -0.0}),
                        Floats(Ty::kF64, {0.0, 5})),
               {kNaN, -0.0});
  EXPECT_FALSE(Binary(BinaryOp::kSubtract, Preds({true}), Preds({true}),
                      Shape{Ty::kPred, {1}})
                   .ok());
}

TEST(BinaryTest, IntegerDivisionEdgeCases) {
  EXPECT_THAT(
      IntsOf(BinaryOk(BinaryOp::kDivide, Ints(Ty::kS64, {17, -17, 17, -17}),
                      Ints(Ty::kS64, {3, 3, -3, -3}))),
      ElementsAre(5, -5, -5, 5));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kDivide, Ints(Ty::kU64, {17, 20}),
                              Ints(Ty::kU64, {3, 7}))),
              ElementsAre(5, 2));
  // Division by zero: all ones.
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kDivide, Ints(Ty::kS32, {5, -5, 0}),
                              Ints(Ty::kS32, {0, 0, 0}))),
              ElementsAre(-1, -1, -1));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kDivide, Ints(Ty::kU8, {5}),
                              Ints(Ty::kU8, {0}))),
              ElementsAre(255));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kDivide, Ints(Ty::kU4, {5}),
                              Ints(Ty::kU4, {0}))),
              ElementsAre(15));
  EXPECT_THAT(UIntsOf(BinaryOk(BinaryOp::kDivide, Ints(Ty::kU64, {5}),
                               Ints(Ty::kU64, {0}))),
              ElementsAre(std::numeric_limits<uint64_t>::max()));
  // INT_MIN / -1 overflows back to INT_MIN.
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kDivide, Ints(Ty::kS4, {-8, 7}),
                              Ints(Ty::kS4, {-1, -1}))),
              ElementsAre(-8, -7));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kDivide, Ints(Ty::kS32, {kInt32Min}),
                              Ints(Ty::kS32, {-1}))),
              ElementsAre(kInt32Min));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kDivide, Ints(Ty::kS64, {kInt64Min}),
                              Ints(Ty::kS64, {-1}))),
              ElementsAre(kInt64Min));
  ExpectFloats(BinaryOk(BinaryOp::kDivide, Floats(Ty::kF32, {17.1, 1, -1, 0}),
                        Floats(Ty::kF32, {-3, 0.0, 0.0, 0.0})),
               {-5.7, kInf, -kInf, kNaN}, 1e-6);
}

TEST(BinaryTest, Remainder) {
  EXPECT_THAT(
      IntsOf(BinaryOk(BinaryOp::kRemainder, Ints(Ty::kS64, {17, -17, 17, -17}),
                      Ints(Ty::kS64, {3, 3, -3, -3}))),
      ElementsAre(2, -2, 2, -2));
  EXPECT_THAT(
      IntsOf(BinaryOk(BinaryOp::kRemainder, Ints(Ty::kU64, {17, 18, 19, 20}),
                      Ints(Ty::kU64, {3, 4, 5, 7}))),
      ElementsAre(2, 2, 4, 6));
  // Remainder by zero is the dividend; INT_MIN % -1 is 0.
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kRemainder, Ints(Ty::kS8, {-7, -128}),
                              Ints(Ty::kS8, {0, -1}))),
              ElementsAre(-7, 0));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kRemainder, Ints(Ty::kS64, {kInt64Min}),
                              Ints(Ty::kS64, {-1}))),
              ElementsAre(0));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kRemainder, Ints(Ty::kU4, {13}),
                              Ints(Ty::kU4, {0}))),
              ElementsAre(13));
  // The result has the dividend's sign (fmod, not IEEE remainder).
  ExpectFloats(BinaryOk(BinaryOp::kRemainder,
                        Floats(Ty::kF64, {17.1, -17.1, 17.1, -17.1, -0.0, 1}),
                        Floats(Ty::kF64, {3, 3, -3, -3, 1, 0.0})),
               {2.1000000000000014, -2.1000000000000014, 2.1000000000000014,
                -2.1000000000000014, -0.0, kNaN});
  ExpectFloats(BinaryOk(BinaryOp::kRemainder, Floats(Ty::kF16, {7.5}),
                        Floats(Ty::kF16, {2})),
               {1.5});
}

TEST(BinaryTest, Power) {
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kPower,
                              Ints(Ty::kS64, {-1, -1, -3, 1, -3, 0, -1, 2}),
                              Ints(Ty::kS64, {1, 0, -3, -3, 3, 2, -2, 62}))),
              ElementsAre(-1, 1, 0, 1, -27, 0, 1, int64_t{1} << 62));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kPower, Ints(Ty::kU64, {0, 0, 1, 1, 5}),
                              Ints(Ty::kU64, {0, 1, 0, 2, 5}))),
              ElementsAre(1, 0, 1, 1, 3125));
  // Results wrap.
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kPower, Ints(Ty::kS8, {2, 3}),
                              Ints(Ty::kS8, {8, 5}))),
              ElementsAre(0, -13));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kPower, Ints(Ty::kS4, {2, -1, -2}),
                              Ints(Ty::kS4, {3, -1, -1}))),
              ElementsAre(-8, -1, 0));
  ExpectFloats(
      BinaryOk(BinaryOp::kPower,
               Floats(Ty::kF64, {-2.0, -0.0, -36.0, 5.0, 3.0, 10000.0}),
               Floats(Ty::kF64, {2.0, 2.0, 1.1, 2.0, -1.0, 10.0})),
      {4, 0.0, kNaN, 25, 0.33333333333333331, 1e40}, 1e-15);
  ExpectFloats(BinaryOk(BinaryOp::kPower, Floats(Ty::kF32, {2}),
                        Floats(Ty::kF32, {0.5})),
               {static_cast<float>(std::sqrt(2.0))});
}

TEST(BinaryTest, Atan2) {
  ExpectFloats(BinaryOk(BinaryOp::kAtan2, Floats(Ty::kF64, {0.0, 1.0, -1.0}),
                        Floats(Ty::kF64, {0.0, 0.0, 0.0})),
               {0.0, std::numbers::pi / 2, -std::numbers::pi / 2}, 1e-15);
  ExpectFloats(
      BinaryOk(BinaryOp::kAtan2, Floats(Ty::kBF16, {1}),
               Floats(Ty::kBF16, {-1})),
      {ir::BFloat16ToFloat(ir::DoubleToBFloat16(3 * std::numbers::pi / 4))});
  EXPECT_FALSE(Binary(BinaryOp::kAtan2, Ints(Ty::kS32, {1}),
                      Ints(Ty::kS32, {1}), Shape{Ty::kS32, {1}})
                   .ok());
}

TEST(BinaryTest, MaximumAndMinimumPropagateNaNAndOrderZeros) {
  const std::vector<double> a = {-kInf, -kInf, -1.0, -0.0, 0.0,
                                 1.0,   kInf,  kNaN, 1.0,  kNaN};
  const std::vector<double> b = {-kInf, -1.0,  0.0, 0.0,  -0.0,
                                 kInf,  -kInf, 1.0, kNaN, kNaN};
  for (Ty type : {Ty::kF16, Ty::kBF16, Ty::kF32, Ty::kF64}) {
    ExpectFloats(BinaryOk(BinaryOp::kMaximum, Floats(type, a), Floats(type, b)),
                 {-kInf, -1, 0.0, 0.0, 0.0, kInf, kInf, kNaN, kNaN, kNaN});
    ExpectFloats(BinaryOk(BinaryOp::kMinimum, Floats(type, a), Floats(type, b)),
                 {-kInf, -kInf, -1, -0.0, -0.0, 1, -kInf, kNaN, kNaN, kNaN});
  }
  ExpectFloats(BinaryOk(BinaryOp::kMaximum, FromBits(Ty::kF8E4M3FN, {0x7F}),
                        Floats(Ty::kF8E4M3FN, {448})),
               {kNaN});
  EXPECT_THAT(
      IntsOf(BinaryOk(BinaryOp::kMaximum, Ints(Ty::kS4, {0, 1, 2, -3, 0}),
                      Ints(Ty::kS4, {-8, -1, 2, -3, 7}))),
      ElementsAre(0, 1, 2, -3, 7));
  EXPECT_THAT(
      IntsOf(BinaryOk(BinaryOp::kMinimum, Ints(Ty::kS4, {0, 1, 2, -3, 0}),
                      Ints(Ty::kS4, {-8, -1, 2, -3, 7}))),
      ElementsAre(-8, -1, 2, -3, 0));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kMaximum, Ints(Ty::kU4, {0, 2}),
                              Ints(Ty::kU4, {15, 3}))),
              ElementsAre(15, 3));
  EXPECT_THAT(UIntsOf(BinaryOk(BinaryOp::kMinimum, Ints(Ty::kU64, {-1, 5}),
                               Ints(Ty::kU64, {1, -1}))),
              ElementsAre(1u, 5u));
  EXPECT_THAT(
      PredsOf(BinaryOk(BinaryOp::kMaximum, Preds({false, false, true, true}),
                       Preds({false, true, false, true}))),
      ElementsAre(false, true, true, true));
  EXPECT_THAT(
      PredsOf(BinaryOk(BinaryOp::kMinimum, Preds({false, false, true, true}),
                       Preds({false, true, false, true}))),
      ElementsAre(false, false, false, true));
}

TEST(BinaryTest, BitwiseLogic) {
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kAnd, Ints(Ty::kS4, {7, -8, -8}),
                              Ints(Ty::kS4, {0, 7, -8}))),
              ElementsAre(0, 0, -8));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kOr, Ints(Ty::kS4, {7, -8, -8}),
                              Ints(Ty::kS4, {0, 7, -8}))),
              ElementsAre(7, -1, -8));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kXor, Ints(Ty::kU4, {0, 7, 15}),
                              Ints(Ty::kU4, {15, 15, 15}))),
              ElementsAre(15, 8, 0));
  EXPECT_THAT(
      UIntsOf(BinaryOk(BinaryOp::kXor, Ints(Ty::kU64, {0, kInt64Max}),
                       Ints(Ty::kU64, {-1, -1}))),
      ElementsAre(std::numeric_limits<uint64_t>::max(), uint64_t{1} << 63));
  const Literal p = Preds({false, false, true, true});
  const Literal q = Preds({false, true, false, true});
  EXPECT_THAT(PredsOf(BinaryOk(BinaryOp::kAnd, p, q)),
              ElementsAre(false, false, false, true));
  EXPECT_THAT(PredsOf(BinaryOk(BinaryOp::kOr, p, q)),
              ElementsAre(false, true, true, true));
  EXPECT_THAT(PredsOf(BinaryOk(BinaryOp::kXor, p, q)),
              ElementsAre(false, true, true, false));
  absl::StatusOr<Literal> float_and =
      Binary(BinaryOp::kAnd, Floats(Ty::kF32, {1}), Floats(Ty::kF32, {1}),
             Shape{Ty::kF32, {1}});
  EXPECT_EQ(float_and.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(float_and.status().message(), HasSubstr("and"));
}

TEST(BinaryTest, Shifts) {
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kShiftLeft, Ints(Ty::kS64, {-1, 0, 1}),
                              Ints(Ty::kS64, {1, 2, 3}))),
              ElementsAre(-2, 0, 8));
  EXPECT_THAT(
      IntsOf(BinaryOk(BinaryOp::kShiftRightArithmetic,
                      Ints(Ty::kS64, {-1, 0, 8}), Ints(Ty::kS64, {1, 2, 3}))),
      ElementsAre(-1, 0, 1));
  EXPECT_THAT(
      IntsOf(BinaryOk(BinaryOp::kShiftRightLogical, Ints(Ty::kS64, {-1, 0, 8}),
                      Ints(Ty::kS64, {1, 2, 3}))),
      ElementsAre(kInt64Max, 0, 1));
  // Shifting by the width or more (or by a negative amount) gives 0, or
  // the sign for arithmetic right shifts.
  EXPECT_THAT(
      IntsOf(BinaryOk(BinaryOp::kShiftLeft, Ints(Ty::kS4, {1, 1, 1, 1, 3}),
                      Ints(Ty::kS4, {3, 4, 7, -1, 2}))),
      ElementsAre(-8, 0, 0, 0, -4));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kShiftRightLogical,
                              Ints(Ty::kS4, {-1, -8, -1, -1}),
                              Ints(Ty::kS4, {1, 3, 4, -1}))),
              ElementsAre(7, 1, 0, 0));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kShiftRightArithmetic,
                              Ints(Ty::kS4, {-8, -8, 7, -1}),
                              Ints(Ty::kS4, {1, 4, 5, -2}))),
              ElementsAre(-4, -1, 0, -1));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kShiftRightArithmetic,
                              Ints(Ty::kS32, {-5, 5, kInt32Min}),
                              Ints(Ty::kS32, {100, 32, 31}))),
              ElementsAre(-1, 0, -1));
  EXPECT_THAT(
      IntsOf(BinaryOk(BinaryOp::kShiftRightLogical, Ints(Ty::kS32, {-1, -1}),
                      Ints(Ty::kS32, {31, 32}))),
      ElementsAre(1, 0));
  // Unsigned types shift their bit patterns arithmetically too.
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kShiftRightArithmetic,
                              Ints(Ty::kU8, {0x80, 0x40, 0x80}),
                              Ints(Ty::kU8, {1, 1, 8}))),
              ElementsAre(0xC0, 0x20, 0xFF));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kShiftRightArithmetic,
                              Ints(Ty::kU2, {2, 1}), Ints(Ty::kU2, {1, 1}))),
              ElementsAre(3, 0));
  EXPECT_THAT(UIntsOf(BinaryOk(BinaryOp::kShiftLeft, Ints(Ty::kU64, {1, 1}),
                               Ints(Ty::kU64, {63, 64}))),
              ElementsAre(uint64_t{1} << 63, 0u));
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kShiftLeft, Ints(Ty::kU8, {0xFF}),
                              Ints(Ty::kU8, {4}))),
              ElementsAre(0xF0));
  EXPECT_FALSE(Binary(BinaryOp::kShiftLeft, Floats(Ty::kF64, {1}),
                      Floats(Ty::kF64, {1}), Shape{Ty::kF64, {1}})
                   .ok());
}

TEST(BinaryTest, MismatchedShapesAreErrors) {
  EXPECT_FALSE(Binary(BinaryOp::kAdd, Ints(Ty::kS32, {1, 2}),
                      Ints(Ty::kS32, {1}), Shape{Ty::kS32, {2}})
                   .ok());
  EXPECT_FALSE(Binary(BinaryOp::kAdd, Ints(Ty::kS32, {1}), Ints(Ty::kS8, {1}),
                      Shape{Ty::kS32, {1}})
                   .ok());
}

TEST(BinaryTest, RankZeroAndEmpty) {
  EXPECT_THAT(IntsOf(BinaryOk(BinaryOp::kAdd, Ints(Ty::kS4, {2}, true),
                              Ints(Ty::kS4, {3}, true))),
              ElementsAre(5));
  const Literal empty(Shape{Ty::kS4, {2, 0, 3}});
  EXPECT_EQ(BinaryOk(BinaryOp::kAdd, empty, empty).shape(), empty.shape());
}

// ------------------------------- Compare --------------------------------

TEST(CompareTest, SignedUnsignedAndPred) {
  const Literal a = Ints(Ty::kS64, {-2, -1, 0, 2, 2});
  const Literal b = Ints(Ty::kS64, {-2, -2, 0, 1, 2});
  using D = ComparisonDirection;
  EXPECT_THAT(PredsOf(Compare(D::kEq, ComparisonType::kSigned, a, b)),
              ElementsAre(true, false, true, false, true));
  EXPECT_THAT(PredsOf(Compare(D::kNe, ComparisonType::kSigned, a, b)),
              ElementsAre(false, true, false, true, false));
  EXPECT_THAT(PredsOf(Compare(D::kGe, ComparisonType::kNoType, a, b)),
              ElementsAre(true, true, true, true, true));
  EXPECT_THAT(PredsOf(Compare(D::kGt, ComparisonType::kNoType, a, b)),
              ElementsAre(false, true, false, true, false));
  EXPECT_THAT(PredsOf(Compare(D::kLe, ComparisonType::kSigned, a, b)),
              ElementsAre(true, false, true, false, true));
  EXPECT_THAT(PredsOf(Compare(D::kLt, ComparisonType::kSigned, a, b)),
              ElementsAre(false, false, false, false, false));
  EXPECT_THAT(PredsOf(Compare(D::kGt, ComparisonType::kNoType,
                              Ints(Ty::kU64, {-1, 0}), Ints(Ty::kU64, {1, 0}))),
              ElementsAre(true, false));
  // An explicit comparison type reinterprets the bits.
  EXPECT_THAT(PredsOf(Compare(D::kGt, ComparisonType::kUnsigned,
                              Ints(Ty::kS8, {-1, 1}), Ints(Ty::kS8, {1, -1}))),
              ElementsAre(true, false));
  EXPECT_THAT(PredsOf(Compare(D::kGt, ComparisonType::kUnsigned,
                              Ints(Ty::kS4, {-1}), Ints(Ty::kS4, {7}))),
              ElementsAre(true));
  EXPECT_THAT(PredsOf(Compare(D::kLt, ComparisonType::kSigned,
                              Ints(Ty::kU8, {255}), Ints(Ty::kU8, {1}))),
              ElementsAre(true));
  EXPECT_THAT(PredsOf(Compare(D::kLt, ComparisonType::kNoType,
                              Ints(Ty::kS2, {-2, 1}), Ints(Ty::kS2, {1, -1}))),
              ElementsAre(true, false));
  const Literal p = Preds({true, true, false, false});
  const Literal q = Preds({true, false, true, false});
  EXPECT_THAT(PredsOf(Compare(D::kGe, ComparisonType::kUnsigned, p, q)),
              ElementsAre(true, true, false, true));
  EXPECT_THAT(PredsOf(Compare(D::kLt, ComparisonType::kNoType, p, q)),
              ElementsAre(false, false, true, false));
  const Literal scalar =
      Compare(D::kEq, ComparisonType::kNoType, Ints(Ty::kS64, {-2}, true),
              Ints(Ty::kS64, {-2}, true));
  EXPECT_EQ(scalar.shape(), (Shape{Ty::kPred, {}}));
  EXPECT_THAT(PredsOf(scalar), ElementsAre(true));
}

TEST(CompareTest, FloatComparisonsFollowIeee) {
  const Literal a = FromBits(
      Ty::kF64,
      {0xFFF0000000000001, 0xFFF0000000000001, 0xFFF0000000000000,
       0xFFF0000000000000, std::bit_cast<uint64_t>(-2.0),
       std::bit_cast<uint64_t>(-2.0), 0x8000000000000000, 0x8000000000000000, 0,
       std::bit_cast<uint64_t>(1.0), std::bit_cast<uint64_t>(2.0),
       0x7FF0000000000000, 0x7FF0000000000001, 0x7FF0000000000001});
  const Literal b = FromBits(
      Ty::kF64, {0xFFF0000000000001, 0x7FF0000000000001, 0xFFF0000000000000,
                 0x7FF0000000000000, std::bit_cast<uint64_t>(-2.0),
                 std::bit_cast<uint64_t>(-1.0), 0x8000000000000000, 0, 0,
                 std::bit_cast<uint64_t>(2.0), std::bit_cast<uint64_t>(2.0),
                 0x7FF0000000000000, 0x7FF0000000000001, 0x7FFFFFFFFFFFFFFF});
  using D = ComparisonDirection;
  const auto f = ComparisonType::kFloat;
  EXPECT_THAT(PredsOf(Compare(D::kEq, f, a, b)),
              ElementsAreArray({false, false, true, false, true, false, true,
                                true, true, false, true, true, false, false}));
  EXPECT_THAT(PredsOf(Compare(D::kNe, ComparisonType::kNoType, a, b)),
              ElementsAreArray({true, true, false, true, false, true, false,
                                false, false, true, false, false, true, true}));
  EXPECT_THAT(PredsOf(Compare(D::kGe, f, a, b)),
              ElementsAreArray({false, false, true, false, true, false, true,
                                true, true, false, true, true, false, false}));
  EXPECT_THAT(PredsOf(Compare(D::kGt, f, a, b)),
              ElementsAreArray(std::vector<bool>(14, false)));
  EXPECT_THAT(PredsOf(Compare(D::kLe, f, a, b)),
              ElementsAreArray({false, false, true, true, true, true, true,
                                true, true, true, true, true, false, false}));
  EXPECT_THAT(
      PredsOf(Compare(D::kLt, f, a, b)),
      ElementsAreArray({false, false, false, true, false, true, false, false,
                        false, true, false, false, false, false}));
  EXPECT_THAT(PredsOf(Compare(D::kLt, f, Floats(Ty::kF16, {-0.0, 1, kNaN}),
                              Floats(Ty::kF16, {0.0, 2, 1}))),
              ElementsAre(false, true, false));
}

TEST(CompareTest, TotalOrder) {
  // Ascending in totalOrder.
  const std::vector<uint64_t> ascending = {
      0xFFF8000000000001,  // -NaN, larger payload first.
      0xFFF8000000000000,
      0xFFF0000000000000,  // -inf
      std::bit_cast<uint64_t>(-1.0),
      0x8000000000000001,  // -smallest subnormal
      0x8000000000000000,  // -0
      0x0000000000000000,  // +0
      0x0000000000000001,
      std::bit_cast<uint64_t>(1.0),
      0x7FF0000000000000,  // +inf
      0x7FF0000000000001,  // sNaN
      0x7FF8000000000000,  // qNaN
  };
  const std::vector<uint64_t> lower(ascending.begin(), ascending.end() - 1);
  const std::vector<uint64_t> upper(ascending.begin() + 1, ascending.end());
  using D = ComparisonDirection;
  const auto t = ComparisonType::kTotalOrder;
  EXPECT_THAT(PredsOf(Compare(D::kLt, t, FromBits(Ty::kF64, lower),
                              FromBits(Ty::kF64, upper))),
              ElementsAreArray(std::vector<bool>(lower.size(), true)));
  EXPECT_THAT(PredsOf(Compare(D::kGe, t, FromBits(Ty::kF64, lower),
                              FromBits(Ty::kF64, upper))),
              ElementsAreArray(std::vector<bool>(lower.size(), false)));
  EXPECT_THAT(PredsOf(Compare(D::kEq, t, FromBits(Ty::kF64, ascending),
                              FromBits(Ty::kF64, ascending))),
              ElementsAreArray(std::vector<bool>(ascending.size(), true)));
  // The same in f32 through the sign bit and the zeros.
  EXPECT_THAT(PredsOf(Compare(D::kLt, t, Floats(Ty::kF32, {-0.0, -kInf, kInf}),
                              Floats(Ty::kF32, {0.0, -0.0, kNaN}))),
              ElementsAre(true, true, true));
  EXPECT_THAT(PredsOf(Compare(D::kNe, t, Floats(Ty::kF32, {-0.0}),
                              Floats(Ty::kF32, {0.0}))),
              ElementsAre(true));
  // Narrow formats are ordered by their own bits.
  EXPECT_THAT(
      PredsOf(Compare(D::kLt, t, FromBits(Ty::kF16, {0xFE00, 0xFC00, 0x8000}),
                      FromBits(Ty::kF16, {0xFC00, 0x8001, 0x0000}))),
      ElementsAre(true, true, true));
  EXPECT_THAT(PredsOf(Compare(D::kLt, t, FromBits(Ty::kBF16, {0xFFC0, 0x7F80}),
                              FromBits(Ty::kBF16, {0xFF80, 0x7FC0}))),
              ElementsAre(true, true));
  EXPECT_THAT(
      PredsOf(Compare(D::kLt, t, FromBits(Ty::kF8E4M3FN, {0xFF, 0xFE, 0x7E}),
                      FromBits(Ty::kF8E4M3FN, {0xFE, 0x80, 0x7F}))),
      ElementsAre(true, true, true));
  EXPECT_THAT(PredsOf(Compare(D::kGt, t, FromBits(Ty::kF8E5M2, {0x7D, 0x7C}),
                              FromBits(Ty::kF8E5M2, {0x7C, 0x7B}))),
              ElementsAre(true, true));
}

// ---------------------------- Select, clamp -----------------------------

TEST(SelectTest, PerElementAndScalarPredicates) {
  EXPECT_THAT(
      IntsOf(Select(Preds({true, false, true}), Ints(Ty::kS64, {2, 3, -1}),
                    Ints(Ty::kS64, {3, 7, -3}))),
      ElementsAre(2, 7, -1));
  EXPECT_THAT(IntsOf(Select(Preds({false}, true), Ints(Ty::kS64, {2, 3, -1}),
                            Ints(Ty::kS64, {3, 7, -3}))),
              ElementsAre(3, 7, -3));
  EXPECT_THAT(IntsOf(Select(Preds({true}, true), Ints(Ty::kS4, {-8, 7}),
                            Ints(Ty::kS4, {0, 0}))),
              ElementsAre(-8, 7));
  // Bits are copied untouched, NaN payloads and -0.0 included.
  EXPECT_THAT(
      BitsOf(Select(Preds({true, false}), FromBits(Ty::kF16, {0x7C01, 0x0000}),
                    FromBits(Ty::kF16, {0x0000, 0x8000}))),
      ElementsAre(0x7C01, 0x8000));
  EXPECT_THAT(
      BitsOf(Select(Preds({false, true}), FromBits(Ty::kF32, {0x7F800001, 1}),
                    FromBits(Ty::kF32, {0xFFC00000, 2}))),
      ElementsAre(0xFFC00000, 1));
  EXPECT_THAT(PredsOf(Select(Preds({true, false}), Preds({false, false}),
                             Preds({true, true}))),
              ElementsAre(false, true));
  Literal matrix_pred(Shape{Ty::kPred, {2, 2}});
  matrix_pred.SetInt(1, 1);
  Literal on_true(Shape{Ty::kF8E5M2, {2, 2}});
  Literal on_false(Shape{Ty::kF8E5M2, {2, 2}});
  for (int i = 0; i < 4; ++i) {
    on_true.SetFloat(i, 1);
    on_false.SetFloat(i, -1);
  }
  const Literal out = Select(matrix_pred, on_true, on_false);
  EXPECT_EQ(out.shape(), on_true.shape());
  ExpectFloats(out, {-1, 1, -1, -1});
}

TEST(ClampTest, BoundsOfEitherRank) {
  EXPECT_THAT(
      IntsOf(Clamp(Ints(Ty::kS64, {1, 5, -5}), Ints(Ty::kS64, {2, 3, -1}),
                   Ints(Ty::kS64, {3, 7, -3}))),
      ElementsAre(2, 5, -3));
  EXPECT_THAT(
      IntsOf(Clamp(Ints(Ty::kS64, {0, 0, -2}), Ints(Ty::kS64, {2, 3, -1}),
                   Ints(Ty::kS64, {1}, true))),
      ElementsAre(1, 1, -1));
  EXPECT_THAT(
      IntsOf(Clamp(Ints(Ty::kS64, {0}, true), Ints(Ty::kS64, {2, 3, -1}),
                   Ints(Ty::kS64, {1, 1, 4}))),
      ElementsAre(1, 1, 0));
  EXPECT_THAT(
      IntsOf(Clamp(Ints(Ty::kS64, {0}, true), Ints(Ty::kS64, {2, 3, -1}),
                   Ints(Ty::kS64, {1}, true))),
      ElementsAre(1, 1, 0));
  EXPECT_THAT(IntsOf(Clamp(Ints(Ty::kS4, {-3}, true), Ints(Ty::kS4, {-8, 0, 7}),
                           Ints(Ty::kS4, {5}, true))),
              ElementsAre(-3, 0, 5));
  EXPECT_THAT(
      IntsOf(Clamp(Ints(Ty::kU8, {10}, true), Ints(Ty::kU8, {0, 200, 255}),
                   Ints(Ty::kU8, {250}, true))),
      ElementsAre(10, 200, 250));
  // NaN anywhere wins; -0.0 orders below +0.0.
  ExpectFloats(Clamp(Floats(Ty::kF32, {0.0, kNaN, 0.0, 0.0, -1}),
                     Floats(Ty::kF32, {kNaN, 1, 1, -0.0, -0.0}),
                     Floats(Ty::kF32, {1, 2, kNaN, 1, -0.0})),
               {kNaN, kNaN, kNaN, 0.0, -0.0});
  ExpectFloats(
      Clamp(Floats(Ty::kBF16, {-1}, true), Floats(Ty::kBF16, {-5, 0.5, 5}),
            Floats(Ty::kBF16, {1}, true)),
      {-1, 0.5, 1});
  EXPECT_THAT(PredsOf(Clamp(Preds({true}, true), Preds({false, true}),
                            Preds({true}, true))),
              ElementsAre(true, true));
}

// ------------------------------- Convert --------------------------------

TEST(ConvertTest, PredToAndFromEverything) {
  const Literal pred = Preds({true, false});
  EXPECT_THAT(IntsOf(Convert(pred, Ty::kS64)), ElementsAre(1, 0));
  EXPECT_THAT(UIntsOf(Convert(pred, Ty::kU4)), ElementsAre(1u, 0u));
  EXPECT_THAT(IntsOf(Convert(pred, Ty::kS2)), ElementsAre(1, 0));
  ExpectFloats(Convert(pred, Ty::kF64), {1, 0.0});
  ExpectFloats(Convert(pred, Ty::kF8E4M3FN), {1, 0.0});
  EXPECT_THAT(PredsOf(Convert(pred, Ty::kPred)), ElementsAre(true, false));
  EXPECT_THAT(PredsOf(Convert(Ints(Ty::kS64, {-1, 0, 1}), Ty::kPred)),
              ElementsAre(true, false, true));
  EXPECT_THAT(PredsOf(Convert(Ints(Ty::kU64, {0, 1}), Ty::kPred)),
              ElementsAre(false, true));
  EXPECT_THAT(PredsOf(Convert(Floats(Ty::kF64, {-1, 0.0, 1, -0.0, kNaN, 0.25}),
                              Ty::kPred)),
              ElementsAre(true, false, true, false, true, true));
  EXPECT_THAT(BitsOf(Convert(Floats(Ty::kF16, {2, 0.0}), Ty::kPred)),
              ElementsAre(1, 0));
}

TEST(ConvertTest, IntegersWrap) {
  EXPECT_THAT(IntsOf(Convert(Ints(Ty::kS32, {300, -1, 127}), Ty::kS8)),
              ElementsAre(44, -1, 127));
  EXPECT_THAT(IntsOf(Convert(Ints(Ty::kS32, {-1, 256}), Ty::kU8)),
              ElementsAre(255, 0));
  EXPECT_THAT(IntsOf(Convert(Ints(Ty::kU64, {-1}), Ty::kS64)), ElementsAre(-1));
  EXPECT_THAT(UIntsOf(Convert(Ints(Ty::kS8, {-1}), Ty::kU64)),
              ElementsAre(std::numeric_limits<uint64_t>::max()));
  EXPECT_THAT(IntsOf(Convert(Ints(Ty::kS32, {9, -9, 7}), Ty::kS4)),
              ElementsAre(-7, 7, 7));
  EXPECT_THAT(IntsOf(Convert(Ints(Ty::kS4, {-1, 0, 1}), Ty::kU4)),
              ElementsAre(15, 0, 1));
  EXPECT_THAT(IntsOf(Convert(Ints(Ty::kU4, {15, 2}), Ty::kS2)),
              ElementsAre(-1, -2));
  EXPECT_THAT(IntsOf(Convert(Ints(Ty::kS2, {-2, -1}), Ty::kS64)),
              ElementsAre(-2, -1));
  EXPECT_THAT(IntsOf(Convert(Ints(Ty::kU2, {3}), Ty::kS16)), ElementsAre(3));
  EXPECT_THAT(IntsOf(Convert(Ints(Ty::kU8, {200}), Ty::kS4)), ElementsAre(-8));
  EXPECT_THAT(IntsOf(Convert(Ints(Ty::kS64, {int64_t{1} << 32}), Ty::kU32)),
              ElementsAre(0));
}

TEST(ConvertTest, FloatsToIntegersTruncateAndSaturate) {
  const Literal f32 =
      Floats(Ty::kF32, {-2.9, 2.9, 1e10, -1e10, kNaN, kInf, -kInf, -0.5});
  EXPECT_THAT(
      IntsOf(Convert(f32, Ty::kS32)),
      ElementsAre(-2, 2, kInt32Max, kInt32Min, 0, kInt32Max, kInt32Min, 0));
  EXPECT_THAT(IntsOf(Convert(f32, Ty::kU8)),
              ElementsAre(0, 2, 255, 0, 0, 255, 0, 0));
  EXPECT_THAT(IntsOf(Convert(f32, Ty::kS4)),
              ElementsAre(-2, 2, 7, -8, 0, 7, -8, 0));
  EXPECT_THAT(IntsOf(Convert(f32, Ty::kU2)),
              ElementsAre(0, 2, 3, 0, 0, 3, 0, 0));
  EXPECT_THAT(IntsOf(Convert(
                  Floats(Ty::kF64, {9.3e18, -9.3e18, 0x1p63, -0x1p63, 0x1p62}),
                  Ty::kS64)),
              ElementsAre(kInt64Max, kInt64Min, kInt64Max, kInt64Min,
                          int64_t{1} << 62));
  EXPECT_THAT(UIntsOf(Convert(Floats(Ty::kBF16, {1e20, 3.5, -3.5}), Ty::kU64)),
              ElementsAre(std::numeric_limits<uint64_t>::max(), 3u, 0u));
  EXPECT_THAT(IntsOf(Convert(Floats(Ty::kF16, {-7.9, 65504}), Ty::kS16)),
              ElementsAre(-7, 32767));
  EXPECT_THAT(IntsOf(Convert(Floats(Ty::kF8E4M3FN, {-448, 3.25}), Ty::kS8)),
              ElementsAre(-128, 3));
  EXPECT_THAT(IntsOf(Convert(FromBits(Ty::kF8E4M3FN, {0x7F}), Ty::kS8)),
              ElementsAre(0));
}

TEST(ConvertTest, IntegersToFloatsRoundOnce) {
  ExpectFloats(Convert(Ints(Ty::kS64, {kInt64Max, kInt64Min}), Ty::kF32),
               {0x1p63, -0x1p63});
  ExpectFloats(Convert(Ints(Ty::kS32, {16777217, -3}), Ty::kF32),
               {16777216, -3});
  ExpectFloats(Convert(Ints(Ty::kU64, {-1}), Ty::kF64), {0x1p64});
  // Just above a bfloat16 tie: one rounding goes up.
  ExpectFloats(
      Convert(Ints(Ty::kS64, {(int64_t{1} << 24) + (1 << 16) + 1}), Ty::kBF16),
      {0x1p24 + 0x1p17});
  ExpectFloats(Convert(Ints(Ty::kU64, {-1}), Ty::kBF16), {0x1p64});
  ExpectFloats(Convert(Ints(Ty::kS32, {65504, 65520, -65520}), Ty::kF16),
               {65504, kInf, -kInf});
  ExpectFloats(Convert(Ints(Ty::kS32, {464, 465, -1000}), Ty::kF8E4M3FN),
               {448, kNaN, kNaN});
  ExpectFloats(Convert(Ints(Ty::kS4, {-3, 7}), Ty::kF8E5M2), {-3, 7});
  ExpectFloats(Convert(Ints(Ty::kU4, {15}), Ty::kF16), {15});
}

TEST(ConvertTest, FloatsToFloats) {
  // Double to half rounds once.
  ExpectFloats(Convert(Floats(Ty::kF64, {1 + 0x1p-11 + 0x1p-40}), Ty::kF16),
               {1 + 0x1p-10});
  ExpectFloats(Convert(Floats(Ty::kF64, {1e300, -1e-300, kNaN}), Ty::kF32),
               {kInf, -0.0, kNaN});
  EXPECT_THAT(BitsOf(Convert(Floats(Ty::kF32, {3.14159f, -0.0}), Ty::kBF16)),
              ElementsAre(0x4049, 0x8000));
  ExpectFloats(Convert(FromBits(Ty::kF16, {0x0001, 0xFC00}), Ty::kF32),
               {0x1p-24, -kInf});
  ExpectFloats(Convert(Floats(Ty::kF8E4M3FN, {448, -0.001953125}), Ty::kF8E5M2),
               {448, -0.001953125});
  ExpectFloats(Convert(Floats(Ty::kF8E5M2, {57344, kInf, 0.0000152587890625}),
                       Ty::kF8E4M3FN),
               {kNaN, kNaN, 0.0});
  ExpectFloats(Convert(Floats(Ty::kBF16, {0x1p-133}), Ty::kF64), {0x1p-133});
  EXPECT_THAT(BitsOf(Convert(FromBits(Ty::kF32, {0x7FC00001}), Ty::kF64)),
              ElementsAre(0x7FF8000020000000));
  const Literal same = Convert(Floats(Ty::kF32, {1.5}), Ty::kF32);
  ExpectFloats(same, {1.5});
}

// ------------------------------- Bitcast --------------------------------

TEST(BitcastConvertTest, SameWidth) {
  absl::StatusOr<Literal> f64 = BitcastConvert(
      Ints(Ty::kS64, {0x0123456789ABCDEF}, true), Shape{Ty::kF64, {}});
  ASSERT_TRUE(f64.ok()) << f64.status();
  EXPECT_THAT(BitsOf(*f64), ElementsAre(0x0123456789ABCDEF));
  absl::StatusOr<Literal> u8 =
      BitcastConvert(Ints(Ty::kS8, {-1, 5}), Shape{Ty::kU8, {2}});
  ASSERT_TRUE(u8.ok());
  EXPECT_THAT(IntsOf(*u8), ElementsAre(255, 5));
  absl::StatusOr<Literal> u4 =
      BitcastConvert(Ints(Ty::kS4, {-1, -8}), Shape{Ty::kU4, {2}});
  ASSERT_TRUE(u4.ok());
  EXPECT_THAT(BitsOf(*u4), ElementsAre(15, 8));
  absl::StatusOr<Literal> s4 =
      BitcastConvert(Ints(Ty::kU4, {15, 8}), Shape{Ty::kS4, {2}});
  ASSERT_TRUE(s4.ok());
  EXPECT_THAT(IntsOf(*s4), ElementsAre(-1, -8));
  absl::StatusOr<Literal> bf16 =
      BitcastConvert(FromBits(Ty::kF16, {0x3C00}), Shape{Ty::kBF16, {1}});
  ASSERT_TRUE(bf16.ok());
  EXPECT_THAT(BitsOf(*bf16), ElementsAre(0x3C00));
  absl::StatusOr<Literal> e4m3 =
      BitcastConvert(Ints(Ty::kU8, {0x7F}), Shape{Ty::kF8E4M3FN, {1}});
  ASSERT_TRUE(e4m3.ok());
  ExpectFloats(*e4m3, {kNaN});
}

TEST(BitcastConvertTest, PredBitsJoinLittleEndian) {
  // 0x0123456789ABCDEF, least significant bit first.
  const uint64_t value = 0x0123456789ABCDEF;
  std::vector<bool> bits;
  for (int i = 0; i < 64; ++i) bits.push_back((value >> i) & 1);
  absl::StatusOr<Literal> joined =
      BitcastConvert(Preds(bits), Shape{Ty::kS64, {}});
  ASSERT_TRUE(joined.ok()) << joined.status();
  EXPECT_THAT(IntsOf(*joined), ElementsAre(0x0123456789ABCDEF));
  absl::StatusOr<Literal> split =
      BitcastConvert(FromBits(Ty::kF64, {value}), Shape{Ty::kPred, {1, 64}});
  ASSERT_TRUE(split.ok()) << split.status();
  EXPECT_THAT(PredsOf(*split), ElementsAreArray(bits));
}

TEST(BitcastConvertTest, WidthsSplitAndJoin) {
  absl::StatusOr<Literal> bytes =
      BitcastConvert(Floats(Ty::kF32, {1.0, -2.0}), Shape{Ty::kU8, {2, 4}});
  ASSERT_TRUE(bytes.ok());
  EXPECT_THAT(IntsOf(*bytes),
              ElementsAre(0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0xC0));
  absl::StatusOr<Literal> back = BitcastConvert(*bytes, Shape{Ty::kF32, {2}});
  ASSERT_TRUE(back.ok());
  ExpectFloats(*back, {1.0, -2.0});
  // 4-bit halves: the first is the low nibble.
  Literal nibbles(Shape{Ty::kS4, {1, 2}});
  nibbles.SetInt(0, -1);
  nibbles.SetInt(1, 1);
  absl::StatusOr<Literal> byte = BitcastConvert(nibbles, Shape{Ty::kU8, {1}});
  ASSERT_TRUE(byte.ok());
  EXPECT_THAT(IntsOf(*byte), ElementsAre(0x1F));
  absl::StatusOr<Literal> halves =
      BitcastConvert(Ints(Ty::kU8, {0xF1}, true), Shape{Ty::kS4, {2}});
  ASSERT_TRUE(halves.ok());
  EXPECT_THAT(IntsOf(*halves), ElementsAre(1, -1));
  absl::StatusOr<Literal> crumbs =
      BitcastConvert(Ints(Ty::kU2, {1, 2, 3, 0}), Shape{Ty::kS8, {}});
  ASSERT_TRUE(crumbs.ok());
  EXPECT_THAT(IntsOf(*crumbs), ElementsAre(0b00111001));
  absl::StatusOr<Literal> halfs = BitcastConvert(
      FromBits(Ty::kF64, {0x0123456789ABCDEF}), Shape{Ty::kBF16, {4}});
  ASSERT_TRUE(halfs.ok());
  EXPECT_THAT(BitsOf(*halfs), ElementsAre(0xCDEF, 0x89AB, 0x4567, 0x0123));
}

TEST(BitcastConvertTest, MismatchedSizesAreErrors) {
  EXPECT_FALSE(BitcastConvert(Ints(Ty::kS32, {1}), Shape{Ty::kS64, {}}).ok());
  EXPECT_FALSE(BitcastConvert(Ints(Ty::kS32, {1}), Shape{Ty::kS8, {3}}).ok());
}

// --------------------------- Reduce precision ---------------------------

TEST(ReducePrecisionTest, F64ToHalfRange) {
  const Literal x = FromBits(
      Ty::kF64,
      {0x7FF0000000000000, 0x7FFFFFFFFFFFFFFF, 0x0000000000000001, 0,
       std::bit_cast<uint64_t>(65505.0), std::bit_cast<uint64_t>(65520.0),
       std::bit_cast<uint64_t>(-0x1p-15)});
  const Literal out = ReducePrecision(x, 5, 10);
  EXPECT_THAT(BitsOf(out), ElementsAre(0x7FF0000000000000, 0x7FFFFFFFFFFFFFFF,
                                       0, 0, std::bit_cast<uint64_t>(65504.0),
                                       0x7FF0000000000000, 0x8000000000000000));
  // Without mantissa bits a NaN becomes +inf.
  EXPECT_THAT(
      BitsOf(ReducePrecision(
          FromBits(Ty::kF64, {0x7FFFFFFFFFFFFFFF, 0xFFF8000000000000}), 5, 0)),
      ElementsAre(0x7FF0000000000000, 0x7FF0000000000000));
}

TEST(ReducePrecisionTest, RoundsMantissaToNearestEven) {
  ExpectFloats(ReducePrecision(Floats(Ty::kF32, {1 + 0x1p-8, 1 + 3 * 0x1p-8,
                                                 1 + 0x1p-8 + 0x1p-20}),
                               8, 7),
               {1, 1 + 0x1p-6, 1 + 0x1p-7});
  // With the exponent width unchanged, subnormals are only rounded.
  ExpectFloats(ReducePrecision(Floats(Ty::kF16, {0.1, 1e-5}), 5, 2),
               {0.09375, 0x1p-16});
  ExpectFloats(ReducePrecision(Floats(Ty::kBF16, {1e10, 1e-10, -3}), 5, 10),
               {kInf, 0.0, -3});
  ExpectFloats(ReducePrecision(Floats(Ty::kF8E5M2, {3.0, 3.5}), 5, 1),
               {3.0, 4.0});
  ExpectFloats(ReducePrecision(Floats(Ty::kF8E4M3FN, {1.125, 448, -1.0}), 3, 2),
               {1.0, kNaN, -1.0});
  ExpectFloats(ReducePrecision(Floats(Ty::kF64, {0.1}), 11, 52), {0.1});
  EXPECT_THAT(IntsOf(ReducePrecision(Ints(Ty::kS32, {7}), 5, 2)),
              ElementsAre(7));
}

}  // namespace
}  // namespace pjrtx::cpu
