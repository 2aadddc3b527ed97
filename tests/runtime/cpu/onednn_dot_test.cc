// OneDnnDot against the reference DotGeneral kernel, on many dimension
// layouts and every type pair oneDNN runs; and the interpreter's use of it.
#include "runtime/cpu/onednn_dot.h"

#include <cmath>
#include <cstdint>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "compiler_stub/compiler.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/cpu/interpreter.h"
#include "runtime/cpu/kernels.h"
#include "runtime/cpu/literal.h"
#include "runtime/cpu/program_cache.h"

namespace pjrtx::cpu {
namespace {

using ::testing::HasSubstr;

struct Layout {
  std::string name;
  std::vector<int64_t> lhs, rhs;
  std::vector<int64_t> lhs_batching, rhs_batching;
  std::vector<int64_t> lhs_contracting, rhs_contracting;

  DotDimensions dims() const {
    DotDimensions d;
    d.lhs_batching = lhs_batching;
    d.rhs_batching = rhs_batching;
    d.lhs_contracting = lhs_contracting;
    d.rhs_contracting = rhs_contracting;
    return d;
  }

  // dot_general's result dims: batching, lhs free, rhs free.
  std::vector<int64_t> result() const {
    std::vector<int64_t> dims;
    for (int64_t d : lhs_batching) dims.push_back(lhs[d]);
    for (const auto& [shape, batching, contracting] :
         {std::tuple{&lhs, &lhs_batching, &lhs_contracting},
          std::tuple{&rhs, &rhs_batching, &rhs_contracting}}) {
      for (int64_t d = 0; d < static_cast<int64_t>(shape->size()); ++d) {
        if (!Contains(*batching, d) && !Contains(*contracting, d)) {
          dims.push_back((*shape)[d]);
        }
      }
    }
    return dims;
  }

