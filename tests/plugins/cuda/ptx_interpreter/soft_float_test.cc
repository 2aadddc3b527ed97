// The rounding helpers against independent references: the compiler
// stub's float formats for round-to-nearest, the host's IEEE conversions
// under fesetround for f32, and a search over every f16 value for the
// directed modes.
#include "tests/plugins/cuda/ptx_interpreter/soft_float.h"

#include <algorithm>
#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "compiler_stub/ir/float_formats.h"
#include "gtest/gtest.h"

namespace fake_cuda::ptx {
namespace {

constexpr Rounding kModes[] = {Rounding::kNearestEven, Rounding::kTowardZero,
                               Rounding::kDown, Rounding::kUp};

// Doubles around the f16 grid: halves, midpoints between neighbours, values
// a little off both, over the whole range and beyond, both signs.
std::vector<double> HalfTestValues() {
  std::vector<double> values;
  std::mt19937_64 random(3);
  for (uint32_t bits = 0; bits < 0x7C00; bits += 7) {
    const double h = pjrtx::ir::HalfToFloat(static_cast<uint16_t>(bits));
    const double next = pjrtx::ir::HalfToFloat(static_cast<uint16_t>(bits + 1));
    const double mid = (h + next) / 2;
    for (double v : {h, mid, std::nextafter(mid, 0.0), std::nextafter(mid, 1e9),
                     h + (next - h) / 3}) {
      values.push_back(v);
      values.push_back(-v);
    }
  }
  for (double v : {65504.0, 65519.0, 65520.0, 65536.0, 1e10, 0x1p-25, 0x1p-26,
                   0x1p-24 * 1.5, 1e-300}) {
    values.push_back(v);
    values.push_back(-v);
  }
  return values;
}

TEST(SoftFloatTest, FloatToHalfMatchesTheCompilerStub) {
  for (uint64_t bits = 0; bits <= 0xFFFFFFFF; bits += 997) {
    const float value = std::bit_cast<float>(static_cast<uint32_t>(bits));
    ASSERT_EQ(FloatToHalf(value), pjrtx::ir::FloatToHalf(value))
        << std::hex << bits;
    ASSERT_EQ(FloatToBFloat16(value), pjrtx::ir::FloatToBFloat16(value))
        << std::hex << bits;
  }
}

TEST(SoftFloatTest, HalfToFloatIsExact) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const float value = HalfToFloat(static_cast<uint16_t>(bits));
    const float expected = pjrtx::ir::HalfToFloat(static_cast<uint16_t>(bits));
    ASSERT_TRUE((std::isnan(value) && std::isnan(expected)) ||
                std::bit_cast<uint32_t>(value) ==
                    std::bit_cast<uint32_t>(expected))
        << std::hex << bits;
    EXPECT_EQ(
        std::bit_cast<uint32_t>(BFloat16ToFloat(static_cast<uint16_t>(bits))),
        bits << 16);
  }
}

TEST(SoftFloatTest, NearestFromDoubleMatchesTheCompilerStub) {
  std::vector<double> values = HalfTestValues();
  std::mt19937_64 random(8);
  for (int i = 0; i < 100000; ++i) {
    values.push_back(std::bit_cast<double>(random()));
  }
  for (double v : values) {
    if (std::isnan(v)) continue;
    ASSERT_EQ(RoundToHalf(v, 0, Rounding::kNearestEven),
              pjrtx::ir::DoubleToHalf(v))
        << v;
    ASSERT_EQ(RoundToBFloat16(v, 0, Rounding::kNearestEven),
              pjrtx::ir::DoubleToBFloat16(v))
        << v;
  }
}

