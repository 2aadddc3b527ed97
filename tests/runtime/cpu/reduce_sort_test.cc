// The region-driven kernels: reduce, reduce_window, select_and_scatter,
// sort and map, on the StableHLO spec's examples and the interpreter
// corpus.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/status/status.h"
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
using ::pjrtx::cpu::testing::Ints;
using ::pjrtx::cpu::testing::IntsOf;
using ::pjrtx::cpu::testing::MultiplyRegion;
using ::pjrtx::cpu::testing::PairwiseRegion;
using ::pjrtx::cpu::testing::PredicateRegion;
using ::pjrtx::cpu::testing::S64;
using ::pjrtx::cpu::testing::S64Scalar;
using ::testing::ElementsAre;
using ::testing::UnorderedElementsAreArray;

const Shape kScalarS64{ElementType::kS64, {}};

RegionFn MaxRegion() {
  return PairwiseRegion([](int64_t a, int64_t b) { return std::max(a, b); },
                        [](double a, double b) { return std::max(a, b); });
}

RegionFn FailingRegion() {
  return [](absl::Span<const Literal>) -> absl::StatusOr<std::vector<Literal>> {
    return absl::InvalidArgumentError("region failed");
  };
}

TEST(ReduceTest, SumsAlongADimension) {
  Literal input = S64({1, 6}, {0, 1, 2, 3, 4, 5});
  absl::StatusOr<std::vector<Literal>> result =
      Reduce({input}, {S64Scalar(0)}, {1}, AddRegion(),
             {Shape{ElementType::kS64, {1}}});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(IntsOf((*result)[0]), ElementsAre(15));
}

TEST(ReduceTest, KeepsTheOtherDimensionsInOrder) {
  Literal input = S64({2, 3}, {1, 2, 3, 4, 5, 6});
  absl::StatusOr<std::vector<Literal>> columns =
      Reduce({input}, {S64Scalar(0)}, {0}, AddRegion(),
             {Shape{ElementType::kS64, {3}}});
  ASSERT_TRUE(columns.ok()) << columns.status();
  EXPECT_THAT(IntsOf((*columns)[0]), ElementsAre(5, 7, 9));
  absl::StatusOr<std::vector<Literal>> all =
      Reduce({input}, {S64Scalar(1)}, {0, 1}, MultiplyRegion(), {kScalarS64});
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_THAT(IntsOf((*all)[0]), ElementsAre(720));
}

TEST(ReduceTest, FoldsInRowMajorOrderStartingFromTheInit) {
  // acc * 10 + x shows the order in which the body sees the elements.
  RegionFn digits =
      PairwiseRegion([](int64_t acc, int64_t x) { return acc * 10 + x; },
                     [](double acc, double x) { return acc * 10 + x; });
  Literal input = S64({2, 2}, {1, 2, 3, 4});
  absl::StatusOr<std::vector<Literal>> result =
      Reduce({input}, {S64Scalar(9)}, {1, 0}, digits, {kScalarS64});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(IntsOf((*result)[0]), ElementsAre(91234));
}

TEST(ReduceTest, VariadicArgmax) {
  // body(acc_value, acc_index, value, index) keeps the first maximum.
  RegionFn argmax = [](absl::Span<const Literal> args)
      -> absl::StatusOr<std::vector<Literal>> {
    if (args[2].GetInt(0) > args[0].GetInt(0))
      return std::vector{args[2], args[3]};
    return std::vector{args[0], args[1]};
  };
  Literal values = Ints(ElementType::kS32, {4}, {3, 7, 7, 1});
  Literal indices = S64({4}, {0, 1, 2, 3});
  Literal init_value =
      Ints(ElementType::kS32, {}, {std::numeric_limits<int32_t>::min()});
  absl::StatusOr<std::vector<Literal>> result =
      Reduce({values, indices}, {init_value, S64Scalar(-1)}, {0}, argmax,
             {Shape{ElementType::kS32, {}}, kScalarS64});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(IntsOf((*result)[0]), ElementsAre(7));
  EXPECT_THAT(IntsOf((*result)[1]), ElementsAre(1));
}