  static bool Contains(const std::vector<int64_t>& dims, int64_t d) {
    for (int64_t x : dims) {
      if (x == d) return true;
    }
    return false;
  }
};

void PrintTo(const Layout& layout, std::ostream* os) { *os << layout.name; }

std::vector<Layout> Layouts() {
  return {
      {"Matmul", {5, 7}, {7, 3}, {}, {}, {1}, {0}},
      {"LhsTransposed", {7, 5}, {7, 3}, {}, {}, {0}, {0}},
      {"RhsTransposed", {5, 7}, {3, 7}, {}, {}, {1}, {1}},
      {"BothTransposed", {7, 5}, {3, 7}, {}, {}, {0}, {1}},
      // Results wide enough that a transposed lhs is copied first.
      {"LhsTransposedWide", {7, 5}, {7, 64}, {}, {}, {0}, {0}},
      {"BothTransposedWide", {7, 5}, {64, 7}, {}, {}, {0}, {1}},
      {"BatchLeading", {4, 5, 7}, {4, 7, 3}, {0}, {0}, {2}, {1}},
      {"BatchMiddle", {5, 4, 7}, {7, 4, 3}, {1}, {1}, {2}, {0}},
      {"BatchLast", {5, 7, 4}, {3, 7, 4}, {2}, {2}, {1}, {1}},
      {"TwoBatchDimsInOtherOrders",
       {2, 3, 5, 7},
       {3, 7, 2, 4},
       {0, 1},
       {2, 0},
       {3},
       {1}},
      {"TwoContractingDims", {5, 3, 4}, {3, 4, 6}, {}, {}, {1, 2}, {0, 1}},
      {"TwoContractingDimsReversed",
       {5, 3, 4},
       {3, 4, 6},
       {},
       {},
       {2, 1},
       {1, 0}},
      {"InterleavedContractingDims",
       {3, 5, 4},
       {3, 4, 6},
       {},
       {},
       {0, 2},
       {0, 1}},
      {"SeveralFreeDims", {2, 3, 7}, {7, 2, 2}, {}, {}, {2}, {0}},
      {"FreeDimsAroundContracting", {2, 7, 3}, {7, 4}, {}, {}, {1}, {0}},
      {"VectorMatrix", {7}, {7, 3}, {}, {}, {0}, {0}},
      {"MatrixVector", {5, 7}, {7}, {}, {}, {1}, {0}},
      {"VectorDot", {7}, {7}, {}, {}, {0}, {0}},
      {"OuterProduct", {5}, {3}, {}, {}, {}, {}},
      {"Scalars", {}, {}, {}, {}, {}, {}},
      {"SizeOneDims", {1, 5, 1, 7}, {7, 1, 3}, {}, {}, {3}, {0}},
      {"BatchOfOne", {1, 5, 7}, {1, 7, 3}, {0}, {0}, {2}, {1}},
      {"EmptyM", {0, 7}, {7, 3}, {}, {}, {1}, {0}},
      {"EmptyK", {5, 0}, {0, 3}, {}, {}, {1}, {0}},
      {"EmptyBatch", {0, 5, 7}, {0, 7, 3}, {0}, {0}, {2}, {1}},
      {"LargeBatched", {3, 64, 96}, {3, 96, 80}, {0}, {0}, {2}, {1}},
      {"LargeTransposed", {130, 70}, {50, 130}, {}, {}, {0}, {1}},
  };
}

struct TypeCase {
  std::string name;
  ElementType operands, result;
  bool round_f32_to_bf16;
  // Allowed error relative to sum(|lhs| * |rhs|) over the contraction; 0:
  // exact.
  double tolerance;
};

void PrintTo(const TypeCase& types, std::ostream* os) { *os << types.name; }

std::vector<TypeCase> TypeCases() {
  return {
      {"F32", ElementType::kF32, ElementType::kF32, false, 1e-5},
      {"F32AsBf16Pass", ElementType::kF32, ElementType::kF32, true, 1e-5},
      {"Bf16ToF32", ElementType::kBF16, ElementType::kF32, false, 1e-5},
      // The bf16 result is rounded to 8 significant bits.
      {"Bf16", ElementType::kBF16, ElementType::kBF16, false, 1e-2},
      {"S8ToS32", ElementType::kS8, ElementType::kS32, false, 0},
  };
}

Literal Random(const Shape& shape, std::mt19937& rng) {
  Literal literal(shape);
  std::uniform_real_distribution<double> real(-1, 1);
  std::uniform_int_distribution<int64_t> integer(-128, 127);
  for (int64_t i = 0; i < literal.num_elements(); ++i) {
    if (ir::IsFloat(shape.type)) {
      literal.SetFloat(i, real(rng));
    } else {
      literal.SetInt(i, integer(rng));
    }
  }
  return literal;
}

// `x` as f64: `rounded` through bf16 first, or `absolute` values.
Literal AsF64(const Literal& x, bool rounded, bool absolute) {
  Literal source = rounded ? Convert(x, ElementType::kBF16) : x;
  Literal out(Shape{ElementType::kF64, x.dims()});
  for (int64_t i = 0; i < x.num_elements(); ++i) {
    const double value = source.GetFloat(i);
    out.SetFloat(i, absolute ? std::abs(value) : value);
  }
  return out;
}

// bf16 needs AVX-512 and exact int8 needs VNNI or AMX; elsewhere the
// interpreter uses the reference kernel, and these tests skip.
bool CpuLacksKernels(const absl::Status& status) {
  return absl::IsUnimplemented(status) &&
         absl::StrContains(status.message(), "this CPU");
}

class OneDnnDotTest
    : public ::testing::TestWithParam<std::tuple<Layout, TypeCase>> {};

TEST_P(OneDnnDotTest, MatchesReferenceKernel) {
  const auto& [layout, types] = GetParam();
  std::mt19937 rng(42);
  const Literal lhs = Random(Shape{types.operands, layout.lhs}, rng);
  const Literal rhs = Random(Shape{types.operands, layout.rhs}, rng);
  const Shape result{types.result, layout.result()};
  absl::StatusOr<std::unique_ptr<OneDnnDot>> dot = OneDnnDot::Create(
      lhs.shape(), rhs.shape(), layout.dims(), result, types.round_f32_to_bf16);
  if (CpuLacksKernels(dot.status())) GTEST_SKIP() << dot.status();
  ASSERT_TRUE(dot.ok()) << dot.status();
  Literal out(result);
  // Garbage in the output must be overwritten, even for an empty K.
  for (int64_t i = 0; i < out.num_elements(); ++i) out.SetInt(i, 99);
  ASSERT_TRUE((*dot)->Run(lhs.data(), rhs.data(), out.data()).ok());

  if (types.tolerance == 0) {
    const Literal want = DotGeneral(lhs, rhs, layout.dims(), result);
    for (int64_t i = 0; i < out.num_elements(); ++i) {
      ASSERT_EQ(out.GetInt(i), want.GetInt(i)) << "element " << i;
    }
    return;
  }
  // The reference in f64, on the operands as the matmul unit sees them.
  const Shape f64_result{ElementType::kF64, result.dims};
  const Literal want = DotGeneral(AsF64(lhs, types.round_f32_to_bf16, false),
                                  AsF64(rhs, types.round_f32_to_bf16, false),
                                  layout.dims(), f64_result);
  const Literal scale =
      DotGeneral(AsF64(lhs, false, true), AsF64(rhs, false, true),
                 layout.dims(), f64_result);
  for (int64_t i = 0; i < out.num_elements(); ++i) {
    ASSERT_NEAR(out.GetFloat(i), want.GetFloat(i),
                types.tolerance * scale.GetFloat(i) + 1e-30)
        << "element " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(
    LayoutsAndTypes, OneDnnDotTest,
    ::testing::Combine(::testing::ValuesIn(Layouts()),
                       ::testing::ValuesIn(TypeCases())),
    [](const ::testing::TestParamInfo<OneDnnDotTest::ParamType>& info) {
      return std::get<0>(info.param).name + "_" + std::get<1>(info.param).name;
    });

DotDimensions MatmulDims() {
  DotDimensions dims;
  dims.lhs_contracting = {1};
  dims.rhs_contracting = {0};
  return dims;
}

TEST(OneDnnDotPlanTest, OtherTypesAreLeftToTheReferenceKernel) {
  const struct {
    ElementType lhs, rhs, result;
  } cases[] = {
      {ElementType::kF64, ElementType::kF64, ElementType::kF64},
      {ElementType::kF16, ElementType::kF16, ElementType::kF16},
      {ElementType::kS32, ElementType::kS32, ElementType::kS32},
      {ElementType::kF32, ElementType::kBF16, ElementType::kF32},
      {ElementType::kS8, ElementType::kS8, ElementType::kS8},
      {ElementType::kU8, ElementType::kU8, ElementType::kU32},
  };
  for (const auto& c : cases) {
    absl::StatusOr<std::unique_ptr<OneDnnDot>> dot =
        OneDnnDot::Create(Shape{c.lhs, {2, 3}}, Shape{c.rhs, {3, 4}},
                          MatmulDims(), Shape{c.result, {2, 4}}, false);
    EXPECT_EQ(dot.status().code(), absl::StatusCode::kUnimplemented);
  }
}

// The plan for `layout` in f32.
absl::StatusOr<std::unique_ptr<OneDnnDot>> PlanF32(const Layout& layout) {
  return OneDnnDot::Create(Shape{ElementType::kF32, layout.lhs},
                           Shape{ElementType::kF32, layout.rhs}, layout.dims(),
                           Shape{ElementType::kF32, layout.result()}, false);
}

TEST(OneDnnDotPlanTest, TransposesAndBatchPositionsAreReadInPlace) {
  for (const Layout& layout : Layouts()) {
    if (layout.name != "LhsTransposed" && layout.name != "RhsTransposed" &&
        layout.name != "BothTransposed" && layout.name != "BatchMiddle" &&
        layout.name != "TwoContractingDims") {
      continue;
    }
    absl::StatusOr<std::unique_ptr<OneDnnDot>> dot = PlanF32(layout);
    ASSERT_TRUE(dot.ok()) << dot.status();
    EXPECT_FALSE((*dot)->copies_lhs()) << layout.name;
    EXPECT_FALSE((*dot)->copies_rhs()) << layout.name;
    EXPECT_THAT((*dot)->implementation(), ::testing::Not(HasSubstr("ref")))
        << layout.name;
  }
}

TEST(OneDnnDotPlanTest, TransposedF32LhsOfAWideResultIsCopiedFirst) {
  for (const Layout& layout : Layouts()) {
    if (layout.name != "LhsTransposedWide" &&
        layout.name != "BothTransposedWide") {
      continue;
    }
    absl::StatusOr<std::unique_ptr<OneDnnDot>> dot = PlanF32(layout);
    ASSERT_TRUE(dot.ok()) << dot.status();
    EXPECT_TRUE((*dot)->copies_lhs()) << layout.name;
    EXPECT_FALSE((*dot)->copies_rhs()) << layout.name;
  }
}

TEST(OneDnnDotPlanTest, GroupsNoStrideDescribesAreCopiedFirst) {
  for (const Layout& layout : Layouts()) {
    if (layout.name != "InterleavedContractingDims" &&
        layout.name != "TwoBatchDimsInOtherOrders") {
      continue;
    }
    absl::StatusOr<std::unique_ptr<OneDnnDot>> dot = PlanF32(layout);
    ASSERT_TRUE(dot.ok()) << dot.status();
    EXPECT_TRUE((*dot)->copies_lhs() || (*dot)->copies_rhs()) << layout.name;
  }
}

TEST(OneDnnDotPlanTest, StridesOnlyTheReferenceMatmulReadsAreCopiedFirst) {
  // The batch dim innermost: one stride per group, but oneDNN has only its
  // reference matmul for such strides.
  DotDimensions dims;
  dims.lhs_batching = {2};
  dims.rhs_batching = {2};
  dims.lhs_contracting = {1};
  dims.rhs_contracting = {1};
  absl::StatusOr<std::unique_ptr<OneDnnDot>> dot = OneDnnDot::Create(
      Shape{ElementType::kF32, {5, 7, 4}}, Shape{ElementType::kF32, {3, 7, 4}},
      dims, Shape{ElementType::kF32, {4, 5, 3}}, false);
  ASSERT_TRUE(dot.ok()) << dot.status();
  EXPECT_TRUE((*dot)->copies_lhs());
  EXPECT_THAT((*dot)->implementation(), ::testing::Not(HasSubstr("ref")));
}

TEST(OneDnnDotPlanTest, Bf16PassRoundsF32Operands) {
  // 1 + 2^-10 has no bf16 representation; it rounds to 1.
  Literal lhs(Shape{ElementType::kF32, {1, 2}});
  lhs.SetFloat(0, 1 + std::ldexp(1.0, -10));
  lhs.SetFloat(1, 3);
  Literal rhs(Shape{ElementType::kF32, {2, 1}});
  rhs.SetFloat(0, 1);
  rhs.SetFloat(1, 1);
  const Shape result{ElementType::kF32, {1, 1}};
  for (bool round : {false, true}) {
    absl::StatusOr<std::unique_ptr<OneDnnDot>> dot = OneDnnDot::Create(
        lhs.shape(), rhs.shape(), MatmulDims(), result, round);
    if (CpuLacksKernels(dot.status())) GTEST_SKIP() << dot.status();
    ASSERT_TRUE(dot.ok()) << dot.status();
    Literal out(result);
    ASSERT_TRUE((*dot)->Run(lhs.data(), rhs.data(), out.data()).ok());
    EXPECT_EQ(out.GetFloat(0), round ? 4.0 : 4 + std::ldexp(1.0, -10));
  }
}

TEST(OneDnnDotPlanTest, ConcurrentRunsOfOnePlan) {
  const Shape lhs_shape{ElementType::kF32, {48, 80}};
  const Shape rhs_shape{ElementType::kF32, {40, 80}};
  const Shape result{ElementType::kF32, {48, 40}};
  DotDimensions dims;
  dims.lhs_contracting = {1};
  dims.rhs_contracting = {1};
  absl::StatusOr<std::unique_ptr<OneDnnDot>> dot =
      OneDnnDot::Create(lhs_shape, rhs_shape, dims, result, false);
  ASSERT_TRUE(dot.ok()) << dot.status();
  constexpr int kThreads = 4;
  // One byte per thread: std::vector<bool> packs flags into shared words,
  // so concurrent writes to different flags would race.
  std::vector<char> matched(kThreads, false);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(t);
      const Literal lhs = Random(lhs_shape, rng);
      const Literal rhs = Random(rhs_shape, rng);
      const Literal want = DotGeneral(lhs, rhs, dims, result);
      bool all = true;
      for (int run = 0; run < 20; ++run) {
        Literal out(result);
        all = all && (*dot)->Run(lhs.data(), rhs.data(), out.data()).ok();
        for (int64_t i = 0; i < out.num_elements(); ++i) {
          all = all && std::abs(out.GetFloat(i) - want.GetFloat(i)) < 1e-4;
        }
      }
      matched[t] = all;
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_TRUE(matched[t]) << "thread " << t;
}

TEST(ProgramCacheTest, InterpreterRunsDotsOnCachedPlans) {
  constexpr char kProgram[] = R"(
    func.func @main(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>)
        -> tensor<2x4xf32> {
      %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [1]
          : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
      return %0 : tensor<2x4xf32>
    })";
  absl::StatusOr<ir::Program> program = compiler::Compile(kProgram, {});
  ASSERT_TRUE(program.ok()) << program.status();
  std::mt19937 rng(7);
  Literal a = Random(Shape{ElementType::kF32, {2, 3}}, rng);
  Literal b = Random(Shape{ElementType::kF32, {4, 3}}, rng);
  DotDimensions dims;
  dims.lhs_contracting = {1};
  dims.rhs_contracting = {1};
  const Literal want = DotGeneral(a, b, dims, Shape{ElementType::kF32, {2, 4}});

  ProgramCache cache;
  InterpreterOptions options;
  options.program_cache = &cache;
  for (int run = 0; run < 2; ++run) {
    Interpreter interpreter(*program, options);
    absl::StatusOr<std::vector<TensorValue>> results =
        interpreter.Run({TensorValue::Tensor(a), TensorValue::Tensor(b)});
    ASSERT_TRUE(results.ok()) << results.status();
    const Literal& got = (*results)[0].tensor;
    for (int64_t i = 0; i < want.num_elements(); ++i) {
      EXPECT_NEAR(got.GetFloat(i), want.GetFloat(i), 1e-5) << "element " << i;
    }
  }
  const ir::Instruction* dot = nullptr;
  for (const ir::Instruction& instruction :
       program->computations[program->entry].instructions) {
    if (instruction.opcode == ir::OpCode::kDotGeneral) dot = &instruction;
  }
  ASSERT_NE(dot, nullptr);
  const OneDnnDot* plan = cache.DotPlan(*dot, false);
  ASSERT_NE(plan, nullptr);
  EXPECT_EQ(cache.DotPlan(*dot, false), plan);
}

TEST(ProgramCacheTest, DotsOneDnnDoesNotRunHaveNoPlan) {
  constexpr char kProgram[] = R"(
    func.func @main(%a: tensor<2x3xf64>, %b: tensor<3xf64>) -> tensor<2xf64> {
      %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
          : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2xf64>
      return %0 : tensor<2xf64>
    })";
  absl::StatusOr<ir::Program> program = compiler::Compile(kProgram, {});
  ASSERT_TRUE(program.ok()) << program.status();
  ProgramCache cache;
  for (const ir::Instruction& instruction :
       program->computations[program->entry].instructions) {
    if (instruction.opcode == ir::OpCode::kDotGeneral) {
      EXPECT_EQ(cache.DotPlan(instruction, false), nullptr);
    }
  }
}

}  // namespace
}  // namespace pjrtx::cpu