// f16 by search: the neighbours of `value` among all finite halves.
uint16_t HalfBySearch(double value, Rounding rounding) {
  static const std::vector<std::pair<double, uint16_t>> halves = [] {
    std::vector<std::pair<double, uint16_t>> all;
    for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
      const double v = pjrtx::ir::HalfToFloat(static_cast<uint16_t>(bits));
      if (std::isfinite(v) && v != 0) {
        all.push_back({v, static_cast<uint16_t>(bits)});
      }
    }
    all.push_back({0.0, 0});
    std::sort(all.begin(), all.end());
    return all;
  }();
  const bool negative = std::signbit(value);
  const uint16_t sign = negative ? 0x8000 : 0;
  if (value == 0) return sign;
  const double max = 65504;
  if (std::fabs(value) > max) {
    const bool away = (rounding == Rounding::kUp && !negative) ||
                      (rounding == Rounding::kDown && negative);
    return sign | (away ? 0x7C00 : 0x7BFF);
  }
  auto upper = std::lower_bound(
      halves.begin(), halves.end(), value,
      [](const auto& entry, double v) { return entry.first < v; });
  if (upper->first == value) return upper->second;
  const auto lower = upper - 1;
  const bool toward_lower = rounding == Rounding::kDown ||
                            (rounding == Rounding::kTowardZero && !negative);
  const uint16_t bits = toward_lower ? lower->second : upper->second;
  // A zero result keeps the sign of the value.
  return (bits & 0x7FFF) == 0 ? sign : bits;
}

TEST(SoftFloatTest, DirectedRoundingToHalfMatchesASearch) {
  for (double v : HalfTestValues()) {
    for (Rounding rounding : kModes) {
      if (rounding == Rounding::kNearestEven) continue;
      ASSERT_EQ(RoundToHalf(v, 0, rounding), HalfBySearch(v, rounding))
          << v << " mode " << static_cast<int>(rounding);
      // A residual makes the exact value lie just past `v`, which the
      // adjacent double stands for exactly as well.
      for (int residual : {-1, 1}) {
        const double past =
            std::nextafter(v, residual > 0 ? HUGE_VAL : -HUGE_VAL);
        ASSERT_EQ(RoundToHalf(v, residual, rounding),
                  HalfBySearch(past, rounding))
            << v << " residual " << residual << " mode "
            << static_cast<int>(rounding);
      }
    }
  }
}

TEST(SoftFloatTest, NearestWithResidualBreaksTies) {
  const double tie = 1 + 0x1p-11;  // Between 0x3C00 and 0x3C01.
  EXPECT_EQ(RoundToHalf(tie, 0, Rounding::kNearestEven), 0x3C00);
  EXPECT_EQ(RoundToHalf(tie, 1, Rounding::kNearestEven), 0x3C01);
  EXPECT_EQ(RoundToHalf(tie, -1, Rounding::kNearestEven), 0x3C00);
  EXPECT_EQ(RoundToHalf(-tie, -1, Rounding::kNearestEven), 0xBC01);
  // Just under a power of two: the binade below.
  EXPECT_EQ(RoundToHalf(1.0, -1, Rounding::kTowardZero), 0x3BFF);
  EXPECT_EQ(RoundToHalf(0x1p-14, -1, Rounding::kTowardZero), 0x03FF);
  EXPECT_EQ(RoundToBFloat16(1.0, -1, Rounding::kDown), 0x3F7F);
}

int HostMode(Rounding rounding) {
  switch (rounding) {
    case Rounding::kNearestEven:
      return FE_TONEAREST;
    case Rounding::kTowardZero:
      return FE_TOWARDZERO;
    case Rounding::kDown:
      return FE_DOWNWARD;
    case Rounding::kUp:
      return FE_UPWARD;
  }
  return FE_TONEAREST;
}

float HostDoubleToFloat(double value, Rounding rounding) {
  volatile double in = value;
  volatile float out;
  std::fesetround(HostMode(rounding));
  out = static_cast<float>(in);
  std::fesetround(FE_TONEAREST);
  return out;
}

