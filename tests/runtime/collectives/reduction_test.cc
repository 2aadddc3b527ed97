#include "runtime/collectives/reduction.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pjrtx::collectives {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

template <typename T>
std::vector<T> Accumulated(ReduceOp op, PJRTX_Buffer_Type type,
                           std::vector<T> a, const std::vector<T>& b) {
  EXPECT_TRUE(Accumulate(op, type, a.data(), b.data(), a.size()).ok());
  return a;
}

TEST(ReductionTest, EachOpOnInt32) {
  const std::vector<int32_t> a = {1, -5, 7};
  const std::vector<int32_t> b = {4, 3, -2};
  EXPECT_THAT(Accumulated(ReduceOp::kSum, PJRTX_Buffer_Type_S32, a, b),
              ElementsAre(5, -2, 5));
  EXPECT_THAT(Accumulated(ReduceOp::kProduct, PJRTX_Buffer_Type_S32, a, b),
              ElementsAre(4, -15, -14));
  EXPECT_THAT(Accumulated(ReduceOp::kMin, PJRTX_Buffer_Type_S32, a, b),
              ElementsAre(1, -5, -2));
  EXPECT_THAT(Accumulated(ReduceOp::kMax, PJRTX_Buffer_Type_S32, a, b),
              ElementsAre(4, 3, 7));
}

TEST(ReductionTest, EachOpOnDoubleAndUnsigned) {
  EXPECT_THAT(Accumulated<double>(ReduceOp::kProduct, PJRTX_Buffer_Type_F64,
                                  {1.5, -2.0}, {2.0, 0.25}),
              ElementsAre(3.0, -0.5));
  EXPECT_THAT(Accumulated<uint64_t>(ReduceOp::kMax, PJRTX_Buffer_Type_U64,
                                    {1, ~uint64_t{0}}, {2, 3}),
              ElementsAre(2, ~uint64_t{0}));
  EXPECT_THAT(Accumulated<uint32_t>(ReduceOp::kMin, PJRTX_Buffer_Type_U32,
                                    {9, 4}, {8, 5}),
              ElementsAre(8, 4));
}

TEST(ReductionTest, IntegersWrapOnOverflow) {
  EXPECT_THAT(
      Accumulated<int8_t>(ReduceOp::kSum, PJRTX_Buffer_Type_S8, {127}, {1}),
      ElementsAre(-128));
  EXPECT_THAT(Accumulated<uint16_t>(ReduceOp::kProduct, PJRTX_Buffer_Type_U16,
                                    {65535}, {65535}),
              ElementsAre(1));
  EXPECT_THAT(Accumulated<int64_t>(ReduceOp::kSum, PJRTX_Buffer_Type_S64,
                                   {std::numeric_limits<int64_t>::max()}, {1}),
              ElementsAre(std::numeric_limits<int64_t>::min()));
}

TEST(ReductionTest, MinAndMaxPropagateNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> min = Accumulated<float>(
      ReduceOp::kMin, PJRTX_Buffer_Type_F32, {1.0f, nan}, {nan, 2.0f});
  EXPECT_TRUE(std::isnan(min[0]));
  EXPECT_TRUE(std::isnan(min[1]));
  std::vector<float> max = Accumulated<float>(
      ReduceOp::kMax, PJRTX_Buffer_Type_F32, {1.0f, 3.0f}, {nan, 2.0f});
  EXPECT_TRUE(std::isnan(max[0]));
  EXPECT_EQ(max[1], 3.0f);
}

TEST(ReductionTest, BFloat16AccumulatesInFloatAndRoundsToEven) {
  EXPECT_EQ(FloatToBFloat16(1.0f), 0x3f80);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties go to the even 1.
  EXPECT_EQ(FloatToBFloat16(1.0f + 0x1p-8f), 0x3f80);
  // 1 + 3 * 2^-8 is halfway between mantissas 1 and 2: 2 is even.
  EXPECT_EQ(FloatToBFloat16(1.0f + 0x3p-8f), 0x3f82);
  EXPECT_EQ(BFloat16ToFloat(0x4040), 3.0f);
  std::vector<uint16_t> sum =
      Accumulated<uint16_t>(ReduceOp::kSum, PJRTX_Buffer_Type_BF16,
                            {FloatToBFloat16(1.5f), FloatToBFloat16(100.0f)},
                            {FloatToBFloat16(2.25f), FloatToBFloat16(-0.5f)});
  EXPECT_EQ(BFloat16ToFloat(sum[0]), 3.75f);
  EXPECT_EQ(BFloat16ToFloat(sum[1]), 99.5f);
}

