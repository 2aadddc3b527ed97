#include "compiler_stub/ir/float_formats.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include "gtest/gtest.h"

namespace pjrtx::ir {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

TEST(HalfTest, DecodesSpecialAndSubnormalValues) {
  EXPECT_EQ(HalfToFloat(0x3C00), 1.0f);
  EXPECT_EQ(HalfToFloat(0xC000), -2.0f);
  EXPECT_EQ(HalfToFloat(0x7BFF), 65504.0f);
  EXPECT_EQ(HalfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(HalfToFloat(0x03FF), std::ldexp(1023.0f, -24));
  EXPECT_EQ(HalfToFloat(0x7C00), kInf);
  EXPECT_EQ(HalfToFloat(0xFC00), -kInf);
  EXPECT_TRUE(std::isnan(HalfToFloat(0x7E00)));
  EXPECT_TRUE(std::isnan(HalfToFloat(0x7C01)));
  EXPECT_TRUE(std::signbit(HalfToFloat(0x8000)));
}

TEST(HalfTest, RoundsToNearestEven) {
  EXPECT_EQ(FloatToHalf(1.0f), 0x3C00);
  EXPECT_EQ(FloatToHalf(-0.0f), 0x8000);
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even (down).
  EXPECT_EQ(FloatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3C00);
  // 1 + 3 * 2^-11 is halfway between two odd/even neighbours: up.
  EXPECT_EQ(FloatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);
  EXPECT_EQ(FloatToHalf(0.1f), 0x2E66);
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7BFF);
  EXPECT_EQ(FloatToHalf(65519.0f), 0x7BFF);
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7C00);  // Rounds up to infinity.
  EXPECT_EQ(FloatToHalf(-1e10f), 0xFC00);
  EXPECT_EQ(FloatToHalf(kInf), 0x7C00);
  EXPECT_EQ(FloatToHalf(kNaN) & 0x7E00, 0x7E00);
  // Subnormals, and rounding into and out of them.
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -25)), 0x0000);  // Tie to even.
  EXPECT_EQ(FloatToHalf(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(FloatToHalf(std::ldexp(3.0f, -25)), 0x0002);  // Tie to even.
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -14)), 0x0400);
  EXPECT_EQ(FloatToHalf(std::ldexp(1023.5f, -24)), 0x0400);
  EXPECT_EQ(FloatToHalf(-1e-30f), 0x8000);
}

TEST(HalfTest, DoubleRoundsOnce) {
  // 1 + 2^-11 + 2^-40 is just above the halfway point: rounds up. Through
  // float it would first become exactly the halfway point and round down.
  const double value = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(DoubleToHalf(value), 0x3C01);
  EXPECT_EQ(FloatToHalf(static_cast<float>(value)), 0x3C00);
}

TEST(HalfTest, RoundTripsEveryValue) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const float value = HalfToFloat(static_cast<uint16_t>(bits));
    if (std::isnan(value)) continue;
    EXPECT_EQ(FloatToHalf(value), bits) << bits;
    EXPECT_EQ(DoubleToHalf(value), bits) << bits;
  }
}

TEST(BFloat16Test, ConvertsAndRounds) {
  EXPECT_EQ(BFloat16ToFloat(0x3F80), 1.0f);
  EXPECT_EQ(BFloat16ToFloat(0x0001), std::ldexp(1.0f, -133));
  EXPECT_EQ(BFloat16ToFloat(0xFF80), -kInf);
  EXPECT_EQ(FloatToBFloat16(1.0f), 0x3F80);
  EXPECT_EQ(FloatToBFloat16(0.1f), 0x3DCD);
  EXPECT_EQ(FloatToBFloat16(3.14159f), 0x4049);
  // Halfway between 1 and 1 + 2^-7: ties to even.
  EXPECT_EQ(FloatToBFloat16(1.0f + std::ldexp(1.0f, -8)), 0x3F80);
  EXPECT_EQ(FloatToBFloat16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3F82);
  EXPECT_EQ(FloatToBFloat16(std::numeric_limits<float>::max()), 0x7F80);
  EXPECT_EQ(FloatToBFloat16(-kInf), 0xFF80);
  // A NaN whose payload is only in the low bits stays a NaN.
  const float low_payload_nan = std::bit_cast<float>(0x7F800001u);
  EXPECT_TRUE(std::isnan(BFloat16ToFloat(FloatToBFloat16(low_payload_nan))));
  EXPECT_TRUE(std::isnan(BFloat16ToFloat(DoubleToBFloat16(kNaN))));
  EXPECT_EQ(DoubleToBFloat16(0.1), 0x3DCD);
  EXPECT_EQ(DoubleToBFloat16(1e300), 0x7F80);
  EXPECT_EQ(DoubleToBFloat16(std::ldexp(1.0, -134)), 0x0000);  // Tie to even.
  EXPECT_EQ(DoubleToBFloat16(std::ldexp(1.0, -133)), 0x0001);
}

TEST(BFloat16Test, FloatAndDoubleAgreeOnEveryValue) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const float value = BFloat16ToFloat(static_cast<uint16_t>(bits));
    if (std::isnan(value)) continue;
    EXPECT_EQ(FloatToBFloat16(value), bits) << bits;
    EXPECT_EQ(DoubleToBFloat16(value), bits) << bits;
  }
}

