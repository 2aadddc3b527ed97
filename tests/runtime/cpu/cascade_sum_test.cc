// CascadeSum: its error stays near one ulp where a sequential sum's grows
// with the count, its bits do not depend on how the values are fed, and
// signed zeros, infinities and NaN come out as addition says. Reductions
// that sum rows use it whether the row is read in place or produced a
// chunk at a time by a fused producer.
#include "runtime/cpu/cascade_sum.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "absl/status/status.h"
#include "compiler_stub/ir/program.h"
#include "gtest/gtest.h"
#include "runtime/cpu/literal.h"
#include "runtime/cpu/simple_reduce.h"

namespace pjrtx::cpu {
namespace {

std::vector<float> RandomValues(int64_t count, uint32_t seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  std::vector<float> values(count);
  for (float& v : values) v = uniform(engine);
  return values;
}

double ExactSum(const std::vector<float>& values) {
  // Doubles hold every partial sum of 2^20 floats in [0, 1) to ~1e-16.
  double sum = 0;
  for (float v : values) sum += v;
  return sum;
}

uint32_t Bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

TEST(CascadeSumTest, ErrorStaysNearOneUlpWhereASequentialSumDrifts) {
  const std::vector<float> values = RandomValues(1 << 20, 7);
  const double exact = ExactSum(values);
  CascadeSum<float> cascade;
  cascade.Add(values.data(), static_cast<int64_t>(values.size()));
  float sequential = 0;
  for (float v : values) sequential += v;
  const double cascade_error = std::abs(cascade.Total() - exact) / exact;
  const double sequential_error = std::abs(sequential - exact) / exact;
  EXPECT_LT(cascade_error, 2e-7) << "exact " << exact;
  // What the cascade is for: at this count the plain loop is off by many
  // ulps (about 4e-6 relative).
  EXPECT_GT(sequential_error, 20 * cascade_error) << "exact " << exact;
}

TEST(CascadeSumTest, SmallSumsAreExact) {
  std::vector<float> values;
  for (int i = 1; i <= 1000; ++i) values.push_back(static_cast<float>(i));
  CascadeSum<float> sum;
  sum.Add(values.data(), static_cast<int64_t>(values.size()));
  EXPECT_EQ(sum.Total(), 500500.0f);
}

TEST(CascadeSumTest, PiecesOfAnyLengthGiveTheSameBits) {
  const std::vector<float> values = RandomValues(5000, 11);
  CascadeSum<float> whole;
  whole.Add(values.data(), static_cast<int64_t>(values.size()));
  std::mt19937 engine(3);
  for (int trial = 0; trial < 20; ++trial) {
    CascadeSum<float> pieces;
    int64_t fed = 0;
    while (fed < static_cast<int64_t>(values.size())) {
      const int64_t length = std::min<int64_t>(
          std::uniform_int_distribution<int64_t>(0, 700)(engine),
          static_cast<int64_t>(values.size()) - fed);
      pieces.Add(values.data() + fed, length);
      fed += length;
    }
    ASSERT_EQ(Bits(pieces.Total()), Bits(whole.Total())) << "trial " << trial;
  }
}

TEST(CascadeSumTest, SignedZerosInfinitiesAndNaN) {
  CascadeSum<float> empty;
  EXPECT_EQ(Bits(empty.Total()), Bits(-0.0f));

  const std::vector<float> negative_zeros(300, -0.0f);
  CascadeSum<float> zeros;
  zeros.Add(negative_zeros.data(), 300);
  EXPECT_EQ(Bits(zeros.Total()), Bits(-0.0f));

  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> values(1000, 1.0f);
  values[517] = inf;
  CascadeSum<float> with_inf;
  with_inf.Add(values.data(), 1000);
  EXPECT_EQ(with_inf.Total(), inf);

  values[3] = -inf;
  CascadeSum<float> both_infinities;
  both_infinities.Add(values.data(), 1000);
  EXPECT_TRUE(std::isnan(both_infinities.Total()));
}

TEST(CascadeSumTest, DoublesToo) {
  std::vector<double> values(100000, 0.1);
  CascadeSum<double> sum;
  sum.Add(values.data(), static_cast<int64_t>(values.size()));
  EXPECT_NEAR(sum.Total(), 10000.0, 1e-10);
}

// Sums over the last dimension, over both, and over the first (a column
// sum, which stays a plain loop), read in place and produced in chunks of
// the producer's size: the same bits either way.
TEST(CascadeSumTest, ReductionsInPlaceAndProducedAgree) {
  const Shape shape{ir::ElementType::kF32, {3, 7001}};
  const std::vector<float> values = RandomValues(3 * 7001, 5);
  Literal input(shape);
  std::memcpy(input.data(), values.data(), values.size() * sizeof(float));
  Literal init(Shape{ir::ElementType::kF32, {}});
  init.as<float>()[0] = 0.0f;
  const std::vector<std::vector<int64_t>> reductions = {{1}, {0, 1}, {0}};
  for (const std::vector<int64_t>& dimensions : reductions) {
    std::vector<int64_t> kept;
    for (int64_t d = 0; d < 2; ++d) {
      if (std::find(dimensions.begin(), dimensions.end(), d) ==
          dimensions.end()) {
        kept.push_back(shape.dims[d]);
      }
    }
    const Shape result{ir::ElementType::kF32, kept};
    std::optional<Literal> in_place =
        SimpleReduce(ir::BinaryOp::kAdd, input, init, dimensions, result);
    ASSERT_TRUE(in_place.has_value());
    auto produce = [&](int64_t start, int64_t length, void* out) {
      std::memcpy(out, values.data() + start, length * sizeof(float));
      return absl::OkStatus();
    };
    std::optional<absl::StatusOr<Literal>> produced = SimpleReduceProduced(
        ir::BinaryOp::kAdd, shape, produce, init, dimensions, result);
    ASSERT_TRUE(produced.has_value());
    ASSERT_TRUE(produced->ok()) << produced->status();
    ASSERT_EQ(in_place->num_elements(), (*produced)->num_elements());
    for (int64_t i = 0; i < in_place->num_elements(); ++i) {
      EXPECT_EQ(Bits(in_place->as<float>()[i]),
                Bits((*produced)->as<float>()[i]))
          << "dimensions " << dimensions.size() << " element " << i;
    }
  }
  // The whole sum cascades across rows: near the exact value.
  std::optional<Literal> total =
      SimpleReduce(ir::BinaryOp::kAdd, input, init, std::vector<int64_t>{0, 1},
                   Shape{ir::ElementType::kF32, {}});
  ASSERT_TRUE(total.has_value());
  const double exact = ExactSum(values);
  EXPECT_LT(std::abs(total->as<float>()[0] - exact) / exact, 2e-7);
}

}  // namespace
}  // namespace pjrtx::cpu
