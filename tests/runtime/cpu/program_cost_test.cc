// The work bound that decides whether a run is quick enough for the
// caller's thread: what it counts, and what makes it unbounded.
#include "runtime/cpu/program_cost.h"

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "compiler_stub/compiler.h"
#include "gtest/gtest.h"

namespace pjrtx::cpu {
namespace {

ir::Program CompileOrDie(const std::string& text) {
  absl::StatusOr<ir::Program> program =
      compiler::Compile(text, compiler::CompileOptions());
  EXPECT_TRUE(program.ok()) << program.status();
  return program.ok() ? *std::move(program) : ir::Program();
}

TEST(ProgramCostTest, ElementwiseWorkIsItsResultElements) {
  ir::Program program = CompileOrDie(R"(
func.func @main(%x: tensor<16xf32>, %y: tensor<16xf32>) -> tensor<16xf32> {
  %s = stablehlo.add %x, %y : tensor<16xf32>
  %p = stablehlo.multiply %s, %x : tensor<16xf32>
  func.return %p : tensor<16xf32>
}
)");
  std::optional<int64_t> work = WorkBound(program);
  ASSERT_TRUE(work.has_value());
  EXPECT_GE(*work, 32);
  EXPECT_LE(*work, 64);
  EXPECT_TRUE(IsQuickProgram(program));
}

TEST(ProgramCostTest, ADotCountsEveryMultiplyAdd) {
  ir::Program program = CompileOrDie(R"(
func.func @main(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>)
    -> tensor<64x64xf32> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
      : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  func.return %d : tensor<64x64xf32>
}
)");
  std::optional<int64_t> work = WorkBound(program);
  ASSERT_TRUE(work.has_value());
  EXPECT_GE(*work, 64 * 64 * 64);
  EXPECT_FALSE(IsQuickProgram(program));
}

TEST(ProgramCostTest, LoopsHaveNoBound) {
  ir::Program program = CompileOrDie(R"(
func.func @main(%n: tensor<i32>) -> tensor<i32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %r = stablehlo.while(%i = %zero) : tensor<i32>
    cond {
      %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %next = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %next : tensor<i32>
    }
  func.return %r : tensor<i32>
}
)");
  EXPECT_FALSE(WorkBound(program).has_value());
  EXPECT_FALSE(IsQuickProgram(program));
}

TEST(ProgramCostTest, BranchesCountTheLongest) {
  ir::Program program = CompileOrDie(R"(
func.func @main(%p: tensor<i1>, %x: tensor<4096xf32>) -> tensor<4096xf32> {
  %r = "stablehlo.if"(%p) ({
    %e = stablehlo.exponential %x : tensor<4096xf32>
    %f = stablehlo.exponential %e : tensor<4096xf32>
    %g = stablehlo.exponential %f : tensor<4096xf32>
    %h = stablehlo.exponential %g : tensor<4096xf32>
    %i = stablehlo.exponential %h : tensor<4096xf32>
    stablehlo.return %i : tensor<4096xf32>
  }, {
    stablehlo.return %x : tensor<4096xf32>
  }) : (tensor<i1>) -> tensor<4096xf32>
  func.return %r : tensor<4096xf32>
}
)");
  std::optional<int64_t> work = WorkBound(program);
  ASSERT_TRUE(work.has_value());
  EXPECT_GE(*work, 5 * 4096);
  EXPECT_FALSE(IsQuickProgram(program));
}

}  // namespace
}  // namespace pjrtx::cpu
