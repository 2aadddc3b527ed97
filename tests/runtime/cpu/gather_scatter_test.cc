// gather and scatter, on the StableHLO spec's examples (which the
// interpreter corpus shares) and their edge cases: clamping, skipped
// out-of-bounds updates, implicit index vector dimensions.
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/cpu/kernels.h"
#include "runtime/cpu/literal.h"
#include "tests/runtime/cpu/structural_test_util.h"

namespace pjrtx::cpu {
namespace {

using ::pjrtx::cpu::testing::AddRegion;
using ::pjrtx::cpu::testing::Floats;
using ::pjrtx::cpu::testing::FloatsOf;
using ::pjrtx::cpu::testing::Ints;
using ::pjrtx::cpu::testing::IntsOf;
using ::pjrtx::cpu::testing::S64;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

// 1, 2, ..., n.
std::vector<int64_t> Count(int64_t n) {
  std::vector<int64_t> values(n);
  for (int64_t i = 0; i < n; ++i) values[i] = i + 1;
  return values;
}

TEST(GatherTest, SpecExample) {
  Literal operand = S64({3, 4, 2}, Count(24));
  Literal indices = S64({2, 3, 2}, {0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 0, 9});
  GatherDimensions dims;
  dims.offset_dims = {2, 3};
  dims.collapsed_slice_dims = {0};
  dims.start_index_map = {1, 0};
  dims.index_vector_dim = 2;
  Literal result = Gather(operand, indices, dims, {1, 2, 2},
                          Shape{ElementType::kS64, {2, 3, 2, 2}});
  // [0, 9] is clamped to [0, 2]: the slice must fit.
  EXPECT_THAT(IntsOf(result),
              ElementsAre(1, 2, 3, 4, 3, 4, 5, 6, 13, 14, 15, 16,  //
                          9, 10, 11, 12, 11, 12, 13, 14, 17, 18, 19, 20));
}

TEST(GatherTest, BatchingDimensions) {
  Literal operand = S64({2, 3, 4, 2}, Count(48));
  Literal indices = S64({2, 2, 3, 2}, {0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 0, 9,  //
                                       0, 0, 2, 1, 2, 2, 1, 2, 0, 1, 1, 0});
  GatherDimensions dims;
  dims.offset_dims = {3, 4};
  dims.collapsed_slice_dims = {1};
  dims.operand_batching_dims = {0};
  dims.start_indices_batching_dims = {1};
  dims.start_index_map = {2, 1};
  dims.index_vector_dim = 3;
  Literal result = Gather(operand, indices, dims, {1, 1, 2, 2},
                          Shape{ElementType::kS64, {2, 2, 3, 2, 2}});
  EXPECT_THAT(
      IntsOf(result),
      ElementsAreArray(std::vector<int64_t>{
          1,  2,  3,  4,  3,  4,  5,  6,  13, 14, 15, 16, 33, 34, 35, 36,
          35, 36, 37, 38, 41, 42, 43, 44, 1,  2,  3,  4,  13, 14, 15, 16,
          21, 22, 23, 24, 43, 44, 45, 46, 33, 34, 35, 36, 27, 28, 29, 30}));
}

TEST(GatherTest, ImplicitIndexVectorDimensionAndClamping) {
  Literal operand = Floats(ElementType::kF16, {5}, {10, 20, 30, 40, 50});
  Literal indices = Ints(ElementType::kS32, {3}, {4, -2, 1});
  GatherDimensions dims;
  dims.offset_dims = {1};
  dims.start_index_map = {0};
  dims.index_vector_dim = 1;
  Literal result =
      Gather(operand, indices, dims, {2}, Shape{ElementType::kF16, {3, 2}});
  EXPECT_THAT(FloatsOf(result), ElementsAre(40, 50, 10, 20, 20, 30));
}

TEST(GatherTest, RowsByIndex) {
  Literal operand = S64({3, 2}, {1, 2, 3, 4, 5, 6});
  // Unsigned indices beyond the int64 range clamp to the last row too.
  Literal indices = Ints(ElementType::kU64, {3, 1}, {2, 0, -1});
  GatherDimensions dims;
  dims.offset_dims = {1};
  dims.collapsed_slice_dims = {0};
  dims.start_index_map = {0};
  dims.index_vector_dim = 1;
  Literal result =
      Gather(operand, indices, dims, {1, 2}, Shape{ElementType::kS64, {3, 2}});
  EXPECT_THAT(IntsOf(result), ElementsAre(5, 6, 1, 2, 5, 6));
}

TEST(ScatterTest, SpecExample) {
  Literal input = S64({3, 4, 2}, Count(24));
  Literal indices = S64({2, 3, 2}, {0, 2, 1, 0, 2, 1, 0, 1, 1, 0, 0, 9});
  Literal updates = S64({2, 3, 2, 2}, std::vector<int64_t>(24, 1));
  ScatterDimensions dims;
  dims.update_window_dims = {2, 3};
  dims.inserted_window_dims = {0};
  dims.scatter_dims_to_operand_dims = {1, 0};
  dims.index_vector_dim = 2;
  absl::StatusOr<std::vector<Literal>> result =
      Scatter({input}, indices, {updates}, dims, AddRegion(), {input.shape()});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(IntsOf((*result)[0]),
              ElementsAre(1, 2, 5, 6, 7, 8, 7, 8, 10, 11, 12, 13, 14, 15, 16,
                          17, 18, 19, 20, 21, 21, 22, 23, 24));
  // The input is not modified.
  EXPECT_THAT(IntsOf(input), ElementsAreArray(Count(24)));
}

TEST(ScatterTest, BatchingDimensions) {
  Literal input = S64({2, 3, 4, 2}, Count(48));
  Literal indices = S64({2, 2, 3, 2}, {0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 0, 9,  //
                                       0, 0, 2, 1, 2, 2, 1, 2, 0, 1, 1, 0});
  Literal updates = S64({2, 2, 3, 2, 2}, std::vector<int64_t>(48, 1));
  ScatterDimensions dims;
  dims.update_window_dims = {3, 4};
  dims.inserted_window_dims = {1};
  dims.input_batching_dims = {0};
  dims.scatter_indices_batching_dims = {1};
  dims.scatter_dims_to_operand_dims = {2, 1};
  dims.index_vector_dim = 3;
  absl::StatusOr<std::vector<Literal>> result =
      Scatter({input}, indices, {updates}, dims, AddRegion(), {input.shape()});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(
      IntsOf((*result)[0]),
      ElementsAreArray(std::vector<int64_t>{
          3,  4,  6,  7,  6,  7,  7,  8,  9,  10, 11, 12, 15, 16, 17, 18,
          17, 18, 19, 20, 22, 23, 24, 25, 25, 26, 28, 29, 30, 31, 31, 32,
          35, 36, 38, 39, 38, 39, 39, 40, 41, 42, 44, 45, 46, 47, 47, 48}));
}

// Scatters windows of `updates` into a zero vector of 4 at `starts`.
absl::StatusOr<std::vector<Literal>> ScatterWindows(const Literal& starts,
                                                    const Literal& updates) {
  Literal input = S64({4}, {0, 0, 0, 0});
  ScatterDimensions dims;
  dims.update_window_dims = {1};
  dims.scatter_dims_to_operand_dims = {0};
  dims.index_vector_dim = 1;
  return Scatter({input}, starts, {updates}, dims, AddRegion(),
                 {input.shape()});
}

TEST(ScatterTest, OutOfBoundsElementsAreSkippedOneByOne) {
  // Of the window at 3 only position 3 is in bounds, of the window at -1
  // only position 0; the windows at the extreme indices are dropped whole
  // (without overflowing).
  Literal starts = S64({4, 1}, {3, -1, std::numeric_limits<int64_t>::max(),
                                std::numeric_limits<int64_t>::min()});
  Literal updates = S64({4, 2}, {1, 2, 10, 20, 100, 200, 1000, 2000});
  absl::StatusOr<std::vector<Literal>> result = ScatterWindows(starts, updates);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(IntsOf((*result)[0]), ElementsAre(20, 0, 0, 1));
}

TEST(ScatterTest, RepeatedIndicesCombine) {
  Literal starts = S64({3, 1}, {1, 1, 0});
  Literal updates = S64({3, 2}, {1, 2, 10, 20, 100, 200});
  absl::StatusOr<std::vector<Literal>> result = ScatterWindows(starts, updates);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(IntsOf((*result)[0]), ElementsAre(100, 211, 22, 0));
}

TEST(ScatterTest, VariadicInputsAndImplicitIndexVector) {
  Literal a = S64({3}, {1, 2, 3});
  Literal b = Floats(ElementType::kF32, {3}, {10, 20, 30});
  Literal indices = Ints(ElementType::kU8, {2}, {2, 0});
  Literal new_a = S64({2}, {7, 8});
  Literal new_b = Floats(ElementType::kF32, {2}, {70, 80});
  // Replaces (a, b) with (new_a, new_b).
  RegionFn replace = [](absl::Span<const Literal> args)
      -> absl::StatusOr<std::vector<Literal>> {
    return std::vector<Literal>{args[2], args[3]};
  };
  ScatterDimensions dims;
  dims.inserted_window_dims = {0};
  dims.scatter_dims_to_operand_dims = {0};
  dims.index_vector_dim = 1;
  absl::StatusOr<std::vector<Literal>> result = Scatter(
      {a, b}, indices, {new_a, new_b}, dims, replace, {a.shape(), b.shape()});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(IntsOf((*result)[0]), ElementsAre(8, 2, 7));
  EXPECT_THAT(FloatsOf((*result)[1]), ElementsAre(80, 20, 70));
}

}  // namespace
}  // namespace pjrtx::cpu