TEST(ReductionTest, HalfConversionIsExactAndRoundsAtTheEdges) {
  EXPECT_EQ(FloatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(FloatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7c00);  // Rounds up to infinity.
  EXPECT_EQ(FloatToHalf(0x1p-24f), 0x0001);  // Smallest subnormal.
  EXPECT_EQ(FloatToHalf(0x1p-26f), 0x0000);  // Below half of it.
  // Every half that is not NaN survives a round trip through float.
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const uint16_t half = static_cast<uint16_t>(bits);
    if ((half & 0x7c00) == 0x7c00 && (half & 0x3ff) != 0) continue;
    ASSERT_EQ(FloatToHalf(HalfToFloat(half)), half) << bits;
  }
  std::vector<uint16_t> product =
      Accumulated<uint16_t>(ReduceOp::kProduct, PJRTX_Buffer_Type_F16,
                            {FloatToHalf(1.5f)}, {FloatToHalf(-4.0f)});
  EXPECT_EQ(HalfToFloat(product[0]), -6.0f);
}

TEST(ReductionTest, ReduceWritesASeparateOutputAndKeepsTheOperandOrder) {
  const std::vector<float> a = {1.0f, NAN, 2.0f, -0.0f};
  const std::vector<float> b = {2.5f, 3.0f, -NAN, 0.0f};
  std::vector<float> out(a.size(), 99.0f);
  ASSERT_TRUE(Reduce(ReduceOp::kMax, PJRTX_Buffer_Type_F32, out.data(),
                     a.data(), b.data(), a.size())
                  .ok());
  EXPECT_EQ(out[0], 2.5f);
  // A NaN on either side wins; its sign tells which operand it came from.
  EXPECT_TRUE(std::isnan(out[1]) && !std::signbit(out[1]));
  EXPECT_TRUE(std::isnan(out[2]) && std::signbit(out[2]));
  EXPECT_EQ(out[0],
            Accumulated(ReduceOp::kMax, PJRTX_Buffer_Type_F32, a, b)[0]);
  // The operands are left as they were.
  EXPECT_EQ(a[0], 1.0f);
  EXPECT_EQ(b[0], 2.5f);
  std::vector<uint16_t> bf16_out(1);
  const std::vector<uint16_t> x = {FloatToBFloat16(1.5f)};
  const std::vector<uint16_t> y = {FloatToBFloat16(2.0f)};
  ASSERT_TRUE(Reduce(ReduceOp::kProduct, PJRTX_Buffer_Type_BF16,
                     bf16_out.data(), x.data(), y.data(), 1)
                  .ok());
  EXPECT_EQ(BFloat16ToFloat(bf16_out[0]), 3.0f);
  EXPECT_EQ(Reduce(ReduceOp::kSum, PJRTX_Buffer_Type_F32, nullptr, a.data(),
                   b.data(), 1)
                .code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(ReductionTest, UnsupportedTypeIsNamed) {
  uint8_t a = 0;
  uint8_t b = 0;
  absl::Status status =
      Accumulate(ReduceOp::kSum, PJRTX_Buffer_Type_PRED, &a, &b, 1);
  EXPECT_EQ(status.code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(status.message(), HasSubstr("PRED"));
  EXPECT_THAT(status.message(), HasSubstr("F32"));
  EXPECT_EQ(ReducibleElementSize(PJRTX_Buffer_Type_C64).status().code(),
            absl::StatusCode::kUnimplemented);
}

TEST(ReductionTest, NullBufferIsRejected) {
  float a = 0;
  absl::Status status =
      Accumulate(ReduceOp::kSum, PJRTX_Buffer_Type_F32, &a, nullptr, 1);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(
      Accumulate(ReduceOp::kSum, PJRTX_Buffer_Type_F32, nullptr, nullptr, 0)
          .ok());
}

}  // namespace
}  // namespace pjrtx::collectives