TEST(ReduceTest, EmptyReductionGivesTheInit) {
  Literal input = S64({2, 0}, {});
  absl::StatusOr<std::vector<Literal>> result =
      Reduce({input}, {S64Scalar(5)}, {1}, AddRegion(),
             {Shape{ElementType::kS64, {2}}});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(IntsOf((*result)[0]), ElementsAre(5, 5));
}

TEST(ReduceTest, RegionErrorsPropagate) {
  Literal input = S64({2}, {1, 2});
  absl::StatusOr<std::vector<Literal>> failed =
      Reduce({input}, {S64Scalar(0)}, {0}, FailingRegion(), {kScalarS64});
  EXPECT_EQ(failed.status().code(), absl::StatusCode::kInvalidArgument);

  RegionFn wrong_type =
      [](absl::Span<const Literal>) -> absl::StatusOr<std::vector<Literal>> {
    return std::vector{Literal(Shape{ElementType::kF32, {}})};
  };
  absl::StatusOr<std::vector<Literal>> mistyped =
      Reduce({input}, {S64Scalar(0)}, {0}, wrong_type, {kScalarS64});
  EXPECT_EQ(mistyped.status().code(), absl::StatusCode::kInternal);
}

// The window of the interpreter corpus's reduce_window cases.
WindowSpec CorpusWindow(int64_t rows) {
  WindowSpec window;
  window.dimensions = {rows, 1};
  window.strides = {4, 1};
  window.base_dilations = {2, 1};
  window.window_dilations = {3, 1};
  window.padding = {{2, 1}, {0, 0}};
  return window;
}

TEST(ReduceWindowTest, DilationsAndPadding) {
  Literal input = S64({3, 2}, {1, 2, 3, 4, 5, 6});
  absl::StatusOr<std::vector<Literal>> result =
      ReduceWindow({input}, {S64Scalar(0)}, CorpusWindow(2), AddRegion(),
                   {Shape{ElementType::kS64, {2, 2}}});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(IntsOf((*result)[0]), ElementsAre(0, 0, 3, 4));
}

TEST(ReduceWindowTest, WindowReachingTheHighPadding) {
  Literal input = S64({3, 2}, {1, 2, 3, 4, 5, 6});
  absl::StatusOr<std::vector<Literal>> result =
      ReduceWindow({input}, {S64Scalar(0)}, CorpusWindow(3), AddRegion(),
                   {Shape{ElementType::kS64, {1, 2}}});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(IntsOf((*result)[0]), ElementsAre(5, 6));
}

TEST(ReduceWindowTest, MaxPool) {
  Literal input = S64({4}, {1, 3, 2, 5});
  WindowSpec window;
  window.dimensions = {2};
  absl::StatusOr<std::vector<Literal>> result =
      ReduceWindow({input}, {S64Scalar(std::numeric_limits<int64_t>::min())},
                   window, MaxRegion(), {Shape{ElementType::kS64, {3}}});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(IntsOf((*result)[0]), ElementsAre(3, 3, 5));
}

TEST(ReduceWindowTest, PaddingIsFoldedInAsTheInitValue) {
  // Counting the body's calls: every window position is one, padding too.
  RegionFn count = PairwiseRegion([](int64_t acc, int64_t) { return acc + 1; },
                                  [](double acc, double) { return acc + 1; });
  Literal input = S64({2}, {7, 7});
  WindowSpec window;
  window.dimensions = {3};
  window.padding = {{1, 1}};
  absl::StatusOr<std::vector<Literal>> result = ReduceWindow(
      {input}, {S64Scalar(0)}, window, count, {Shape{ElementType::kS64, {2}}});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(IntsOf((*result)[0]), ElementsAre(3, 3));
}

TEST(SelectAndScatterTest, ScattersToTheSelectedElements) {
  Literal operand = S64({4, 2}, {1, 5, 2, 5, 3, 6, 4, 4});
  Literal source = S64({2, 2}, {5, 6, 7, 8});
  WindowSpec window;
  window.dimensions = {3, 1};
  window.strides = {2, 1};
  window.padding = {{0, 1}, {0, 0}};
  absl::StatusOr<Literal> result = SelectAndScatter(
      operand, source, S64Scalar(0), window,
      PredicateRegion([](double a, double b) { return a >= b; }), AddRegion(),
      Shape{ElementType::kS64, {4, 2}});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(IntsOf(*result), ElementsAre(0, 0, 0, 0, 5, 14, 7, 0));
}

