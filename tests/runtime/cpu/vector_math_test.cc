#include "runtime/cpu/vector_math.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace pjrtx::cpu {
namespace {

// Distance in ulps between two finite floats of the same sign.
int64_t UlpDistance(float a, float b) {
  const int32_t x = std::bit_cast<int32_t>(a), y = std::bit_cast<int32_t>(b);
  return std::llabs(static_cast<int64_t>(x) - static_cast<int64_t>(y));
}

// Inputs over the whole useful range: every 97th float bit pattern (both
// signs, all exponents), plus random values near zero and the limits.
std::vector<float> Inputs() {
  std::vector<float> values;
  for (uint32_t bits = 0; bits < 0x7f800000u; bits += 97 * 1024) {
    values.push_back(std::bit_cast<float>(bits));
    values.push_back(-std::bit_cast<float>(bits));
  }
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> near(-12.0f, 12.0f);
  for (int i = 0; i < 200000; ++i) values.push_back(near(rng));
  for (float v : {0.0f, -0.0f, 1e-30f, -1e-30f, 0x1p-10f, 0x1.fffffep-11f, 9.0f,
                  9.1f, 20.0f, 87.0f, 88.7f, 89.0f, -87.0f, -103.0f, -104.0f,
                  -110.0f, 1e30f, -1e30f}) {
    values.push_back(v);
  }
  return values;
}

template <typename Fn, typename Reference>
void ExpectCloseToDouble(Fn fn, Reference reference, const char* name) {
  const std::vector<float> in = Inputs();
  std::vector<float> out(in.size());
  fn(in.data(), out.data(), static_cast<int64_t>(in.size()));
  int64_t off_by_one = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const float want =
        static_cast<float>(reference(static_cast<double>(in[i])));
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(out[i])) << name << "(" << in[i] << ")";
      continue;
    }
    if (std::isinf(want) || want == 0) {
      EXPECT_EQ(out[i], want) << name << "(" << in[i] << ")";
      EXPECT_EQ(std::signbit(out[i]), std::signbit(want))
          << name << "(" << in[i] << ")";
      continue;
    }
    const int64_t ulps = UlpDistance(out[i], want);
    ASSERT_LE(ulps, 1) << name << "(" << in[i] << ") = " << out[i]
                       << ", correctly rounded " << want;
    off_by_one += ulps;
  }
  // One ulp off only where the exact value sits at a rounding boundary.
  EXPECT_LE(off_by_one, static_cast<int64_t>(in.size() / 100000) + 2)
      << name << ": " << off_by_one << " of " << in.size() << " one ulp off";
}

TEST(VectorMathTest, TanhMatchesTheCorrectlyRoundedValue) {
  ExpectCloseToDouble(
      TanhF32, [](double x) { return std::tanh(x); }, "tanh");
}

TEST(VectorMathTest, ExpMatchesTheCorrectlyRoundedValue) {
  ExpectCloseToDouble(
      ExpF32, [](double x) { return std::exp(x); }, "exp");
}

TEST(VectorMathTest, LogisticMatchesTheCorrectlyRoundedValue) {
  ExpectCloseToDouble(
      LogisticF32, [](double x) { return 1.0 / (1.0 + std::exp(-x)); },
      "logistic");
}

TEST(VectorMathTest, SpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> in = {nan, inf, -inf, -0.0f, 0.0f};
  std::vector<float> out(in.size());
  TanhF32(in.data(), out.data(), 5);
  EXPECT_TRUE(std::isnan(out[0]));
  EXPECT_EQ(out[1], 1.0f);
  EXPECT_EQ(out[2], -1.0f);
  EXPECT_TRUE(std::signbit(out[3]) && out[3] == 0);
  ExpF32(in.data(), out.data(), 5);
  EXPECT_TRUE(std::isnan(out[0]));
  EXPECT_EQ(out[1], inf);
  EXPECT_EQ(out[2], 0.0f);
  EXPECT_EQ(out[3], 1.0f);
  LogisticF32(in.data(), out.data(), 5);
  EXPECT_TRUE(std::isnan(out[0]));
  EXPECT_EQ(out[1], 1.0f);
  EXPECT_EQ(out[2], 0.0f);
  EXPECT_EQ(out[4], 0.5f);
  // In place.
  std::vector<float> v = {0.5f, -2.0f};
  TanhF32(v.data(), v.data(), 2);
  EXPECT_EQ(v[0], static_cast<float>(std::tanh(0.5)));
  EXPECT_EQ(v[1], static_cast<float>(std::tanh(-2.0)));
}

}  // namespace
}  // namespace pjrtx::cpu
