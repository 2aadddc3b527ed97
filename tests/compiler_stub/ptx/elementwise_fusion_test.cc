// The kernels FindElementwiseFusions builds from the kFusedElementwise
// instructions of ir::FuseElementwise: what each evaluates, reads and
// writes, under which value numbers.
#include "compiler_stub/ptx/elementwise_fusion.h"

#include <string>
#include <vector>

#include "compiler_stub/compiler.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pjrtx::ptx {
namespace {

using ::testing::Each;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::IsEmpty;
using ::testing::SizeIs;

struct Fusion {
  ir::Program program;
  std::vector<FusedKernel> kernels;

  const ir::Computation& entry() const {
    return program.computations[program.entry];
  }
  // The result of instruction `index` of the entry computation.
  int ResultOf(int index) const {
    return entry().instructions[index].results[0];
  }
};

Fusion Fuse(const std::string& text) {
  absl::StatusOr<ir::Program> program = compiler::Compile(text, {});
  EXPECT_TRUE(program.ok()) << program.status();
  if (!program.ok()) return {};
  Fusion fusion{*std::move(program), {}};
  fusion.kernels = FindElementwiseFusions(fusion.program, fusion.program.entry);
  return fusion;
}

// The op names of a kernel's instructions, in order.
std::vector<std::string> OpNames(const FusedKernel& kernel) {
  std::vector<std::string> names;
  for (const ir::Instruction& instruction : kernel.instructions) {
    names.push_back(instruction.name);
  }
  return names;
}

std::vector<int> InputValues(const FusedKernel& kernel) {
  std::vector<int> values;
  for (const FusedInput& input : kernel.inputs) values.push_back(input.value);
  return values;
}

std::vector<int> OutputValues(const FusedKernel& kernel) {
  std::vector<int> values;
  for (const FusedOutput& output : kernel.outputs) {
    values.push_back(output.value);
  }
  return values;
}

TEST(ElementwiseFusionTest, ChainWithConstantsAndBroadcastsIsOneKernel) {
  const Fusion fusion = Fuse(R"(
func.func @main(%x: tensor<8xf32>, %s: tensor<f32>) -> tensor<8xf32> {
  %two = stablehlo.constant dense<2.0> : tensor<8xf32>
  %half = stablehlo.constant dense<0.5> : tensor<f32>
  %b = stablehlo.broadcast_in_dim %half, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %c = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %0 = stablehlo.multiply %x, %two : tensor<8xf32>
  %1 = stablehlo.add %0, %b : tensor<8xf32>
  %2 = stablehlo.subtract %1, %c : tensor<8xf32>
  func.return %2 : tensor<8xf32>
}
)");
  ASSERT_THAT(fusion.kernels, SizeIs(1));
  const FusedKernel& kernel = fusion.kernels[0];
  EXPECT_EQ(kernel.name, "main_fusion0");
  EXPECT_THAT(kernel.dims, ElementsAre(8));
  // Constants are not re-created in the kernel: the program computes them
  // (both stay, as instructions 0 and 1) and the kernel reads them.
  EXPECT_THAT(
      OpNames(kernel),
      ElementsAre("stablehlo.multiply", "stablehlo.add", "stablehlo.subtract"));
  ASSERT_EQ(fusion.entry().instructions[2].opcode,
            ir::OpCode::kFusedElementwise);
  EXPECT_THAT(kernel.source_instructions, ElementsAre(2, 2, 2));
  // In the order of first reads: %x and the splat %two per element, then
  // the operands of the rank-0 broadcasts, %half and %s, once.
  EXPECT_THAT(InputValues(kernel),
              ElementsAre(fusion.entry().parameters[0], fusion.ResultOf(0),
                          fusion.ResultOf(1), fusion.entry().parameters[1]));
  EXPECT_THAT(kernel.inputs, ElementsAre(Field(&FusedInput::is_scalar, false),
                                         Field(&FusedInput::is_scalar, false),
                                         Field(&FusedInput::is_scalar, true),
                                         Field(&FusedInput::is_scalar, true)));
  EXPECT_THAT(kernel.inputs[1].shape.dims, ElementsAre(8));
  EXPECT_THAT(kernel.inputs[2].shape.dims, IsEmpty());
  // The output is the computation's result, under its own number.
  EXPECT_THAT(OutputValues(kernel), ElementsAre(fusion.entry().results[0]));
  EXPECT_EQ(kernel.outputs[0].value, kernel.instructions.back().results[0]);
}

TEST(ElementwiseFusionTest, DotGeneralInTheMiddleSplitsTwoKernels) {
  const Fusion fusion = Fuse(R"(
func.func @main(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.add %x, %x : tensor<4x4xf32>
  %1 = stablehlo.exponential %0 : tensor<4x4xf32>
  %2 = stablehlo.dot_general %1, %w, contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %3 = stablehlo.multiply %2, %1 : tensor<4x4xf32>
  %4 = stablehlo.negate %3 : tensor<4x4xf32>
  func.return %4 : tensor<4x4xf32>
}
)");
  const std::vector<FusedKernel>& kernels = fusion.kernels;
  ASSERT_THAT(kernels, SizeIs(2));
  EXPECT_THAT(OpNames(kernels[0]),
              ElementsAre("stablehlo.add", "stablehlo.exponential"));
  EXPECT_THAT(OpNames(kernels[1]),
              ElementsAre("stablehlo.multiply", "stablehlo.negate"));
  // fusion0, the dot, fusion1.
  EXPECT_THAT(kernels[0].source_instructions, ElementsAre(0, 0));
  EXPECT_THAT(kernels[1].source_instructions, ElementsAre(2, 2));
  // The first kernel's output feeds both the dot and the second kernel,
  // which reads it under the same value number.
  ASSERT_THAT(kernels[0].outputs, SizeIs(1));
  const int exp = kernels[0].outputs[0].value;
  EXPECT_THAT(InputValues(kernels[1]), ElementsAre(fusion.ResultOf(1), exp));
  EXPECT_EQ(fusion.entry().instructions[1].operands[0], exp);
  EXPECT_NE(kernels[0].name, kernels[1].name);
}

TEST(ElementwiseFusionTest, ReaderOutsideStopsTheGroupFromGrowing) {
  // The kernel runs where its last instruction stood, so the multiply,
  // which comes after the dot that reads %0, cannot join %0's kernel.
  const Fusion fusion = Fuse(R"(
func.func @main(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %0 = stablehlo.add %x, %x : tensor<4x4xf32>
  %1 = stablehlo.exponential %0 : tensor<4x4xf32>
  %2 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %3 = stablehlo.multiply %1, %1 : tensor<4x4xf32>
  %4 = stablehlo.negate %3 : tensor<4x4xf32>
  func.return %2, %4 : tensor<4x4xf32>, tensor<4x4xf32>
}
)");
  const std::vector<FusedKernel>& kernels = fusion.kernels;
  ASSERT_THAT(kernels, SizeIs(2));
  EXPECT_THAT(kernels[0].source_instructions, ElementsAre(0, 0));
  EXPECT_THAT(kernels[1].source_instructions, ElementsAre(2, 2));
  // %0 for the dot and %1 for the second kernel.
  ASSERT_THAT(kernels[0].outputs, SizeIs(2));
  EXPECT_EQ(fusion.entry().instructions[1].operands[0],
            kernels[0].outputs[0].value);
  EXPECT_THAT(InputValues(kernels[1]),
              ElementsAre(kernels[0].outputs[1].value));
}

TEST(ElementwiseFusionTest, DagIsOneKernelWithOneInputAndOneOutput) {
  const Fusion fusion = Fuse(R"(
func.func @main(%x: tensor<16xf32>) -> tensor<16xf32> {
  %a = stablehlo.exponential %x : tensor<16xf32>
  %b = stablehlo.multiply %a, %a : tensor<16xf32>
  %c = stablehlo.add %a, %b : tensor<16xf32>
  %d = stablehlo.subtract %c, %a : tensor<16xf32>
  func.return %d : tensor<16xf32>
}
)");
  ASSERT_THAT(fusion.kernels, SizeIs(1));
  EXPECT_THAT(fusion.kernels[0].instructions, SizeIs(4));
  EXPECT_THAT(fusion.kernels[0].inputs, SizeIs(1));
  EXPECT_THAT(fusion.kernels[0].outputs, SizeIs(1));
}

TEST(ElementwiseFusionTest, ValuesReturnedOrReadOutsideAreOutputs) {
  const Fusion fusion = Fuse(R"(
func.func @main(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xi1>) {
  %a = stablehlo.exponential %x : tensor<16xf32>
  %b = stablehlo.negate %a : tensor<16xf32>
  %c = stablehlo.compare LT, %a, %b : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
  func.return %a, %c : tensor<16xf32>, tensor<16xi1>
}
)");
  ASSERT_THAT(fusion.kernels, SizeIs(1));
  const FusedKernel& kernel = fusion.kernels[0];
  ASSERT_THAT(kernel.outputs, SizeIs(2));
  EXPECT_THAT(OutputValues(kernel), ElementsAre(fusion.entry().results[0],
                                                fusion.entry().results[1]));
  EXPECT_EQ(kernel.outputs[0].shape.type, ir::ElementType::kF32);
  EXPECT_EQ(kernel.outputs[1].shape.type, ir::ElementType::kPred);
  // %b stays in registers: its number is none of the computation's.
  EXPECT_GE(kernel.instructions[1].results[0], fusion.entry().num_values);
}

TEST(ElementwiseFusionTest, DifferentDimsMakeDifferentKernels) {
  const Fusion fusion = Fuse(R"(
func.func @main(%x: tensor<4xf32>) -> tensor<2x2xf32> {
  %a = stablehlo.add %x, %x : tensor<4xf32>
  %b = stablehlo.negate %a : tensor<4xf32>
  %r = stablehlo.reshape %b : (tensor<4xf32>) -> tensor<2x2xf32>
  %c = stablehlo.multiply %r, %r : tensor<2x2xf32>
  %d = stablehlo.abs %c : tensor<2x2xf32>
  func.return %d : tensor<2x2xf32>
}
)");
  ASSERT_THAT(fusion.kernels, SizeIs(2));
  EXPECT_THAT(fusion.kernels[0].dims, ElementsAre(4));
  EXPECT_THAT(fusion.kernels[1].dims, ElementsAre(2, 2));
}

TEST(ElementwiseFusionTest, SingleOpsAndGroupsNobodyReadsMakeNoKernels) {
  // A lone op runs the usual way; a group whose values nobody reads
  // computes nothing anyone needs.
  const Fusion fusion = Fuse(R"(
func.func @main(%x: tensor<4xf32>) -> tensor<2x2xf32> {
  %lone = stablehlo.negate %x : tensor<4xf32>
  %r = stablehlo.reshape %lone : (tensor<4xf32>) -> tensor<2x2xf32>
  %0 = stablehlo.exponential %x : tensor<4xf32>
  %1 = stablehlo.add %0, %x : tensor<4xf32>
  func.return %r : tensor<2x2xf32>
}
)");
  EXPECT_THAT(fusion.kernels, IsEmpty());
}

TEST(ElementwiseFusionTest, RankZeroPredicateAndBoundsAreScalarInputs) {
  const Fusion fusion = Fuse(R"(
func.func @main(%p: tensor<i1>, %x: tensor<4xf32>, %y: tensor<4xf32>, %lo: tensor<f32>, %hi: tensor<f32>) -> tensor<4xf32> {
  %r = stablehlo.select %p, %x, %y : tensor<i1>, tensor<4xf32>
  %c = stablehlo.clamp %lo, %r, %hi : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %c : tensor<4xf32>
}
)");
  ASSERT_THAT(fusion.kernels, SizeIs(1));
  EXPECT_THAT(fusion.kernels[0].inputs,
              ElementsAre(Field(&FusedInput::is_scalar, true),
                          Field(&FusedInput::is_scalar, false),
                          Field(&FusedInput::is_scalar, false),
                          Field(&FusedInput::is_scalar, true),
                          Field(&FusedInput::is_scalar, true)));
}

TEST(ElementwiseFusionTest, ConstantsAreInputsOfEveryKernelThatReadsThem) {
  const Fusion fusion = Fuse(R"(
func.func @main(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %one = stablehlo.constant dense<1.0> : tensor<2x2xf32>
  %table = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %k = stablehlo.constant dense<3.0> : tensor<f32>
  %kb = stablehlo.broadcast_in_dim %k, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
  %a = stablehlo.add %x, %one : tensor<2x2xf32>
  %a2 = stablehlo.multiply %a, %kb : tensor<2x2xf32>
  %d = stablehlo.dot_general %a2, %a2, contracting_dims = [1] x [0] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %b = stablehlo.add %d, %one : tensor<2x2xf32>
  %c = stablehlo.multiply %b, %table : tensor<2x2xf32>
  %e = stablehlo.subtract %c, %kb : tensor<2x2xf32>
  func.return %e : tensor<2x2xf32>
}
)");
  const std::vector<FusedKernel>& kernels = fusion.kernels;
  ASSERT_THAT(kernels, SizeIs(2));
  const int one = fusion.ResultOf(0);
  const int table = fusion.ResultOf(1);
  const int k = fusion.ResultOf(2);
  // The kernels evaluate only the elementwise ops; the splat %one is read
  // per element like the table, and %k once (its broadcast is gone).
  for (const FusedKernel& kernel : kernels) {
    EXPECT_THAT(kernel.instructions,
                Each(Field(&ir::Instruction::opcode, ir::OpCode::kBinary)));
  }
  EXPECT_THAT(InputValues(kernels[0]),
              ElementsAre(fusion.entry().parameters[0], one, k));
  const int dot = fusion.entry().instructions[4].results[0];
  EXPECT_THAT(InputValues(kernels[1]), ElementsAre(dot, one, table, k));
  EXPECT_THAT(kernels[1].inputs,
              ElementsAre(Field(&FusedInput::is_scalar, false),
                          Field(&FusedInput::is_scalar, false),
                          Field(&FusedInput::is_scalar, false),
                          Field(&FusedInput::is_scalar, true)));
}

}  // namespace
}  // namespace pjrtx::ptx
