// ir::InlineStraightLineCalls: which calls it replaces by their callee's
// body, which it leaves, and that the inlined program computes what the
// calling one does. (The fusion tests' equivalence cases cover inlined
// programs bit for bit.)
#include "compiler_stub/passes/call_inlining.h"

#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler_stub/compiler.h"
#include "compiler_stub/ir/program.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/cpu/interpreter.h"
#include "runtime/cpu/literal.h"

namespace pjrtx {
namespace {

using ir::OpCode;
using ::testing::ElementsAre;

absl::StatusOr<ir::Program> CompileOptimized(std::string_view text) {
  compiler::CompileOptions options;
  options.fusion = true;
  return compiler::Compile(text, options);
}

int CountCalls(const ir::Computation& computation) {
  int calls = 0;
  for (const ir::Instruction& inst : computation.instructions) {
    calls += inst.opcode == OpCode::kCall;
  }
  return calls;
}

std::vector<float> RunF32(const ir::Program& program,
                          const std::vector<std::vector<float>>& args,
                          const std::vector<int64_t>& dims) {
  std::vector<cpu::TensorValue> values;
  for (const std::vector<float>& arg : args) {
    cpu::Literal literal(ir::Shape{ir::ElementType::kF32, dims});
    for (size_t i = 0; i < arg.size(); ++i) literal.SetFloat(i, arg[i]);
    values.push_back(cpu::TensorValue::Tensor(std::move(literal)));
  }
  cpu::Interpreter interpreter(program);
  absl::StatusOr<std::vector<cpu::TensorValue>> results =
      interpreter.Run(std::move(values));
  EXPECT_TRUE(results.ok()) << results.status();
  if (!results.ok()) return {};
  const cpu::Literal& out = (*results)[0].tensor;
  return std::vector<float>(out.as<float>(),
                            out.as<float>() + out.num_elements());
}

// A dense layer's activation as JAX lowers it: ReLU outlined into a
// private function with its own zero broadcast.
constexpr char kReluCall[] = R"(
func.func @main(%x: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %x, %b : tensor<4xf32>
  %1 = call @relu(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @relu(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %1 = stablehlo.maximum %arg0, %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
)";

TEST(InlineStraightLineCallsTest, OutlinedReluJoinsTheCallersFusedGroup) {
  absl::StatusOr<ir::Program> program = CompileOptimized(kReluCall);
  ASSERT_TRUE(program.ok()) << program.status();
  const ir::Computation& entry = program->computations[program->entry];
  EXPECT_EQ(CountCalls(entry), 0);
  // The add and the maximum in one group; the zero is read as a scalar.
  std::vector<OpCode> opcodes;
  for (const ir::Instruction& inst : entry.instructions) {
    opcodes.push_back(inst.opcode);
  }
  EXPECT_THAT(opcodes,
              ElementsAre(OpCode::kConstant, OpCode::kFusedElementwise));
  EXPECT_THAT(RunF32(*program, {{1, -2, 3, -4}, {0.5, 0.5, -4, 5}}, {4}),
              ElementsAre(1.5f, 0, 0, 1));
}

TEST(InlineStraightLineCallsTest, NestedCallsAreInlinedInRounds) {
  absl::StatusOr<ir::Program> program = CompileOptimized(R"(
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = call @twice_squared(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %1 = call @twice_squared(%0) : (tensor<3xf32>) -> tensor<3xf32>
  return %1 : tensor<3xf32>
}
func.func private @twice_squared(%a: tensor<3xf32>) -> tensor<3xf32> {
  %0 = call @square(%a) : (tensor<3xf32>) -> tensor<3xf32>
  %1 = stablehlo.add %0, %0 : tensor<3xf32>
  return %1 : tensor<3xf32>
}
func.func private @square(%a: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.multiply %a, %a : tensor<3xf32>
  return %0 : tensor<3xf32>
}
)");
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_EQ(CountCalls(program->computations[program->entry]), 0);
  // 2x^2 twice: 2 (2 x^2)^2 = 8 x^4.
  EXPECT_THAT(RunF32(*program, {{1, 2, -1}}, {3}),
              ElementsAre(8.0f, 128.0f, 8.0f));
}

TEST(InlineStraightLineCallsTest, CallsItCannotRenameOrWithRegionsStay) {
  // @first returns a parameter, @both one value twice, @total has a reduce
  // region: each stays a call, and the program still computes.
  absl::StatusOr<ir::Program> program = CompileOptimized(R"(
func.func @main(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %0 = call @first(%x, %y) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1:2 = call @both(%0) : (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  %2 = call @total(%1#1) : (tensor<3xf32>) -> tensor<f32>
  %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<f32>) -> tensor<3xf32>
  %4 = stablehlo.add %1#0, %3 : tensor<3xf32>
  return %4 : tensor<3xf32>
}
func.func private @first(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  return %a : tensor<3xf32>
}
func.func private @both(%a: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0 = stablehlo.negate %a : tensor<3xf32>
  return %0, %0 : tensor<3xf32>, tensor<3xf32>
}
func.func private @total(%a: tensor<3xf32>) -> tensor<f32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
)");
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_EQ(CountCalls(program->computations[program->entry]), 3);
  // -x + sum(-x).
  EXPECT_THAT(RunF32(*program, {{1, 2, 3}, {0, 0, 0}}, {3}),
              ElementsAre(-7.0f, -8.0f, -9.0f));
}

}  // namespace
}  // namespace pjrtx
