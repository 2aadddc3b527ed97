// dot_general and convolution, on the StableHLO spec's examples, the
// interpreter corpus and the accumulation rules of kernels.h.
#include <cstdint>
#include <utility>
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
using ::pjrtx::cpu::testing::Ints;
using ::pjrtx::cpu::testing::IntsOf;
using ::pjrtx::cpu::testing::S64;
using ::testing::ElementsAre;

DotDimensions Contracting(std::vector<int64_t> lhs, std::vector<int64_t> rhs) {
  DotDimensions dims;
  dims.lhs_contracting = std::move(lhs);
  dims.rhs_contracting = std::move(rhs);
  return dims;
}

TEST(DotGeneralTest, BatchedMatrixProduct) {
  Literal lhs = S64({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  Literal rhs = S64({2, 2, 2}, {1, 0, 0, 1, 1, 0, 0, 1});
  DotDimensions dims = Contracting({2}, {1});
  dims.lhs_batching = {0};
  dims.rhs_batching = {0};
  Literal result =
      DotGeneral(lhs, rhs, dims, Shape{ElementType::kS64, {2, 2, 2}});
  EXPECT_THAT(IntsOf(result), ElementsAre(1, 2, 3, 4, 5, 6, 7, 8));
}

TEST(DotGeneralTest, NoDimensionsIsAnOuterProduct) {
  Literal lhs = S64({2, 2}, {1, 2, 3, 4});
  Literal rhs = S64({2, 2}, {1, 0, 0, 1});
  Literal result =
      DotGeneral(lhs, rhs, {}, Shape{ElementType::kS64, {2, 2, 2, 2}});
  EXPECT_THAT(IntsOf(result), ElementsAre(1, 0, 0, 1, 2, 0, 0, 2,  //
                                          3, 0, 0, 3, 4, 0, 0, 4));
}

TEST(DotGeneralTest, ContractingDimensionsInAnyPosition) {
  Literal lhs = Floats(ElementType::kF32, {2, 3}, {1, 2, 3, 4, 5, 6});
  Literal rhs = Floats(ElementType::kF32, {3, 2}, {7, 8, 9, 10, 11, 12});
  Literal product = DotGeneral(lhs, rhs, Contracting({1}, {0}),
                               Shape{ElementType::kF32, {2, 2}});
  EXPECT_THAT(FloatsOf(product), ElementsAre(58, 64, 139, 154));
  // rhs transposed, contracted along its second dimension.
  Literal rhs_t = Floats(ElementType::kF32, {2, 3}, {7, 9, 11, 8, 10, 12});
  Literal same = DotGeneral(lhs, rhs_t, Contracting({1}, {1}),
                            Shape{ElementType::kF32, {2, 2}});
  EXPECT_THAT(FloatsOf(same), ElementsAre(58, 64, 139, 154));
  // lhs contracted along its first dimension: lhs^T . lhs.
  Literal gram = DotGeneral(lhs, lhs, Contracting({0}, {0}),
                            Shape{ElementType::kF32, {3, 3}});
  EXPECT_THAT(FloatsOf(gram), ElementsAre(17, 22, 27, 22, 29, 36, 27, 36, 45));
}

TEST(DotGeneralTest, ResultTypeMayBeWider) {
  Literal lhs = Floats(ElementType::kF32, {2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  Literal rhs = Floats(ElementType::kF32, {2, 2, 2}, {1, 0, 0, 1, 1, 0, 0, 1});
  DotDimensions dims = Contracting({2}, {1});
  dims.lhs_batching = {0};
  dims.rhs_batching = {0};
  Literal result =
      DotGeneral(lhs, rhs, dims, Shape{ElementType::kF64, {2, 2, 2}});
  EXPECT_THAT(FloatsOf(result), ElementsAre(1, 2, 3, 4, 5, 6, 7, 8));

  Literal s8 = Ints(ElementType::kS8, {2}, {100, 100});
  Literal wide =
      DotGeneral(s8, s8, Contracting({0}, {0}), Shape{ElementType::kS32, {}});
  EXPECT_THAT(IntsOf(wide), ElementsAre(20000));
}

TEST(DotGeneralTest, IntegersWrapToTheResultType) {
  Literal lhs = Ints(ElementType::kS8, {2}, {100, 100});
  Literal rhs = Ints(ElementType::kS8, {2}, {2, 1});
  Literal result =
      DotGeneral(lhs, rhs, Contracting({0}, {0}), Shape{ElementType::kS8, {}});
  EXPECT_THAT(IntsOf(result), ElementsAre(300 - 256));

  Literal big = Ints(ElementType::kU64, {2}, {0, 0});
  big.as<uint64_t>()[0] = (uint64_t{1} << 63) + 1;
  big.as<uint64_t>()[1] = uint64_t{1} << 63;
  Literal ones = Ints(ElementType::kU64, {2}, {1, 3});
  Literal sum = DotGeneral(big, ones, Contracting({0}, {0}),
                           Shape{ElementType::kU64, {}});
  // (2^63 + 1) + 3 * 2^63 = 4 * 2^63 + 1 = 1 (mod 2^64).
  EXPECT_EQ(sum.GetUInt(0), 1u);
}

TEST(DotGeneralTest, PredicatesUseAndOr) {
  Literal lhs = Ints(ElementType::kPred, {2, 2}, {1, 0, 0, 0});
  Literal rhs = Ints(ElementType::kPred, {2, 2}, {0, 1, 1, 0});
  Literal result = DotGeneral(lhs, rhs, Contracting({1}, {0}),
                              Shape{ElementType::kPred, {2, 2}});
  EXPECT_THAT(IntsOf(result), ElementsAre(0, 1, 0, 0));
}

TEST(DotGeneralTest, NarrowFloats) {
  Literal lhs = Floats(ElementType::kF16, {2}, {0.5, 1.5});
  Literal rhs = Floats(ElementType::kF16, {2}, {2, 4});
  Literal result =
      DotGeneral(lhs, rhs, Contracting({0}, {0}), Shape{ElementType::kF16, {}});
  EXPECT_THAT(FloatsOf(result), ElementsAre(7));

  Literal f8 = Floats(ElementType::kF8E4M3FN, {4}, {0, 1, 2, 3});
  Literal squares = DotGeneral(f8, f8, Contracting({0}, {0}),
                               Shape{ElementType::kF8E4M3FN, {}});
  EXPECT_THAT(FloatsOf(squares), ElementsAre(14));
}

TEST(DotGeneralTest, SinglePrecisionAccumulatesInDouble) {
  // In float, 1e8 + 1 rounds back to 1e8 and the 1 is lost.
  Literal lhs = Floats(ElementType::kF32, {3}, {1e8, 1, -1e8});
  Literal rhs = Floats(ElementType::kF32, {3}, {1, 1, 1});
  Literal result =
      DotGeneral(lhs, rhs, Contracting({0}, {0}), Shape{ElementType::kF32, {}});
  EXPECT_THAT(FloatsOf(result), ElementsAre(1));
}

TEST(DotGeneralTest, EmptyContractionGivesZeros) {
  Literal lhs = Floats(ElementType::kF32, {2, 0}, {});
  Literal rhs = Floats(ElementType::kF32, {0, 3}, {});
  Literal result = DotGeneral(lhs, rhs, Contracting({1}, {0}),
                              Shape{ElementType::kF32, {2, 3}});
  EXPECT_THAT(FloatsOf(result), ElementsAre(0, 0, 0, 0, 0, 0));
}

// [b, 0, 1, f] x [0, 1, i, o] -> [b, 0, 1, f].
ConvolutionDimensions Nhwc() {
  return {.input_batch = 0,
          .input_feature = 3,
          .input_spatial = {1, 2},
          .kernel_input_feature = 2,
          .kernel_output_feature = 3,
          .kernel_spatial = {0, 1},
          .output_batch = 0,
          .output_feature = 3,
          .output_spatial = {1, 2}};
}

// [b, 0, f] x [0, i, o] -> [b, 0, f].
ConvolutionDimensions Nwc() {
  return {.input_batch = 0,
          .input_feature = 2,
          .input_spatial = {1},
          .kernel_input_feature = 1,
          .kernel_output_feature = 2,
          .kernel_spatial = {0},
          .output_batch = 0,
          .output_feature = 2,
          .output_spatial = {1}};
}

// The window all the corpus cases share.
ConvolutionWindow StridedDilated() {
  ConvolutionWindow window;
  window.strides = {4, 4};
  window.lhs_dilation = {2, 2};
  return window;
}

// The 4x4 input all the corpus cases share.
Literal CorpusInput(ElementType type) {
  return Ints(type, {1, 4, 4, 1},
              {1, 2, 5, 6, 3, 4, 7, 8, 10, 11, 14, 15, 12, 13, 16, 17});
}

TEST(ConvolutionTest, StridesAndInputDilation) {
  Literal rhs =
      Ints(ElementType::kS64, {3, 3, 1, 1}, std::vector<int64_t>(9, 1));
  ConvolutionWindow window = StridedDilated();
  Literal result =
      Convolution(CorpusInput(ElementType::kS64), rhs, Nhwc(), window, 1, 1,
                  Shape{ElementType::kS64, {1, 2, 2, 1}});
  EXPECT_THAT(IntsOf(result), ElementsAre(10, 26, 46, 62));
}

TEST(ConvolutionTest, NarrowOperandsWideResult) {
  Literal rhs =
      Ints(ElementType::kS8, {3, 3, 1, 1}, std::vector<int64_t>(9, 10));
  ConvolutionWindow window = StridedDilated();
  Literal result =
      Convolution(CorpusInput(ElementType::kS8), rhs, Nhwc(), window, 1, 1,
                  Shape{ElementType::kS32, {1, 2, 2, 1}});
  EXPECT_THAT(IntsOf(result), ElementsAre(100, 260, 460, 620));
}

TEST(ConvolutionTest, Padding) {
  Literal rhs =
      Ints(ElementType::kS64, {3, 3, 1, 1}, std::vector<int64_t>(9, 1));
  ConvolutionWindow window = StridedDilated();
  window.padding = {{1, 1}, {1, 1}};
  Literal result =
      Convolution(CorpusInput(ElementType::kS64), rhs, Nhwc(), window, 1, 1,
                  Shape{ElementType::kS64, {1, 2, 2, 1}});
  EXPECT_THAT(IntsOf(result), ElementsAre(1, 5, 10, 14));
}

TEST(ConvolutionTest, BatchGroups) {
  // [0, b, 1, f] x [0, 1, i, o] -> [b, 0, 1, f].
  ConvolutionDimensions dims = Nhwc();
  dims.input_batch = 1;
  dims.input_spatial = {0, 2};
  Literal rhs =
      Ints(ElementType::kS64, {1, 2, 1, 4}, std::vector<int64_t>(8, 1));
  ConvolutionWindow window = StridedDilated();
  Literal result =
      Convolution(CorpusInput(ElementType::kS64), rhs, dims, window, 1, 4,
                  Shape{ElementType::kS64, {1, 1, 2, 4}});
  EXPECT_THAT(IntsOf(result), ElementsAre(1, 3, 10, 12, 5, 7, 14, 16));
}

TEST(ConvolutionTest, FeatureGroups) {
  // [b, 0, f, 1] x [0, i, 1, o] -> [b, 0, 1, f].
  ConvolutionDimensions dims = Nhwc();
  dims.input_feature = 2;
  dims.input_spatial = {1, 3};
  dims.kernel_input_feature = 1;
  dims.kernel_spatial = {0, 2};
  Literal rhs =
      Ints(ElementType::kS64, {1, 2, 1, 4}, std::vector<int64_t>(8, 1));
  ConvolutionWindow window = StridedDilated();
  Literal result =
      Convolution(CorpusInput(ElementType::kS64), rhs, dims, window, 2, 1,
                  Shape{ElementType::kS64, {1, 2, 1, 4}});
  EXPECT_THAT(IntsOf(result), ElementsAre(3, 3, 11, 11, 21, 21, 29, 29));
}

TEST(ConvolutionTest, WindowReversalFlipsTheKernel) {
  Literal lhs = Floats(ElementType::kF32, {1, 3, 1}, {1, 2, 3});
  Literal rhs = Floats(ElementType::kF32, {2, 1, 1}, {1, 10});
  const Shape result{ElementType::kF32, {1, 2, 1}};
  EXPECT_THAT(FloatsOf(Convolution(lhs, rhs, Nwc(), {}, 1, 1, result)),
              ElementsAre(21, 32));
  ConvolutionWindow reversed;
  reversed.window_reversal = {true};
  EXPECT_THAT(FloatsOf(Convolution(lhs, rhs, Nwc(), reversed, 1, 1, result)),
              ElementsAre(12, 23));
}

TEST(ConvolutionTest, KernelDilation) {
  Literal lhs = Floats(ElementType::kF64, {1, 5, 1}, {1, 2, 3, 4, 5});
  Literal rhs = Floats(ElementType::kF64, {2, 1, 1}, {1, 1});
  ConvolutionWindow window;
  window.rhs_dilation = {2};
  Literal result = Convolution(lhs, rhs, Nwc(), window, 1, 1,
                               Shape{ElementType::kF64, {1, 3, 1}});
  EXPECT_THAT(FloatsOf(result), ElementsAre(4, 6, 8));
}

TEST(ConvolutionTest, NegativePaddingCropsTheInput) {
  Literal lhs = Floats(ElementType::kF32, {1, 4, 1}, {1, 2, 3, 4});
  Literal rhs = Floats(ElementType::kF32, {1, 1, 1}, {2});
  ConvolutionWindow window;
  window.padding = {{-1, -1}};
  Literal result = Convolution(lhs, rhs, Nwc(), window, 1, 1,
                               Shape{ElementType::kF32, {1, 2, 1}});
  EXPECT_THAT(FloatsOf(result), ElementsAre(4, 6));
}

TEST(ConvolutionTest, SumsOverInputFeaturesPerOutputFeature) {
  // Two batches, two input and three output features, a window of 2.
  Literal lhs = Floats(ElementType::kF32, {2, 3, 2},
                       {1, 2, 3, 4, 5, 6,  //
                        -1, -2, -3, -4, -5, -6});
  // kernel[w][i][o] = (w + 1) * (i + 1) * (o + 1)... written out.
  Literal rhs = Floats(ElementType::kF32, {2, 2, 3},
                       {1, 2, 3, 2, 4, 6,  //
                        2, 4, 6, 4, 8, 12});
  Literal result = Convolution(lhs, rhs, Nwc(), {}, 1, 1,
                               Shape{ElementType::kF32, {2, 2, 3}});
  // out[b][x][o] = sum_w sum_i lhs[b][x+w][i] * kernel[w][i][o].
  // b=0, x=0, o=0: 1*1 + 2*2 + 3*2 + 4*4 = 27; x=1: 3 + 8 + 10 + 24 = 45.
  EXPECT_THAT(FloatsOf(result), ElementsAre(27, 54, 81, 45, 90, 135,  //
                                            -27, -54, -81, -45, -90, -135));
}

}  // namespace
}  // namespace pjrtx::cpu