TEST(SoftFloatTest, RoundToFloatMatchesTheHost) {
  std::mt19937_64 random(9);
  std::vector<double> values = {0x1p-149,     0x1p-150,     0x1.8p-150,
                                3.4028235e38, 3.4028236e38, 1e300,
                                1.0 / 3};
  for (int i = 0; i < 200000; ++i) {
    // Exponents from below the f32 subnormals to past its range.
    const double mantissa =
        std::uniform_real_distribution<double>(1, 2)(random);
    const int exponent = static_cast<int>(random() % 300) - 160;
    values.push_back(std::ldexp(i % 2 ? mantissa : -mantissa, exponent));
  }
  for (double v : values) {
    for (Rounding rounding : kModes) {
      const float expected = HostDoubleToFloat(v, rounding);
      const float actual = RoundToFloat(v, 0, rounding);
      ASSERT_EQ(std::bit_cast<uint32_t>(actual),
                std::bit_cast<uint32_t>(expected))
          << v << " mode " << static_cast<int>(rounding);
    }
  }
}

TEST(SoftFloatTest, RoundToDoubleStepsTowardTheExactValue) {
  EXPECT_EQ(RoundToDouble(1.0, 1, Rounding::kUp), std::nextafter(1.0, 2.0));
  EXPECT_EQ(RoundToDouble(1.0, 1, Rounding::kDown), 1.0);
  EXPECT_EQ(RoundToDouble(1.0, -1, Rounding::kTowardZero),
            std::nextafter(1.0, 0.0));
  EXPECT_EQ(RoundToDouble(-1.0, 1, Rounding::kTowardZero),
            std::nextafter(-1.0, 0.0));
  EXPECT_EQ(RoundToDouble(1.0, -1, Rounding::kNearestEven), 1.0);
  // Overflow: infinity from a finite exact value.
  EXPECT_EQ(RoundToDouble(HUGE_VAL, -1, Rounding::kTowardZero),
            std::numeric_limits<double>::max());
  EXPECT_EQ(RoundToDouble(HUGE_VAL, -1, Rounding::kUp), HUGE_VAL);
  EXPECT_EQ(RoundToDouble(-HUGE_VAL, 1, Rounding::kUp),
            -std::numeric_limits<double>::max());
}

TEST(SoftFloatTest, RoundToIntegral) {
  struct Case {
    double value;
    double nearest, zero, down, up;
  };
  for (const Case& c : std::vector<Case>{
           {2.5, 2, 2, 2, 3},
           {3.5, 4, 3, 3, 4},
           {-2.5, -2, -2, -3, -2},
           {-0.4, -0.0, -0.0, -1, -0.0},
           {0.5, 0, 0, 0, 1},
           {1e300, 1e300, 1e300, 1e300, 1e300},
           {4503599627370497.0, 4503599627370497.0, 4503599627370497.0,
            4503599627370497.0, 4503599627370497.0}}) {
    const double expected[] = {c.nearest, c.zero, c.down, c.up};
    for (int m = 0; m < 4; ++m) {
      const double actual = RoundToIntegral(c.value, kModes[m]);
      EXPECT_EQ(actual, expected[m]) << c.value << " mode " << m;
      EXPECT_EQ(std::signbit(actual), std::signbit(expected[m]))
          << c.value << " mode " << m;
    }
  }
  EXPECT_TRUE(std::isnan(RoundToIntegral(NAN, Rounding::kNearestEven)));
}

TEST(SoftFloatTest, SumResidualIsTheSignOfTheLostPart) {
  EXPECT_EQ(SumResidual(1.0, 0x1p-60, 1.0 + 0x1p-60), 1);
  EXPECT_EQ(SumResidual(1.0, -0x1p-60, 1.0 - 0x1p-60), -1);
  EXPECT_EQ(SumResidual(1.0, 2.0, 3.0), 0);
  EXPECT_EQ(SumResidual(HUGE_VAL, 1.0, HUGE_VAL), 0);
}

}  // namespace
}  // namespace fake_cuda::ptx