TEST(Float8E4M3FNTest, Decodes) {
  EXPECT_EQ(Float8E4M3FNToFloat(0x38), 1.0f);
  EXPECT_EQ(Float8E4M3FNToFloat(0x7E), 448.0f);
  EXPECT_EQ(Float8E4M3FNToFloat(0xFE), -448.0f);
  EXPECT_EQ(Float8E4M3FNToFloat(0x01), 0.001953125f);  // 2^-9.
  EXPECT_EQ(Float8E4M3FNToFloat(0x81), -0.001953125f);
  EXPECT_EQ(Float8E4M3FNToFloat(0x08), 0.015625f);  // 2^-6.
  // S.1111.000 is a number (no infinities): 256.
  EXPECT_EQ(Float8E4M3FNToFloat(0x78), 256.0f);
  EXPECT_TRUE(std::isnan(Float8E4M3FNToFloat(0x7F)));
  EXPECT_TRUE(std::isnan(Float8E4M3FNToFloat(0xFF)));
}

TEST(Float8E4M3FNTest, RoundsAndOverflowsToNaN) {
  // The constants of the interpreter's constant_op_test_f8_e4m3_fn.
  EXPECT_EQ(Float8E4M3FNToFloat(FloatToFloat8E4M3FN(0.1f)), 0.1015625f);
  EXPECT_EQ(Float8E4M3FNToFloat(FloatToFloat8E4M3FN(3.1415f)), 3.25f);
  EXPECT_EQ(FloatToFloat8E4M3FN(-0.0f), 0x80);
  EXPECT_EQ(FloatToFloat8E4M3FN(448.0f), 0x7E);
  // 464 is halfway between 448 and the NaN pattern's 480: ties to 448.
  EXPECT_EQ(FloatToFloat8E4M3FN(464.0f), 0x7E);
  EXPECT_EQ(FloatToFloat8E4M3FN(465.0f), 0x7F);
  EXPECT_EQ(FloatToFloat8E4M3FN(-1000.0f), 0xFF);
  EXPECT_EQ(FloatToFloat8E4M3FN(kInf), 0x7F);
  EXPECT_EQ(FloatToFloat8E4M3FN(-kInf), 0xFF);
  EXPECT_EQ(FloatToFloat8E4M3FN(kNaN), 0x7F);
  EXPECT_EQ(FloatToFloat8E4M3FN(std::ldexp(1.0f, -10)), 0x00);  // Tie.
  EXPECT_EQ(FloatToFloat8E4M3FN(std::ldexp(1.5f, -10)), 0x01);
  EXPECT_EQ(FloatToFloat8E4M3FN(std::ldexp(15.5f, -10)), 0x08);  // Normal.
  EXPECT_EQ(DoubleToFloat8E4M3FN(1.0625), 0x38);  // Tie to even (down).
  EXPECT_EQ(DoubleToFloat8E4M3FN(1.1875), 0x3A);  // Tie to even (up).
}

TEST(Float8E4M3FNTest, RoundTripsEveryValue) {
  for (uint32_t bits = 0; bits < 0x100; ++bits) {
    const float value = Float8E4M3FNToFloat(static_cast<uint8_t>(bits));
    if (std::isnan(value)) continue;
    EXPECT_EQ(FloatToFloat8E4M3FN(value), bits) << bits;
  }
}

TEST(Float8E5M2Test, ConvertsLikeIeee) {
  EXPECT_EQ(Float8E5M2ToFloat(0x3C), 1.0f);
  EXPECT_EQ(Float8E5M2ToFloat(0x7B), 57344.0f);
  EXPECT_EQ(Float8E5M2ToFloat(0x01), 0.0000152587890625f);  // 2^-16.
  EXPECT_EQ(Float8E5M2ToFloat(0x7C), kInf);
  EXPECT_EQ(Float8E5M2ToFloat(0xFC), -kInf);
  EXPECT_TRUE(std::isnan(Float8E5M2ToFloat(0x7D)));
  EXPECT_TRUE(std::isnan(Float8E5M2ToFloat(0xFF)));
  // The constants of the interpreter's constant_op_test_f8_e5m2.
  EXPECT_EQ(Float8E5M2ToFloat(FloatToFloat8E5M2(0.1f)), 0.09375f);
  EXPECT_EQ(Float8E5M2ToFloat(FloatToFloat8E5M2(3.1415f)), 3.0f);
  EXPECT_EQ(FloatToFloat8E5M2(61439.0f), 0x7B);
  // Halfway between the odd max 57344 and 65536: ties to infinity.
  EXPECT_EQ(FloatToFloat8E5M2(61440.0f), 0x7C);
  EXPECT_EQ(FloatToFloat8E5M2(-kInf), 0xFC);
  EXPECT_TRUE(std::isnan(Float8E5M2ToFloat(FloatToFloat8E5M2(kNaN))));
  EXPECT_TRUE(std::isnan(Float8E5M2ToFloat(DoubleToFloat8E5M2(-kNaN))));
  for (uint32_t bits = 0; bits < 0x100; ++bits) {
    const float value = Float8E5M2ToFloat(static_cast<uint8_t>(bits));
    if (std::isnan(value)) continue;
    EXPECT_EQ(DoubleToFloat8E5M2(value), bits) << bits;
  }
}

}  // namespace
}  // namespace pjrtx::ir
