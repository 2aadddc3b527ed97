// Iota, broadcast, reshape, transpose, slicing, concatenation, padding and
// reversal, on the StableHLO spec's examples and the interpreter corpus.
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
using ::pjrtx::cpu::testing::Ints;
using ::pjrtx::cpu::testing::IntsOf;
using ::pjrtx::cpu::testing::S64;
using ::pjrtx::cpu::testing::S64Scalar;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::IsEmpty;

TEST(IotaTest, CountsAlongTheDimension) {
  Literal dim0 = Iota(Shape{ElementType::kS4, {3, 4}}, 0);
  EXPECT_THAT(IntsOf(dim0), ElementsAre(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2));
  Literal dim1 = Iota(Shape{ElementType::kU64, {3, 4}}, 1);
  EXPECT_THAT(IntsOf(dim1), ElementsAre(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3));
}

TEST(IotaTest, FloatTypes) {
  Literal bf16 = Iota(Shape{ElementType::kBF16, {2, 3}}, 1);
  EXPECT_THAT(FloatsOf(bf16), ElementsAre(0, 1, 2, 0, 1, 2));
  Literal f64 = Iota(Shape{ElementType::kF64, {4}}, 0);
  EXPECT_THAT(FloatsOf(f64), ElementsAre(0, 1, 2, 3));
}

TEST(BroadcastInDimTest, StretchesSizeOneDimensions) {
  Literal operand = S64({3, 1}, {1, 2, 3});
  Literal result =
      BroadcastInDim(operand, Shape{ElementType::kS64, {3, 2, 2}}, {0, 2});
  EXPECT_THAT(IntsOf(result), ElementsAre(1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3));
}

TEST(BroadcastInDimTest, ScalarOfAnyTypeFillsTheResult) {
  Literal pred = Ints(ElementType::kPred, {}, {1});
  Literal result = BroadcastInDim(pred, Shape{ElementType::kPred, {2, 2}}, {});
  EXPECT_THAT(IntsOf(result), ElementsAre(1, 1, 1, 1));
}

TEST(BroadcastInDimTest, MayPermuteDimensions) {
  Literal operand = S64({2, 3}, {1, 2, 3, 4, 5, 6});
  Literal result =
      BroadcastInDim(operand, Shape{ElementType::kS64, {3, 2}}, {1, 0});
  EXPECT_THAT(IntsOf(result), ElementsAre(1, 4, 2, 5, 3, 6));
}

TEST(ReshapeTest, KeepsRowMajorOrder) {
  Literal operand = Ints(ElementType::kS32, {2, 3}, {1, 2, 3, 4, 5, 6});
  Literal result = Reshape(operand, Shape{ElementType::kS32, {3, 2}});
  EXPECT_EQ(result.dims(), (std::vector<int64_t>{3, 2}));
  EXPECT_THAT(IntsOf(result), ElementsAre(1, 2, 3, 4, 5, 6));
  // The result owns its storage.
  EXPECT_NE(result.data(), operand.data());
}