TEST(SelectAndScatterTest, UnselectedElementsKeepTheInitValue) {
  Literal operand = S64({4}, {1, 2, 3, 4});
  Literal source = S64({2}, {10, 20});
  WindowSpec window;
  window.dimensions = {2};
  window.strides = {2};
  absl::StatusOr<Literal> result = SelectAndScatter(
      operand, source, S64Scalar(100), window,
      PredicateRegion([](double a, double b) { return a < b; }), AddRegion(),
      Shape{ElementType::kS64, {4}});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(IntsOf(*result), ElementsAre(110, 100, 120, 100));
}

TEST(SortTest, StableSortOfTwoInputsByTheFirst) {
  Literal keys = S64({2, 3}, {1, 2, 3, 3, 2, 1});
  Literal values = S64({2, 3}, {3, 2, 1, 1, 2, 3});
  absl::StatusOr<std::vector<Literal>> result =
      Sort({keys, values}, 0, true,
           PredicateRegion([](double a, double b) { return a > b; }));
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(IntsOf((*result)[0]), ElementsAre(3, 2, 3, 1, 2, 1));
  EXPECT_THAT(IntsOf((*result)[1]), ElementsAre(1, 2, 1, 3, 2, 3));
}

TEST(SortTest, SortsEveryColumn) {
  Literal input = S64({5, 7}, {0,  1,  1,  -3, -3, -2, 0,   //
                               4,  -1, 3,  0,  4,  0,  -3,  //
                               1,  0,  0,  0,  0,  2,  3,   //
                               -3, -4, -4, -2, 0,  3,  3,   //
                               0,  5,  2,  -2, 0,  -2, 0});
  absl::StatusOr<std::vector<Literal>> result =
      Sort({input}, 0, false,
           PredicateRegion([](double a, double b) { return a < b; }));
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(IntsOf((*result)[0]), ElementsAre(-3, -4, -4, -3, -3, -2, -3,  //
                                                0, -1, 0, -2, 0, -2, 0,      //
                                                0, 0, 1, -2, 0, 0, 0,        //
                                                1, 1, 2, 0, 0, 2, 3,         //
                                                4, 5, 3, 0, 4, 3, 3));
}

TEST(SortTest, NegativeDimensionAndStability) {
  Literal keys = S64({1, 6}, {1, 0, 1, 0, 1, 0});
  Literal values = S64({1, 6}, {0, 1, 2, 3, 4, 5});
  absl::StatusOr<std::vector<Literal>> result =
      Sort({keys, values}, -1, true,
           PredicateRegion([](double a, double b) { return a < b; }));
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(IntsOf((*result)[0]), ElementsAre(0, 0, 0, 1, 1, 1));
  EXPECT_THAT(IntsOf((*result)[1]), ElementsAre(1, 3, 5, 0, 2, 4));
}

TEST(SortTest, InconsistentComparatorStillPermutes) {
  std::vector<int64_t> values(100);
  for (int64_t i = 0; i < 100; ++i) values[i] = (i * 37) % 100;
  Literal input = S64({100}, values);
  absl::StatusOr<std::vector<Literal>> result = Sort(
      {input}, 0, false, PredicateRegion([](double, double) { return true; }));
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(IntsOf((*result)[0]), UnorderedElementsAreArray(values));
}

TEST(SortTest, ComparatorErrorsPropagate) {
  Literal input = S64({3}, {3, 1, 2});
  absl::StatusOr<std::vector<Literal>> result =
      Sort({input}, 0, true, FailingRegion());
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(MapTest, AppliesTheRegionElementwise) {
  Literal lhs = S64({2, 2}, {0, 1, 2, 3});
  Literal rhs = S64({2, 2}, {4, 5, 6, 7});
  // MultiplyRegion pairs its first half of arguments with the second.
  absl::StatusOr<Literal> result =
      Map({lhs, rhs}, MultiplyRegion(), Shape{ElementType::kS64, {2, 2}});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(IntsOf(*result), ElementsAre(0, 5, 12, 21));
}

}  // namespace
}  // namespace pjrtx::cpu
