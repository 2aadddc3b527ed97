#include "runtime/cpu/literal.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include "gtest/gtest.h"

namespace pjrtx::cpu {
namespace {

TEST(LiteralTest, OwnedStorageIsZeroFilledAndShared) {
  Literal literal(Shape{ElementType::kS32, {2, 3}});
  EXPECT_EQ(literal.num_elements(), 6);
  EXPECT_EQ(literal.size_bytes(), 24u);
  for (int64_t i = 0; i < 6; ++i) EXPECT_EQ(literal.as<int32_t>()[i], 0);
  Literal copy = literal;
  copy.SetInt(4, 7);
  EXPECT_EQ(literal.GetInt(4), 7);
  EXPECT_EQ(copy.data(), literal.data());
}

TEST(LiteralTest, EmptyAndScalarShapes) {
  Literal empty(Shape{ElementType::kF32, {2, 0, 3}});
  EXPECT_EQ(empty.num_elements(), 0);
  EXPECT_TRUE(
      empty.BitwiseEquals(Literal(Shape{ElementType::kF32, {2, 0, 3}})));
  Literal scalar(Shape{ElementType::kF64, {}});
  EXPECT_EQ(scalar.num_elements(), 1);
  EXPECT_TRUE(scalar.Strides().empty());
  EXPECT_TRUE(Literal().BitwiseEquals(Literal()));
}

TEST(LiteralTest, ViewWrapsForeignMemory) {
  float buffer[3] = {1.5f, -2.0f, 0.25f};
  Literal view = Literal::View(Shape{ElementType::kF32, {3}}, buffer);
  EXPECT_EQ(view.data(), reinterpret_cast<uint8_t*>(buffer));
  EXPECT_EQ(view.GetFloat(1), -2.0);
  view.SetFloat(2, 4.0);
  EXPECT_EQ(buffer[2], 4.0f);
}

TEST(LiteralTest, IntegersWrapToTheirWidth) {
  Literal s4(Shape{ElementType::kS4, {3}});
  s4.SetInt(0, 7);
  s4.SetInt(1, 8);   // Wraps to -8.
  s4.SetInt(2, -9);  // Wraps to 7.
  EXPECT_EQ(s4.GetInt(0), 7);
  EXPECT_EQ(s4.GetInt(1), -8);
  EXPECT_EQ(s4.GetInt(2), 7);
  // Stored sign-extended, one per byte.
  EXPECT_EQ(s4.as<int8_t>()[1], -8);

  Literal u2(Shape{ElementType::kU2, {2}});
  u2.SetInt(0, 5);
  u2.SetInt(1, -1);
  EXPECT_EQ(u2.GetUInt(0), 1u);
  EXPECT_EQ(u2.GetUInt(1), 3u);
  EXPECT_EQ(u2.as<uint8_t>()[1], 3);

  Literal s2(Shape{ElementType::kS2, {1}});
  s2.SetInt(0, 2);
  EXPECT_EQ(s2.GetInt(0), -2);

  Literal u64(Shape{ElementType::kU64, {1}});
  u64.SetInt(0, -1);
  EXPECT_EQ(u64.GetUInt(0), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(u64.GetInt(0), -1);  // The bit pattern.

  Literal s8(Shape{ElementType::kS8, {1}});
  s8.SetInt(0, 200);
  EXPECT_EQ(s8.GetInt(0), -56);
  EXPECT_EQ(s8.GetUInt(0), static_cast<uint64_t>(-56));
}

TEST(LiteralTest, Pred) {
  Literal pred(Shape{ElementType::kPred, {3}});
  pred.SetInt(0, 2);
  pred.SetFloat(1, std::nan(""));
  pred.SetFloat(2, -0.0);
  EXPECT_EQ(pred.as<uint8_t>()[0], 1);
  EXPECT_EQ(pred.as<uint8_t>()[1], 1);
  EXPECT_EQ(pred.as<uint8_t>()[2], 0);
  EXPECT_EQ(pred.GetInt(0), 1);
  EXPECT_EQ(pred.GetUInt(0), 1u);
  EXPECT_EQ(pred.GetFloat(0), 1.0);
}

TEST(LiteralTest, FloatsRoundToTheirFormat) {
  Literal f16(Shape{ElementType::kF16, {2}});
  f16.SetFloat(0, 0.1);
  f16.SetFloat(1, 1e6);
  EXPECT_EQ(f16.as<uint16_t>()[0], 0x2E66);
  EXPECT_EQ(f16.GetFloat(1), std::numeric_limits<double>::infinity());

  Literal bf16(Shape{ElementType::kBF16, {1}});
  bf16.SetFloat(0, 3.140625);
  EXPECT_EQ(bf16.as<uint16_t>()[0], 0x4049);
  EXPECT_EQ(bf16.GetFloat(0), 3.140625);

  Literal e4m3(Shape{ElementType::kF8E4M3FN, {2}});
  e4m3.SetFloat(0, 3.1415);
  e4m3.SetFloat(1, 1000.0);
  EXPECT_EQ(e4m3.GetFloat(0), 3.25);
  EXPECT_TRUE(std::isnan(e4m3.GetFloat(1)));

  Literal e5m2(Shape{ElementType::kF8E5M2, {1}});
  e5m2.SetFloat(0, 0.1);
  EXPECT_EQ(e5m2.GetFloat(0), 0.09375);

  Literal f32(Shape{ElementType::kF32, {1}});
  f32.SetInt(0, (int64_t{1} << 40) + 1);  // Rounds to 2^40.
  EXPECT_EQ(f32.GetFloat(0), std::ldexp(1.0, 40));
  EXPECT_EQ(f32.GetInt(0), int64_t{1} << 40);

  // 2^24 + 2^16 + 1 is just above a bfloat16 tie: one rounding goes up;
  // rounding through float first would tie to even and go down.
  bf16.SetInt(0, (int64_t{1} << 24) + (1 << 16) + 1);
  EXPECT_EQ(bf16.GetFloat(0), std::ldexp(1.0, 24) + std::ldexp(1.0, 17));

  Literal f64(Shape{ElementType::kF64, {1}});
  f64.SetInt(0, std::numeric_limits<int64_t>::max());
  EXPECT_EQ(f64.GetFloat(0), std::ldexp(1.0, 63));
}

TEST(LiteralTest, FloatsToIntegersTruncateAndSaturate) {
  Literal s8(Shape{ElementType::kS8, {4}});
  s8.SetFloat(0, -2.9);
  s8.SetFloat(1, 1e9);
  s8.SetFloat(2, -1e9);
  s8.SetFloat(3, std::nan(""));
  EXPECT_EQ(s8.GetInt(0), -2);
  EXPECT_EQ(s8.GetInt(1), 127);
  EXPECT_EQ(s8.GetInt(2), -128);
  EXPECT_EQ(s8.GetInt(3), 0);

  Literal u4(Shape{ElementType::kU4, {2}});
  u4.SetFloat(0, 99.0);
  u4.SetFloat(1, -3.0);
  EXPECT_EQ(u4.GetUInt(0), 15u);
  EXPECT_EQ(u4.GetUInt(1), 0u);

  Literal f32(Shape{ElementType::kF32, {2}});
  f32.SetFloat(0, 1e30);
  f32.SetFloat(1, -7.5);
  EXPECT_EQ(f32.GetInt(0), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(f32.GetInt(1), -7);
  EXPECT_EQ(f32.GetUInt(1), 0u);
}

TEST(LiteralTest, CopyElementAndBitwiseEquals) {
  Literal a(Shape{ElementType::kF32, {2}});
  Literal b(Shape{ElementType::kF32, {2}});
  a.SetFloat(0, 1.0);
  a.SetFloat(1, -0.0);
  EXPECT_FALSE(a.BitwiseEquals(b));  // -0.0 differs from 0.0 bitwise.
  b.CopyElement(0, a, 0);
  b.CopyElement(1, a, 1);
  EXPECT_TRUE(a.BitwiseEquals(b));
  EXPECT_FALSE(a.BitwiseEquals(Literal(Shape{ElementType::kS32, {2}})));
  EXPECT_FALSE(a.BitwiseEquals(Literal(Shape{ElementType::kF32, {1, 2}})));
}

TEST(LiteralTest, StridesAreRowMajor) {
  Literal literal(Shape{ElementType::kU8, {2, 3, 4}});
  EXPECT_EQ(literal.Strides(), (std::vector<int64_t>{12, 4, 1}));
}

TEST(WrapToTypeTest, WrapsEveryIntegerWidth) {
  EXPECT_EQ(WrapToType(2, ElementType::kS2), -2);
  EXPECT_EQ(WrapToType(-3, ElementType::kS2), 1);
  EXPECT_EQ(WrapToType(-1, ElementType::kU2), 3);
  EXPECT_EQ(WrapToType(8, ElementType::kS4), -8);
  EXPECT_EQ(WrapToType(17, ElementType::kU4), 1);
  EXPECT_EQ(WrapToType(128, ElementType::kS8), -128);
  EXPECT_EQ(WrapToType(-1, ElementType::kU8), 255);
  EXPECT_EQ(WrapToType(65536 + 5, ElementType::kS16), 5);
  EXPECT_EQ(WrapToType(int64_t{1} << 31, ElementType::kS32),
            std::numeric_limits<int32_t>::min());
  EXPECT_EQ(WrapToType(-1, ElementType::kU32), 0xFFFFFFFF);
  EXPECT_EQ(WrapToType(-1, ElementType::kU64), -1);
  EXPECT_EQ(WrapToType(-5, ElementType::kS64), -5);
  EXPECT_EQ(WrapToType(3, ElementType::kPred), 1);
}

}  // namespace
}  // namespace pjrtx::cpu
