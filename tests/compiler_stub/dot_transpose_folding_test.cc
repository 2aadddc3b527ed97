// transpose(dot_general) folded into one dot_general with its operands
// swapped: where it applies, that nothing else changes, and that the folded
// program computes what the unfolded one does.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler_stub/compiler.h"
#include "compiler_stub/ir/program.h"
#include "gtest/gtest.h"
#include "runtime/cpu/interpreter.h"
#include "runtime/cpu/literal.h"

namespace pjrtx {
namespace {

int Count(const ir::Program& program, ir::OpCode opcode) {
  int n = 0;
  for (const ir::Computation& c : program.computations) {
    for (const ir::Instruction& inst : c.instructions) {
      n += inst.opcode == opcode;
    }
  }
  return n;
}

// The weight gradient of a matmul as JAX writes it, and a batched form.
constexpr char kGradient[] = R"(
func.func @main(%g: tensor<3x4xf32>, %x: tensor<3x5xf32>,
                %a: tensor<2x3x4xf32>, %b: tensor<2x4x6xf32>)
    -> (tensor<5x4xf32>, tensor<2x6x3xf32>) {
  %d = stablehlo.dot_general %g, %x, contracting_dims = [0] x [0]
      : (tensor<3x4xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  %t = stablehlo.transpose %d, dims = [1, 0]
      : (tensor<4x5xf32>) -> tensor<5x4xf32>
  %e = stablehlo.dot_general %a, %b, batching_dims = [0] x [0],
      contracting_dims = [2] x [1]
      : (tensor<2x3x4xf32>, tensor<2x4x6xf32>) -> tensor<2x3x6xf32>
  %u = stablehlo.transpose %e, dims = [0, 2, 1]
      : (tensor<2x3x6xf32>) -> tensor<2x6x3xf32>
  func.return %t, %u : tensor<5x4xf32>, tensor<2x6x3xf32>
}
)";

cpu::Literal Iota(ir::Shape shape, float scale) {
  cpu::Literal literal(shape);
  for (int64_t i = 0; i < literal.num_elements(); ++i) {
    literal.as<float>()[i] = scale * static_cast<float>(i % 7) - 1.5f;
  }
  return literal;
}

TEST(DotTransposeFoldingTest, TransposedMatmulsBecomeSwappedMatmuls) {
  absl::StatusOr<ir::Program> program =
      compiler::Compile(kGradient, compiler::CompileOptions());
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_EQ(Count(*program, ir::OpCode::kTranspose), 0);
  EXPECT_EQ(Count(*program, ir::OpCode::kDotGeneral), 2);

  std::vector<cpu::Literal> args = {
      Iota({ir::ElementType::kF32, {3, 4}}, 0.5f),
      Iota({ir::ElementType::kF32, {3, 5}}, 0.25f),
      Iota({ir::ElementType::kF32, {2, 3, 4}}, 0.75f),
      Iota({ir::ElementType::kF32, {2, 4, 6}}, 0.125f)};
  cpu::Interpreter interpreter(*program);
  std::vector<cpu::TensorValue> values;
  for (const cpu::Literal& arg : args) {
    values.push_back(cpu::TensorValue::Tensor(arg));
  }
  absl::StatusOr<std::vector<cpu::TensorValue>> results =
      interpreter.Run(std::move(values));
  ASSERT_TRUE(results.ok()) << results.status();
  // The same products and sums, element by element.
  const float* t = (*results)[0].tensor.as<float>();
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 4; ++j) {
      float sum = 0;
      for (int k = 0; k < 3; ++k) {
        sum += args[0].as<float>()[k * 4 + j] * args[1].as<float>()[k * 5 + i];
      }
      EXPECT_FLOAT_EQ(t[i * 4 + j], sum) << i << "," << j;
    }
  }
  const float* u = (*results)[1].tensor.as<float>();
  for (int n = 0; n < 2; ++n) {
    for (int i = 0; i < 6; ++i) {
      for (int j = 0; j < 3; ++j) {
        float sum = 0;
        for (int k = 0; k < 4; ++k) {
          sum += args[2].as<float>()[n * 12 + j * 4 + k] *
                 args[3].as<float>()[n * 24 + k * 6 + i];
        }
        EXPECT_FLOAT_EQ(u[n * 18 + i * 3 + j], sum);
      }
    }
  }
}

TEST(DotTransposeFoldingTest, LeavesWhatItCannotFold) {
  // The dot's result is read twice; and a transpose that is not the swap
  // of the two free dimensions.
  absl::StatusOr<ir::Program> program =
      compiler::Compile(R"(
func.func @main(%g: tensor<3x4xf32>, %x: tensor<3x5xf32>,
                %a: tensor<2x3x4xf32>, %b: tensor<2x4x6xf32>)
    -> (tensor<5x4xf32>, tensor<4x5xf32>, tensor<3x2x6xf32>) {
  %d = stablehlo.dot_general %g, %x, contracting_dims = [0] x [0]
      : (tensor<3x4xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  %t = stablehlo.transpose %d, dims = [1, 0]
      : (tensor<4x5xf32>) -> tensor<5x4xf32>
  %e = stablehlo.dot_general %a, %b, batching_dims = [0] x [0],
      contracting_dims = [2] x [1]
      : (tensor<2x3x4xf32>, tensor<2x4x6xf32>) -> tensor<2x3x6xf32>
  %u = stablehlo.transpose %e, dims = [1, 0, 2]
      : (tensor<2x3x6xf32>) -> tensor<3x2x6xf32>
  func.return %t, %d, %u : tensor<5x4xf32>, tensor<4x5xf32>, tensor<3x2x6xf32>
}
)",
                        compiler::CompileOptions());
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_EQ(Count(*program, ir::OpCode::kTranspose), 2);
  EXPECT_EQ(Count(*program, ir::OpCode::kDotGeneral), 2);
}

}  // namespace
}  // namespace pjrtx
