// The fake NCCL's arithmetic, which the plugin's collectives are checked
// against: conversions of the narrow float types (exhaustively, where they
// round-trip), rounding to nearest even, FP8 saturation, and reductions
// that wrap and propagate NaN.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "gtest/gtest.h"
#include "tests/plugins/cuda/fake_nccl/reduction.h"

namespace fake_nccl {
namespace {

TEST(FakeNcclReductionTest, EveryHalfRoundTrips) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const float value = HalfToFloat(static_cast<uint16_t>(bits));
    if (std::isnan(value)) continue;
    EXPECT_EQ(FloatToHalf(value), bits) << std::hex << bits;
  }
  EXPECT_EQ(HalfToFloat(0x3c00), 1.0f);
  EXPECT_EQ(HalfToFloat(0x0001), std::ldexp(1.0f, -24));  // Subnormal.
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7c00);  // Rounds to infinity.
  // 1 + 2^-11 is halfway between 1 and the next half: to even (1).
  EXPECT_EQ(FloatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  EXPECT_EQ(FloatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
}

TEST(FakeNcclReductionTest, Bfloat16RoundsToNearestEven) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const float value = Bfloat16ToFloat(static_cast<uint16_t>(bits));
    if (std::isnan(value)) continue;
    EXPECT_EQ(FloatToBfloat16(value), bits) << std::hex << bits;
  }
  EXPECT_EQ(FloatToBfloat16(1.0f + std::ldexp(1.0f, -8)), 0x3f80);
  EXPECT_EQ(FloatToBfloat16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3f82);
}

TEST(FakeNcclReductionTest, Fp8RoundTripsAndSaturates) {
  for (bool e4m3 : {true, false}) {
    for (uint32_t bits = 0; bits < 0x100; ++bits) {
      const float value = Fp8ToFloat(static_cast<uint8_t>(bits), e4m3);
      if (std::isnan(value) || std::isinf(value)) continue;
      EXPECT_EQ(FloatToFp8(value, e4m3), bits) << e4m3 << " " << bits;
    }
  }
  EXPECT_EQ(Fp8ToFloat(0x7e, /*e4m3=*/true), 448.0f);
  EXPECT_EQ(FloatToFp8(1000.0f, /*e4m3=*/true), 0x7e);
  EXPECT_EQ(FloatToFp8(-1e9f, /*e4m3=*/false), 0xfb);  // -57344.
  // 1.0625 is halfway between 1 and 1.125 in E4M3: to even (1).
  EXPECT_EQ(FloatToFp8(1.0625f, /*e4m3=*/true), 0x38);
}

TEST(FakeNcclReductionTest, IntegersWrapAndFloatsPropagateNaN) {
  int8_t a[2] = {120, -3};
  const int8_t b[2] = {10, 5};
  Reduce(ncclInt8, ncclSum, a, b, 2);
  EXPECT_EQ(a[0], -126);
  EXPECT_EQ(a[1], 2);
  float x[2] = {1.0f, std::numeric_limits<float>::quiet_NaN()};
  const float y[2] = {std::numeric_limits<float>::quiet_NaN(), 2.0f};
  Reduce(ncclFloat32, ncclMax, x, y, 2);
  EXPECT_TRUE(std::isnan(x[0]));
  EXPECT_TRUE(std::isnan(x[1]));
  uint16_t h[1] = {0x3c00};        // 1.0
  const uint16_t g[1] = {0x4000};  // 2.0
  Reduce(ncclFloat16, ncclProd, h, g, 1);
  EXPECT_EQ(h[0], 0x4000);
  EXPECT_EQ(TypeSize(ncclBfloat16), 2u);
  EXPECT_EQ(TypeSize(static_cast<ncclDataType_t>(99)), 0u);
}

}  // namespace
}  // namespace fake_nccl
