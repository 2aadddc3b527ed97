// Complex values are expanded into real and imaginary parts before
// lowering: no complex type is left, each new op keeps the location of the
// op it came from, complex arguments and results cross interleaved, and
// what the expansion cannot do is UNIMPLEMENTED (a
// corpus case skips) while ill-formed uses are INVALID_ARGUMENT, each
// naming the op. Values are checked by tests/corpus/complex_ops.mlir on
// every plugin.
#include "compiler_stub/passes/complex_expansion.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "compiler_stub/compiler.h"
#include "compiler_stub/mlir/parser.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pjrtx {
namespace {

using ::testing::HasSubstr;

mlir::Module Parse(const std::string& text) {
  absl::StatusOr<mlir::Module> module = mlir::ParseModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *std::move(module) : mlir::Module();
}

// A function computing `body` (which defines %r of `result_type`) and
// returning it.
std::string Function(const std::string& body, const std::string& result_type) {
  return absl::StrCat("func.func @main() -> ", result_type, " {\n", body,
                      "  func.return %r : ", result_type, "\n}\n");
}

// A function whose `body` defines %c of `shape` complex<f32>, returning
// real(%c).
std::string RealPartOf(const std::string& body, const std::string& shape) {
  const std::string real = absl::StrCat("tensor<", shape, "f32>");
  return Function(absl::StrCat(body, "  %r = stablehlo.real %c : (tensor<",
                               shape, "complex<f32>>) -> ", real, "\n"),
                  real);
}

// `status` has `code` and a message containing `part`.
void ExpectError(const absl::Status& status, absl::StatusCode code,
                 const std::string& part) {
  EXPECT_EQ(status.code(), code) << status;
  EXPECT_THAT(status.message(), HasSubstr(part));
}

absl::Status CompileStatus(const std::string& text) {
  return compiler::Compile(text, compiler::CompileOptions()).status();
}

TEST(ComplexExpansionTest, LeavesNoComplexTypeAndKeepsLocations) {
  mlir::Module module = Parse(Function(
      "  %a = stablehlo.constant dense<[(1.0, 2.0), (3.0, -4.0)]> : "
      "tensor<2xcomplex<f32>>\n"
      "  %m = stablehlo.multiply %a, %a : tensor<2xcomplex<f32>>\n"
      "  %r = stablehlo.abs %m : (tensor<2xcomplex<f32>>) -> tensor<2xf32>\n",
      "tensor<2xf32>"));
  ASSERT_TRUE(ir::MentionsComplex(module));
  ASSERT_TRUE(ir::ExpandComplex(module).ok());
  EXPECT_FALSE(ir::MentionsComplex(module));
  const auto& ops = module.functions[0].body.blocks[0].operations;
  ASSERT_GT(ops.size(), 6u);  // Two constants, the product's six ops, abs.
  int multiply_line_ops = 0;
  for (const mlir::Operation& op : ops) {
    EXPECT_GE(op.location.line, 2);
    EXPECT_LE(op.location.line, 5);
    if (op.location.line == 3) ++multiply_line_ops;
  }
  // (a + bi)(c + di): four products, a difference and a sum.
  EXPECT_EQ(multiply_line_ops, 6);
  // The return now names abs's last step.
  EXPECT_EQ(ops.back().name, "func.return");
  EXPECT_EQ(ops.back().operands[0].name, ops[ops.size() - 2].result_name);
  // And the result compiles as any real program.
  EXPECT_TRUE(
      CompileStatus(
          Function("  %a = stablehlo.constant dense<(1.0, 2.0)> : "
                   "tensor<complex<f64>>\n"
                   "  %r = stablehlo.real %a : (tensor<complex<f64>>) -> "
                   "tensor<f64>\n",
                   "tensor<f64>"))
          .ok());
}

TEST(ComplexExpansionTest, ModulesWithoutComplexValuesAreLeftAlone) {
  mlir::Module module = Parse(Function(
      "  %r = stablehlo.constant dense<1.0> : tensor<f32>\n", "tensor<f32>"));
  EXPECT_FALSE(ir::MentionsComplex(module));
  ASSERT_TRUE(ir::ExpandComplex(module).ok());
  EXPECT_EQ(module.functions[0].body.blocks[0].operations.size(), 2u);
}

TEST(ComplexExpansionTest, ArgumentsAndResultsCrossInterleaved) {
  absl::StatusOr<ir::Program> program = compiler::Compile(
      "func.func @main(%x: tensor<2xcomplex<f32>>, %n: tensor<2xf32>) -> "
      "(tensor<2xf32>, tensor<2xcomplex<f32>>) {\n"
      "  %y = stablehlo.multiply %x, %x : tensor<2xcomplex<f32>>\n"
      "  func.return %n, %y : tensor<2xf32>, tensor<2xcomplex<f32>>\n}\n",
      compiler::CompileOptions());
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_EQ(program->complex_parameters, (std::vector<bool>{true, false}));
  EXPECT_EQ(program->complex_results, (std::vector<bool>{false, true}));
  const ir::Computation& entry = program->computations[program->entry];
  // complex<f32>[2] is f32[2, 2]: the memory of a C64 buffer.
  EXPECT_EQ(entry.parameter_types[0].shape,
            (ir::Shape{ir::ElementType::kF32, {2, 2}}));
  EXPECT_EQ(entry.parameter_types[1].shape,
            (ir::Shape{ir::ElementType::kF32, {2}}));
  EXPECT_EQ(entry.result_types[1].shape,
            (ir::Shape{ir::ElementType::kF32, {2, 2}}));
}

TEST(ComplexExpansionTest, OpsWithoutAFormulaAreUnimplementedNamingThem) {
  const absl::Status status = CompileStatus(RealPartOf(
      "  %a = stablehlo.constant dense<(1.0, 2.0)> : tensor<complex<f32>>\n"
      "  %c = stablehlo.remainder %a, %a : tensor<complex<f32>>\n",
      ""));
  ExpectError(status, absl::StatusCode::kUnimplemented,
              "3:8: stablehlo.remainder on complex values is not "
              "supported");
}

TEST(ComplexExpansionTest, TriangularSolveOperandsAreChecked) {
  auto solve = [](const std::string& a_type, const std::string& b_type,
                  const std::string& transpose) {
    return CompileStatus(RealPartOf(
        absl::StrCat("  %a = stablehlo.constant dense<(1.0, 2.0)> : ", a_type,
                     "\n  %b = stablehlo.constant dense<(3.0, 4.0)> : ", b_type,
                     "\n  %c = \"stablehlo.triangular_solve\"(%a, %b) "
                     "{left_side = true, lower = true, unit_diagonal = false, "
                     "transpose_a = #stablehlo<transpose ",
                     transpose, ">} : (", a_type, ", ", b_type, ") -> ", b_type,
                     "\n"),
        "2x1x"));
  };
  const std::string a = "tensor<2x2xcomplex<f32>>";
  const std::string b = "tensor<2x1xcomplex<f32>>";
  EXPECT_TRUE(solve(a, b, "ADJOINT").ok()) << solve(a, b, "ADJOINT");
  absl::Status status = solve("tensor<2x3xcomplex<f32>>", b, "NO_TRANSPOSE");
  ExpectError(status, absl::StatusCode::kInvalidArgument,
              "4:8: stablehlo.triangular_solve: a [2,3] is not "
              "square in its last two dimensions");
  status = solve(a, "tensor<3x1xcomplex<f32>>", "NO_TRANSPOSE");
  ExpectError(status, absl::StatusCode::kInvalidArgument,
              "b [3,1] has 3 in dimension 0 "
              "where a's side is 2");
  status = solve(a, "tensor<2x1xcomplex<f64>>", "NO_TRANSPOSE");
  ExpectError(status, absl::StatusCode::kInvalidArgument, "one element type");
  status = solve(a, b, "CONJUGATE");
  ExpectError(status, absl::StatusCode::kInvalidArgument,
              "transpose_a 'CONJUGATE' is not one of");
}

TEST(ComplexExpansionTest, ReductionsAcrossRanksOfComplexValuesMustSum) {
  // `collective` (all_reduce or reduce_scatter) of a complex operand with
  // `op` as its body.
  auto program = [](const std::string& collective, const std::string& op) {
    return RealPartOf(
        absl::StrCat(
            "  %a = stablehlo.constant dense<(1.0, 2.0)> : "
            "tensor<2xcomplex<f32>>\n"
            "  %c = \"stablehlo.",
            collective,
            "\"(%a) ({\n"
            "  ^bb0(%x: tensor<complex<f32>>, %y: tensor<complex<f32>>):\n"
            "    %s = stablehlo.",
            op,
            " %x, %y : tensor<complex<f32>>\n"
            "    stablehlo.return %s : tensor<complex<f32>>\n"
            "  }) {",
            collective == "reduce_scatter" ? "scatter_dimension = 0 : i64, "
                                           : "",
            "replica_groups = dense<[[0]]> : tensor<1x1xi64>} : "
            "(tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>\n"),
        "2x");
  };
  mlir::Module module = Parse(program("all_reduce", "add"));
  ASSERT_TRUE(ir::ExpandComplex(module).ok());
  EXPECT_FALSE(ir::MentionsComplex(module));
  int all_reduces = 0;
  for (const mlir::Operation& op :
       module.functions[0].body.blocks[0].operations) {
    if (op.name != "stablehlo.all_reduce") continue;
    ++all_reduces;
    EXPECT_EQ(op.operands.size(), 2u);  // The parts, in one all_reduce.
    EXPECT_EQ(op.num_results, 2);
  }
  EXPECT_EQ(all_reduces, 1);
  for (const std::string collective : {"all_reduce", "reduce_scatter"}) {
    EXPECT_TRUE(CompileStatus(program(collective, "add")).ok()) << collective;
    const absl::Status status = CompileStatus(program(collective, "multiply"));
    ExpectError(status, absl::StatusCode::kUnimplemented,
                absl::StrCat("stablehlo.", collective,
                             " of complex values with a body other "
                             "than one add is not supported"));
  }
}

TEST(ComplexExpansionTest, OrderedComparisonsAreInvalid) {
  const absl::Status status = CompileStatus(Function(
      "  %a = stablehlo.constant dense<(1.0, 2.0)> : tensor<complex<f32>>\n"
      "  %r = stablehlo.compare LT, %a, %a : (tensor<complex<f32>>, "
      "tensor<complex<f32>>) -> tensor<i1>\n",
      "tensor<i1>"));
  ExpectError(status, absl::StatusCode::kInvalidArgument,
              "direction 'LT', expected EQ or NE");
}

TEST(ComplexExpansionTest, FftLengthsAreChecked) {
  absl::Status status = CompileStatus(RealPartOf(
      "  %a = stablehlo.constant dense<[(1.0, 2.0), (3.0, 4.0), (5.0, 6.0)]> "
      ": tensor<3xcomplex<f32>>\n"
      "  %c = stablehlo.fft %a, type = FFT, length = [4] : "
      "(tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>\n",
      "3x"));
  ExpectError(status, absl::StatusCode::kInvalidArgument,
              "FFT of length 4 needs 4 elements along dimension 0, "
              "got 3");
  // 1024 = 32 x 32 splits into matrices of 32; the prime 1031 runs as a
  // convolution of length 2080 = 40 x 52 (Bluestein's algorithm).
  EXPECT_TRUE(
      CompileStatus(
          RealPartOf("  %a = stablehlo.constant dense<1.0> : tensor<1024xf32>\n"
                     "  %c = stablehlo.fft %a, type = RFFT, length = [1024] : "
                     "(tensor<1024xf32>) -> tensor<513xcomplex<f32>>\n",
                     "513x"))
          .ok());
  status = CompileStatus(
      RealPartOf("  %a = stablehlo.constant dense<1.0> : tensor<1031xf32>\n"
                 "  %c = stablehlo.fft %a, type = RFFT, length = [1031] : "
                 "(tensor<1031xf32>) -> tensor<516xcomplex<f32>>\n",
                 "516x"));
  EXPECT_TRUE(status.ok()) << status;
}

TEST(ComplexExpansionTest, MalformedComplexLiteralsAreInvalid) {
  const absl::Status status =
      CompileStatus(RealPartOf("  %c = stablehlo.constant dense<[1.0, 2.0]> : "
                               "tensor<2xcomplex<f32>>\n",
                               "2x"));
  ExpectError(status, absl::StatusCode::kInvalidArgument,
              "2:8: stablehlo.constant");
}

TEST(ComplexExpansionTest, RealAndImagOfFloatsAreTheValueAndZeros) {
  EXPECT_TRUE(CompileStatus(Function("  %a = stablehlo.constant dense<1.0> : "
                                     "tensor<2xf32>\n"
                                     "  %r = stablehlo.imag %a : "
                                     "tensor<2xf32>\n",
                                     "tensor<2xf32>"))
                  .ok());
  const absl::Status status = CompileStatus(
      Function("  %a = stablehlo.constant dense<1> : tensor<2xi32>\n"
               "  %r = stablehlo.imag %a : tensor<2xi32>\n",
               "tensor<2xi32>"));
  ExpectError(status, absl::StatusCode::kInvalidArgument,
              "needs a float or complex operand");
}

}  // namespace
}  // namespace pjrtx
