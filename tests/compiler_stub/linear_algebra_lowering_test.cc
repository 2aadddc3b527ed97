// Lowering of triangular_solve: the options the kernels read, and the
// spec's constraints, each rejected with a message naming the bad value.
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "compiler_stub/compiler.h"
#include "compiler_stub/ir/program.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pjrtx {
namespace {

using ::testing::HasSubstr;

// @f(a, b) -> result, one triangular_solve with `attributes`.
std::string Program(const std::string& a, const std::string& b,
                    const std::string& result, const std::string& attributes) {
  return absl::StrCat("module {\n  func.func @f(%a: ", a, ", %b: ", b, ") -> ",
                      result,
                      " {\n    %0 = \"stablehlo.triangular_solve\"(%a, %b) {",
                      attributes, "} : (", a, ", ", b, ") -> ", result,
                      "\n    return %0 : ", result, "\n  }\n}\n");
}

const char kDefaults[] =
    "left_side = true, lower = true, unit_diagonal = false, "
    "transpose_a = #stablehlo<transpose NO_TRANSPOSE>";

absl::StatusOr<ir::Program> Compile(const std::string& text) {
  return compiler::Compile(text, compiler::CompileOptions{});
}

std::string ErrorOf(const std::string& text) {
  absl::StatusOr<ir::Program> program = Compile(text);
  EXPECT_FALSE(program.ok()) << text;
  EXPECT_EQ(program.status().code(), absl::StatusCode::kInvalidArgument)
      << program.status();
  return std::string(program.status().message());
}

TEST(TriangularSolveLoweringTest, CarriesItsOptions) {
  absl::StatusOr<ir::Program> program = Compile(
      Program("tensor<2x4x4xf32>", "tensor<2x3x4xf32>", "tensor<2x3x4xf32>",
              "left_side = false, lower = false, unit_diagonal = true, "
              "transpose_a = #stablehlo<transpose ADJOINT>"));
  ASSERT_TRUE(program.ok()) << program.status();
  const ir::Instruction& solve =
      program->computations[program->entry].instructions[0];
  EXPECT_EQ(solve.opcode, ir::OpCode::kTriangularSolve);
  const ir::TriangularSolveOptions& o = solve.attributes.triangular_solve;
  EXPECT_FALSE(o.left_side);
  EXPECT_FALSE(o.lower);
  EXPECT_TRUE(o.unit_diagonal);
  EXPECT_TRUE(o.transpose_a);  // ADJOINT is the transpose for real types.
}

TEST(TriangularSolveLoweringTest, NoTransposeIsNotTransposed) {
  absl::StatusOr<ir::Program> program = Compile(Program(
      "tensor<3x3xf64>", "tensor<3x2xf64>", "tensor<3x2xf64>", kDefaults));
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_FALSE(program->computations[program->entry]
                   .instructions[0]
                   .attributes.triangular_solve.transpose_a);
}

TEST(TriangularSolveLoweringTest, RejectsWhatTheSpecRulesOut) {
  struct Case {
    std::string a, b, result, attributes, message;
  };
  const Case cases[] = {
      {"tensor<3x3xf32>", "tensor<3x1xf64>", "tensor<3x1xf64>", kDefaults,
       "a is f32 and b f64"},
      {"tensor<3x3xi32>", "tensor<3x1xi32>", "tensor<3x1xi32>", kDefaults,
       "element type si32 is not a floating-point type"},
      {"tensor<3xf32>", "tensor<3xf32>", "tensor<3xf32>", kDefaults,
       "a (rank 1) and b (rank 1) must have one rank of at least 2"},
      {"tensor<3x3xf32>", "tensor<1x3x1xf32>", "tensor<1x3x1xf32>", kDefaults,
       "a (rank 2) and b (rank 3)"},
      {"tensor<3x4xf32>", "tensor<3x1xf32>", "tensor<3x1xf32>", kDefaults,
       "a [3,4] is not square"},
      {"tensor<2x3x3xf32>", "tensor<5x3x1xf32>", "tensor<5x3x1xf32>", kDefaults,
       "batch dimension 0 of a (2) and of b (5) differ"},
      {"tensor<3x3xf32>", "tensor<4x1xf32>", "tensor<4x1xf32>", kDefaults,
       "b [4,1] has 4 in dimension 0 where a's side is 3 (left_side = true)"},
      {"tensor<3x3xf32>", "tensor<3x4xf32>", "tensor<3x4xf32>",
       "left_side = false, lower = true, unit_diagonal = false, "
       "transpose_a = #stablehlo<transpose NO_TRANSPOSE>",
       "b [3,4] has 4 in dimension 1 where a's side is 3 (left_side = false)"},
      {"tensor<3x3xf32>", "tensor<3x1xf32>", "tensor<3x1xf32>",
       "left_side = true, lower = true, unit_diagonal = false, "
       "transpose_a = #stablehlo<transpose TRANSPOSE_INVALID>",
       "transpose_a 'TRANSPOSE_INVALID' is not one of NO_TRANSPOSE, "
       "TRANSPOSE, ADJOINT"},
      {"tensor<3x3xf32>", "tensor<3x1xf32>", "tensor<3x1xf32>",
       "left_side = true, unit_diagonal = false, "
       "transpose_a = #stablehlo<transpose NO_TRANSPOSE>",
       "lower"},
      {"tensor<3x3xf32>", "tensor<3x1xf32>", "tensor<3x2xf32>", kDefaults,
       "tensor<3x1xf32>"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    EXPECT_THAT(ErrorOf(Program(c.a, c.b, c.result, c.attributes)),
                HasSubstr(c.message));
  }
}

}  // namespace
}  // namespace pjrtx
