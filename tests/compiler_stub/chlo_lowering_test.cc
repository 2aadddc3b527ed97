// The chlo ops the compiler lowers become elementwise instructions named
// after the op (values are checked in tests/corpus/chlo_ops.mlir, on every
// plugin); wrong operands are INVALID_ARGUMENT and the chlo ops it does not
// know UNIMPLEMENTED, each naming the op.
#include <string>
#include <vector>

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

absl::StatusOr<ir::Program> Compile(const std::string& op,
                                    const std::string& type,
                                    const std::string& result_type) {
  compiler::CompileOptions options;
  options.fusion = false;
  return compiler::Compile(
      absl::StrCat("func.func @main(%x: ", type, ") -> ", result_type,
                   " {\n  %0 = \"", op, "\"(%x) : (", type, ") -> ",
                   result_type, "\n  func.return %0 : ", result_type, "\n}\n"),
      options);
}

TEST(ChloLoweringTest, FunctionsBecomeElementwiseInstructionsOfTheOp) {
  absl::StatusOr<ir::Program> program =
      Compile("chlo.asinh", "tensor<4xf16>", "tensor<4xf16>");
  ASSERT_TRUE(program.ok()) << program.status();
  const ir::Computation& entry = program->computations[program->entry];
  ASSERT_GT(entry.instructions.size(), 5u);
  for (const ir::Instruction& instruction : entry.instructions) {
    EXPECT_EQ(instruction.name, "chlo.asinh");
    EXPECT_EQ(instruction.location.line, 2);
  }
  // f16 is computed in f32 and rounded once at the end.
  EXPECT_EQ(entry.instructions.front().opcode, ir::OpCode::kConvert);
  EXPECT_EQ(entry.instructions.back().opcode, ir::OpCode::kConvert);
  EXPECT_EQ(entry.instructions.back().result_types[0].shape.type,
            ir::ElementType::kF16);
  EXPECT_EQ(entry.results, entry.instructions.back().results);
}

TEST(ChloLoweringTest, InfinityTestsGivePredicates) {
  absl::StatusOr<ir::Program> program =
      Compile("chlo.is_neg_inf", "tensor<2x3xf64>", "tensor<2x3xi1>");
  ASSERT_TRUE(program.ok()) << program.status();
  const ir::Instruction& last =
      program->computations[program->entry].instructions.back();
  EXPECT_EQ(last.opcode, ir::OpCode::kCompare);
  EXPECT_EQ(last.attributes.comparison, ir::ComparisonDirection::kEq);
}

TEST(ChloLoweringTest, WrongOperandsAreInvalidArguments) {
  absl::StatusOr<ir::Program> integer =
      Compile("chlo.sinh", "tensor<3xi32>", "tensor<3xi32>");
  ASSERT_FALSE(integer.ok());
  EXPECT_EQ(integer.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(integer.status().message(),
              HasSubstr("chlo.sinh: does not accept si32; expected a "
                        "floating-point type"));

  absl::StatusOr<ir::Program> result =
      Compile("chlo.is_inf", "tensor<3xf32>", "tensor<3xf32>");
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.status().message(), HasSubstr("tensor<3xi1>"));

  compiler::CompileOptions options;
  absl::StatusOr<ir::Program> mulhi = compiler::Compile(R"(
func.func @main(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "chlo.mulhi"(%x, %y) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
})",
                                                        options);
  ASSERT_FALSE(mulhi.ok());
  EXPECT_THAT(mulhi.status().message(),
              HasSubstr("chlo.mulhi: does not accept f32; expected an "
                        "integer type"));
}

TEST(ChloLoweringTest, TopKIsASortAndTwoSlices) {
  compiler::CompileOptions options;
  options.fusion = false;
  absl::StatusOr<ir::Program> program = compiler::Compile(R"(
func.func @main(%x: tensor<2x5xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %v, %i = chlo.top_k(%x, k = 3) : tensor<2x5xf32> -> (tensor<2x3xf32>, tensor<2x3xi32>)
  func.return %v, %i : tensor<2x3xf32>, tensor<2x3xi32>
})",
                                                          options);
  ASSERT_TRUE(program.ok()) << program.status();
  std::vector<ir::OpCode> opcodes;
  for (const ir::Instruction& instruction :
       program->computations[program->entry].instructions) {
    opcodes.push_back(instruction.opcode);
    EXPECT_EQ(instruction.location.line, 3);
  }
  EXPECT_THAT(opcodes,
              ::testing::ElementsAre(ir::OpCode::kIota, ir::OpCode::kSort,
                                     ir::OpCode::kSlice, ir::OpCode::kSlice));

  absl::StatusOr<ir::Program> too_many = compiler::Compile(R"(
func.func @main(%x: tensor<5xf32>) -> (tensor<9xf32>, tensor<9xi32>) {
  %v, %i = chlo.top_k(%x, k = 9) : tensor<5xf32> -> (tensor<9xf32>, tensor<9xi32>)
  func.return %v, %i : tensor<9xf32>, tensor<9xi32>
})",
                                                           options);
  ASSERT_FALSE(too_many.ok());
  EXPECT_EQ(too_many.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(too_many.status().message(),
              HasSubstr("3:12: chlo.top_k: k = 9 is not in [0, 5], the size "
                        "of the last dimension"));
}