TEST(TransposeTest, PermutesDimensions) {
  Literal operand = Ints(ElementType::kS32, {2, 3, 2},
                         {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  Literal swapped =
      Transpose(operand, {1, 0, 2}, Shape{ElementType::kS32, {3, 2, 2}});
  EXPECT_THAT(IntsOf(swapped),
              ElementsAre(1, 2, 7, 8, 3, 4, 9, 10, 5, 6, 11, 12));
  Literal reversed =
      Transpose(operand, {2, 1, 0}, Shape{ElementType::kS32, {2, 3, 2}});
  EXPECT_THAT(IntsOf(reversed),
              ElementsAre(1, 7, 3, 9, 5, 11, 2, 8, 4, 10, 6, 12));
  Literal back =
      Transpose(reversed, {2, 1, 0}, Shape{ElementType::kS32, {2, 3, 2}});
  EXPECT_TRUE(back.BitwiseEquals(operand));
}

TEST(TransposeTest, MovesSixteenBitFloatsBitExactly) {
  Literal operand = Floats(ElementType::kBF16, {2, 3}, {1, 2, 3, -4, 0.5, 6});
  Literal result =
      Transpose(operand, {1, 0}, Shape{ElementType::kBF16, {3, 2}});
  EXPECT_THAT(FloatsOf(result), ElementsAre(1, -4, 2, 0.5, 3, 6));
}

TEST(SliceTest, SpecExample) {
  Literal operand = S64({3, 6}, {0, 0, 1, 0, 0, 1,  //
                                 0, 0, 0, 0, 0, 0,  //
                                 0, 0, 1, 0, 0, 1});
  Literal result =
      Slice(operand, {0, 2}, {3, 6}, {2, 3}, Shape{ElementType::kS64, {2, 2}});
  EXPECT_THAT(IntsOf(result), ElementsAre(1, 1, 1, 1));
}

TEST(SliceTest, StartsAndStrides) {
  Literal operand = Iota(Shape{ElementType::kS64, {12}}, 0);
  Literal matrix = Reshape(operand, Shape{ElementType::kS64, {3, 4}});
  Literal result =
      Slice(matrix, {1, 1}, {3, 4}, {1, 2}, Shape{ElementType::kS64, {2, 2}});
  EXPECT_THAT(IntsOf(result), ElementsAre(5, 7, 9, 11));
  Literal empty =
      Slice(matrix, {1, 1}, {1, 4}, {1, 1}, Shape{ElementType::kS64, {0, 3}});
  EXPECT_THAT(IntsOf(empty), IsEmpty());
}

TEST(DynamicSliceTest, ClampsStartIndices) {
  Literal operand = S64({4, 4}, {0, 0, 1, 1,  //
                                 0, 0, 1, 1,  //
                                 0, 0, 0, 0,  //
                                 0, 0, 0, 0});
  Literal result =
      DynamicSlice(operand, {-1, 3}, {2, 2}, Shape{ElementType::kS64, {2, 2}});
  EXPECT_THAT(IntsOf(result), ElementsAre(1, 1, 1, 1));
}

TEST(DynamicSliceTest, WholeOperandFromOutOfRangeStart) {
  Literal operand = Iota(Shape{ElementType::kF16, {3, 3}}, 1);
  Literal result =
      DynamicSlice(operand, {3, 3}, {3, 3}, Shape{ElementType::kF16, {3, 3}});
  EXPECT_TRUE(result.BitwiseEquals(operand));
}

TEST(DynamicUpdateSliceTest, ClampsStartIndices) {
  Literal operand = S64({4, 4}, {1, 1, 0, 0,  //
                                 1, 1, 0, 0,  //
                                 1, 1, 1, 1,  //
                                 1, 1, 1, 1});
  Literal update = S64({2, 2}, {1, 1, 1, 1});
  Literal result = DynamicUpdateSlice(operand, update, {-1, 3});
  EXPECT_THAT(IntsOf(result), ElementsAreArray(std::vector<int64_t>(16, 1)));
  // The operand is untouched.
  EXPECT_EQ(operand.GetInt(2), 0);
}

TEST(DynamicUpdateSliceTest, InterpreterCorpus) {
  Literal operand = S64({4, 4}, {1, 1, 1, 1,  //
                                 1, 1, 1, 1,  //
                                 1, 2, 2, 2,  //
                                 1, 2, 2, 2});
  Literal update = S64({2, 3}, {1, 1, 1, 1, 1, 1});
  Literal result = DynamicUpdateSlice(operand, update, {4, 4});
  EXPECT_THAT(IntsOf(result), ElementsAreArray(std::vector<int64_t>(16, 1)));
}

TEST(DynamicUpdateSliceTest, PlacesTheUpdate) {
  Literal operand = S64({3, 3}, std::vector<int64_t>(9, 0));
  Literal update = S64({2, 1}, {7, 8});
  Literal result = DynamicUpdateSlice(operand, update, {1, 1});
  EXPECT_THAT(IntsOf(result), ElementsAre(0, 0, 0, 0, 7, 0, 0, 8, 0));
}

TEST(ConcatenateTest, AlongTheFirstDimension) {
  std::vector<Literal> inputs = {S64({3, 2}, {1, 2, 3, 4, 5, 6}),
                                 S64({1, 2}, {7, 8})};
  Literal result = Concatenate(inputs, 0, Shape{ElementType::kS64, {4, 2}});
  EXPECT_THAT(IntsOf(result), ElementsAre(1, 2, 3, 4, 5, 6, 7, 8));
}

TEST(ConcatenateTest, AlongAnInnerDimensionWithAnEmptyInput) {
  std::vector<Literal> inputs = {
      Ints(ElementType::kU8, {2, 2}, {1, 2, 3, 4}),
      Ints(ElementType::kU8, {2, 0}, {}),
      Ints(ElementType::kU8, {2, 1}, {5, 6}),
  };
  Literal result = Concatenate(inputs, 1, Shape{ElementType::kU8, {2, 3}});
  EXPECT_THAT(IntsOf(result), ElementsAre(1, 2, 5, 3, 4, 6));
}

TEST(PadTest, NegativeEdgesAndInteriorPadding) {
  Literal operand = S64({5, 4}, {0, 0, 0, 0,  //
                                 0, 1, 2, 0,  //
                                 0, 3, 4, 0,  //
                                 0, 5, 6, 0,  //
                                 0, 0, 0, 0});
  Literal result = Pad(operand, S64Scalar(-1), {1, -1}, {1, -1}, {0, 1},
                       Shape{ElementType::kS64, {7, 5}});
  EXPECT_THAT(IntsOf(result), ElementsAre(-1, -1, -1, -1, -1,  //
                                          -1, 0, -1, 0, -1,    //
                                          -1, 1, -1, 2, -1,    //
                                          -1, 3, -1, 4, -1,    //
                                          -1, 5, -1, 6, -1,    //
                                          -1, 0, -1, 0, -1,    //
                                          -1, -1, -1, -1, -1));
}

TEST(PadTest, SpecExample) {
  Literal operand = S64({2, 3}, {1, 2, 3, 4, 5, 6});
  Literal result = Pad(operand, S64Scalar(0), {0, 1}, {2, 1}, {1, 2},
                       Shape{ElementType::kS64, {5, 9}});
  EXPECT_THAT(IntsOf(result), ElementsAre(0, 1, 0, 0, 2, 0, 0, 3, 0,  //
                                          0, 0, 0, 0, 0, 0, 0, 0, 0,  //
                                          0, 4, 0, 0, 5, 0, 0, 6, 0,  //
                                          0, 0, 0, 0, 0, 0, 0, 0, 0,  //
                                          0, 0, 0, 0, 0, 0, 0, 0, 0));
}

TEST(PadTest, EmptyOperandIsAllPadding) {
  Literal operand = Floats(ElementType::kF32, {0}, {});
  Literal value = Floats(ElementType::kF32, {}, {2.5});
  Literal result =
      Pad(operand, value, {1}, {2}, {3}, Shape{ElementType::kF32, {3}});
  EXPECT_THAT(FloatsOf(result), ElementsAre(2.5, 2.5, 2.5));
}

TEST(ReverseTest, ReversesTheGivenDimensions) {
  Literal operand = S64({3, 2}, {1, 2, 3, 4, 5, 6});
  EXPECT_THAT(IntsOf(Reverse(operand, {1, 0})), ElementsAre(6, 5, 4, 3, 2, 1));
  EXPECT_THAT(IntsOf(Reverse(operand, {0})), ElementsAre(5, 6, 3, 4, 1, 2));
  EXPECT_THAT(IntsOf(Reverse(operand, {})), ElementsAre(1, 2, 3, 4, 5, 6));
}

}  // namespace
}  // namespace pjrtx::cpu