// ragged_dot: the dimension numbers it takes, and the modes it does not.
absl::StatusOr<ir::Program> RaggedDot(const std::string& numbers,
                                      const std::string& sizes_type,
                                      const std::string& result_type) {
  return compiler::Compile(
      absl::StrCat(
          "func.func @main(%l: tensor<6x3xf32>, %r: tensor<2x3x4xf32>, "
          "%g: ",
          sizes_type, ") -> ", result_type,
          " {\n  %0 = \"chlo.ragged_dot\"(%l, %r, %g) "
          "{ragged_dot_dimension_numbers = #chlo.ragged_dot<",
          numbers, ">} : (tensor<6x3xf32>, tensor<2x3x4xf32>, ", sizes_type,
          ") -> ", result_type, "\n  func.return %0 : ", result_type, "\n}\n"),
      compiler::CompileOptions{});
}

TEST(ChloLoweringTest, RaggedDotChecksItsDimensions) {
  const std::string free =
      "lhs_batching_dimensions = [], rhs_batching_dimensions = [], "
      "lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], "
      "lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]";
  absl::StatusOr<ir::Program> ok =
      RaggedDot(free, "tensor<2xi32>", "tensor<6x4xf32>");
  ASSERT_TRUE(ok.ok()) << ok.status();

  absl::StatusOr<ir::Program> sizes =
      RaggedDot(free, "tensor<3xi32>", "tensor<6x4xf32>");
  ASSERT_FALSE(sizes.ok());
  EXPECT_THAT(sizes.status().message(),
              HasSubstr("group_sizes tensor<3xsi32> must be a vector of 2 "
                        "integers (the rhs group dimension)"));

  absl::StatusOr<ir::Program> result =
      RaggedDot(free, "tensor<2xi32>", "tensor<2x6x4xf32>");
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.status().message(), HasSubstr("tensor<6x4xf32>"));

  absl::StatusOr<ir::Program> out_of_range = RaggedDot(
      "lhs_batching_dimensions = [7], rhs_batching_dimensions = [1], "
      "lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], "
      "lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]",
      "tensor<2xi32>", "tensor<6x4xf32>");
  ASSERT_FALSE(out_of_range.ok());
  EXPECT_EQ(out_of_range.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(out_of_range.status().message(),
              HasSubstr("lhs_batching_dimensions [7] must be distinct "
                        "dimensions in [0, 2)"));

  absl::StatusOr<ir::Program> unpaired = RaggedDot(
      "lhs_batching_dimensions = [], rhs_batching_dimensions = [], "
      "lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [2], "
      "lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]",
      "tensor<2xi32>", "tensor<6x3xf32>");
  ASSERT_FALSE(unpaired.ok());
  EXPECT_THAT(unpaired.status().message(),
              HasSubstr("lhs dimension 1 (3) and rhs dimension 2 (4) are "
                        "paired but differ"));

  absl::StatusOr<ir::Program> contracting = RaggedDot(
      "lhs_batching_dimensions = [], rhs_batching_dimensions = [], "
      "lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], "
      "lhs_ragged_dimensions = [1], rhs_group_dimensions = [0]",
      "tensor<2xi32>", "tensor<6x4xf32>");
  ASSERT_FALSE(contracting.ok());
  EXPECT_EQ(contracting.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(contracting.status().message(),
              HasSubstr("with a ragged contracting or batch dimension"));
}

// chlo.scan with `region` (a block and its return) on tensor<4xf32>
// with a tensor<f32> carry.
absl::StatusOr<ir::Program> Scan(const std::string& region,
                                 const std::string& dimension = "0") {
  return compiler::Compile(
      absl::StrCat(
          "func.func @main(%x: tensor<4xf32>, %c: tensor<f32>, %k: "
          "tensor<f32>) -> (tensor<4xf32>, tensor<f32>) {\n"
          "  %0:2 = chlo.scan(%x) inits(%c) dimension=",
          dimension, " {\n", region,
          "  } : (tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, "
          "tensor<f32>)\n"
          "  func.return %0#0, %0#1 : tensor<4xf32>, tensor<f32>\n}\n"),
      compiler::CompileOptions{});
}

TEST(ChloLoweringTest, ScanIsAWhileLoopAroundItsRegion) {
  absl::StatusOr<ir::Program> ok = Scan(
      "  ^bb0(%e: tensor<f32>, %s: tensor<f32>):\n"
      "    %1 = stablehlo.add %e, %s : tensor<f32>\n"
      "    stablehlo.return %1, %1 : tensor<f32>, tensor<f32>\n");
  ASSERT_TRUE(ok.ok()) << ok.status();
  bool has_while = false;
  for (const ir::Instruction& instruction :
       ok->computations[ok->entry].instructions) {
    has_while |= instruction.opcode == ir::OpCode::kWhile;
  }
  EXPECT_TRUE(has_while);

  absl::StatusOr<ir::Program> arity = Scan(
      "  ^bb0(%e: tensor<f32>):\n"
      "    stablehlo.return %e, %e : tensor<f32>, tensor<f32>\n");
  ASSERT_FALSE(arity.ok());
  EXPECT_EQ(arity.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(arity.status().message(),
              HasSubstr("chlo.scan: the scan region takes 1 arguments; "
                        "expected 2 (an element of each input, then each "
                        "carry)"));

  absl::StatusOr<ir::Program> capture = Scan(
      "  ^bb0(%e: tensor<f32>, %s: tensor<f32>):\n"
      "    %1 = stablehlo.add %e, %k : tensor<f32>\n"
      "    stablehlo.return %1, %s : tensor<f32>, tensor<f32>\n");
  ASSERT_FALSE(capture.ok());
  EXPECT_EQ(capture.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(capture.status().message(),
              HasSubstr("read values from outside them (%k)"));

  absl::StatusOr<ir::Program> dimension = Scan(
      "  ^bb0(%e: tensor<f32>, %s: tensor<f32>):\n"
      "    stablehlo.return %e, %s : tensor<f32>, tensor<f32>\n",
      "1");
  ASSERT_FALSE(dimension.ok());
  EXPECT_THAT(dimension.status().message(),
              HasSubstr("dimension 1 is out of range for tensor<4xf32>"));
}

// jnp.square prints as chlo.square; the artifact of the same program
// carries chlo's decomposition, x * x in x's type, and so does the
// lowering (bit for bit the same result on both paths).
TEST(ChloLoweringTest, SquareIsOneMultiplyInItsOwnType) {
  for (const char* type : {"tensor<4xbf16>", "tensor<4xf64>", "tensor<4xi8>"}) {
    absl::StatusOr<ir::Program> program = Compile("chlo.square", type, type);
    ASSERT_TRUE(program.ok()) << program.status();
    const ir::Computation& entry = program->computations[program->entry];
    ASSERT_EQ(entry.instructions.size(), 1u) << type;
    const ir::Instruction& multiply = entry.instructions[0];
    EXPECT_EQ(multiply.opcode, ir::OpCode::kBinary);
    EXPECT_EQ(multiply.attributes.binary, ir::BinaryOp::kMultiply);
    EXPECT_EQ(multiply.operands.at(0), entry.parameters.at(0));
    EXPECT_EQ(multiply.operands.at(1), entry.parameters.at(0));
  }
  // Complex values: the parts' formula (chlo's decomposition too).
  absl::StatusOr<ir::Program> complex = Compile(
      "chlo.square", "tensor<3xcomplex<f32>>", "tensor<3xcomplex<f32>>");
  EXPECT_TRUE(complex.ok()) << complex.status();
}

TEST(ChloLoweringTest, UnknownChloOpsAreUnimplemented) {
  absl::StatusOr<ir::Program> program =
      Compile("chlo.bessel_i1e", "tensor<3xf32>", "tensor<3xf32>");
  ASSERT_FALSE(program.ok());
  EXPECT_EQ(program.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(program.status().message(),
              HasSubstr("op chlo.bessel_i1e is not supported"));
}

}  // namespace
}  // namespace pjrtx
