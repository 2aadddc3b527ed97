// Dynamic-shape ops with constant shape operands lower to their static
// forms (the constants becoming the static op's attributes or checked
// against the result type); a shape computed at run time is UNIMPLEMENTED
// and a constant that contradicts the result type INVALID_ARGUMENT, both
// naming the dynamic op.
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler_stub/compiler.h"
#include "compiler_stub/ir/program.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pjrtx {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

absl::StatusOr<ir::Program> Compile(const std::string& text) {
  return compiler::Compile(text, compiler::CompileOptions{});
}

// The last instruction of @main: the op under test (constants come first).
const ir::Instruction& Last(const ir::Program& program) {
  return program.computations[program.entry].instructions.back();
}

TEST(DynamicShapeLoweringTest, IotaReshapeAndBroadcastCheckTheirShape) {
  absl::StatusOr<ir::Program> iota = Compile(R"(
func.func @main() -> tensor<3x4xi64> {
  %shape = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  %0 = stablehlo.dynamic_iota %shape, dim = 1 : (tensor<2xi64>) -> tensor<3x4xi64>
  func.return %0 : tensor<3x4xi64>
})");
  ASSERT_TRUE(iota.ok()) << iota.status();
  EXPECT_EQ(Last(*iota).opcode, ir::OpCode::kIota);
  EXPECT_EQ(Last(*iota).attributes.dimension, 1);
  EXPECT_TRUE(Last(*iota).operands.empty());

  absl::StatusOr<ir::Program> reshape = Compile(R"(
func.func @main(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  %shape = stablehlo.constant dense<6> : tensor<1xi32>
  %0 = stablehlo.dynamic_reshape %x, %shape : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<6xf32>
  func.return %0 : tensor<6xf32>
})");
  ASSERT_TRUE(reshape.ok()) << reshape.status();
  EXPECT_EQ(Last(*reshape).opcode, ir::OpCode::kReshape);
  EXPECT_EQ(Last(*reshape).operands.size(), 1u);

  absl::StatusOr<ir::Program> broadcast = Compile(R"(
func.func @main(%x: tensor<3x1xf32>) -> tensor<3x2x2xf32> {
  %shape = stablehlo.constant dense<[3, 2, 2]> : tensor<3xui8>
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%x, %shape) {
    broadcast_dimensions = array<i64: 0, 2>
  } : (tensor<3x1xf32>, tensor<3xui8>) -> tensor<3x2x2xf32>
  func.return %0 : tensor<3x2x2xf32>
})");
  ASSERT_TRUE(broadcast.ok()) << broadcast.status();
  EXPECT_EQ(Last(*broadcast).opcode, ir::OpCode::kBroadcastInDim);
  EXPECT_THAT(Last(*broadcast).attributes.dims, ElementsAre(0, 2));
}

TEST(DynamicShapeLoweringTest, PadGatherConvAndSliceTakeTheirConstants) {
  absl::StatusOr<ir::Program> pad = Compile(R"(
func.func @main(%x: tensor<5x4xf32>, %v: tensor<f32>) -> tensor<7x5xf32> {
  %low = stablehlo.constant dense<[1, -1]> : tensor<2xi8>
  %high = stablehlo.constant dense<[1, -1]> : tensor<2xi64>
  %interior = stablehlo.constant dense<[0, 1]> : tensor<2xi64>
  %0 = stablehlo.dynamic_pad %x, %v, %low, %high, %interior
    : (tensor<5x4xf32>, tensor<f32>, tensor<2xi8>, tensor<2xi64>, tensor<2xi64>) -> tensor<7x5xf32>
  func.return %0 : tensor<7x5xf32>
})");
  ASSERT_TRUE(pad.ok()) << pad.status();
  EXPECT_EQ(Last(*pad).opcode, ir::OpCode::kPad);
  EXPECT_THAT(Last(*pad).attributes.low, ElementsAre(1, -1));
  EXPECT_THAT(Last(*pad).attributes.high, ElementsAre(1, -1));
  EXPECT_THAT(Last(*pad).attributes.interior, ElementsAre(0, 1));
  EXPECT_EQ(Last(*pad).operands.size(), 2u);

  absl::StatusOr<ir::Program> gather = Compile(R"(
func.func @main(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64> {
  %sizes = stablehlo.constant dense<[1, 2, 2]> : tensor<3xi64>
  %0 = "stablehlo.dynamic_gather"(%x, %i, %sizes) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2, 3],
      collapsed_slice_dims = [0], start_index_map = [1, 0],
      index_vector_dim = 2>,
    indices_are_sorted = false
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<3xi64>) -> tensor<2x3x2x2xi64>
  func.return %0 : tensor<2x3x2x2xi64>
})");
  ASSERT_TRUE(gather.ok()) << gather.status();
  EXPECT_EQ(Last(*gather).opcode, ir::OpCode::kGather);
  EXPECT_THAT(Last(*gather).attributes.dims, ElementsAre(1, 2, 2));

  absl::StatusOr<ir::Program> conv = Compile(R"(
func.func @main(%x: tensor<1x4x4x1xf32>, %k: tensor<3x3x1x1xf32>) -> tensor<1x4x4x1xf32> {
  %padding = stablehlo.constant dense<[[1, 1], [2, 0]]> : tensor<2x2xi64>
  %0 = "stablehlo.dynamic_conv"(%x, %k, %padding) {
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
    batch_group_count = 1 : i64, feature_group_count = 1 : i64
  } : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x4x4x1xf32>
  func.return %0 : tensor<1x4x4x1xf32>
})");
  ASSERT_TRUE(conv.ok()) << conv.status();
  EXPECT_EQ(Last(*conv).opcode, ir::OpCode::kConvolution);
  EXPECT_THAT(Last(*conv).attributes.convolution_window.padding,
              ElementsAre(Pair(1, 1), Pair(2, 0)));

  absl::StatusOr<ir::Program> slice = Compile(R"(
func.func @main(%x: tensor<7x4xui32>) -> tensor<3x4xui32> {
  %start = stablehlo.constant dense<[0, 0]> : tensor<2xi32>
  %limit = stablehlo.constant dense<[7, 4]> : tensor<2xi32>
  %strides = stablehlo.constant dense<[3, 1]> : tensor<2xi32>
  %0 = stablehlo.real_dynamic_slice %x, %start, %limit, %strides
    : (tensor<7x4xui32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<3x4xui32>
  func.return %0 : tensor<3x4xui32>
})");
  ASSERT_TRUE(slice.ok()) << slice.status();
  EXPECT_EQ(Last(*slice).opcode, ir::OpCode::kSlice);
  EXPECT_THAT(Last(*slice).attributes.limit, ElementsAre(7, 4));
  EXPECT_THAT(Last(*slice).attributes.strides, ElementsAre(3, 1));
  EXPECT_EQ(Last(*slice).operands.size(), 1u);
}

TEST(DynamicShapeLoweringTest, ShapesComputedAtRunTimeAreUnimplemented) {
  absl::StatusOr<ir::Program> program = Compile(R"(
func.func @main(%x: tensor<2x3xf32>, %shape: tensor<1xi64>) -> tensor<6xf32> {
  %0 = stablehlo.dynamic_reshape %x, %shape : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<6xf32>
  func.return %0 : tensor<6xf32>
})");
  ASSERT_FALSE(program.ok());
  EXPECT_EQ(program.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(program.status().message(),
              HasSubstr("op stablehlo.dynamic_reshape needs operand 1 to be "
                        "an integer constant"));
}

TEST(DynamicShapeLoweringTest, ContradictoryConstantsNameTheDynamicOp) {
  absl::StatusOr<ir::Program> shape = Compile(R"(
func.func @main() -> tensor<3x4xi64> {
  %shape = stablehlo.constant dense<[4, 3]> : tensor<2xi64>
  %0 = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<2xi64>) -> tensor<3x4xi64>
  func.return %0 : tensor<3x4xi64>
})");
  ASSERT_FALSE(shape.ok());
  EXPECT_EQ(shape.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(shape.status().message(),
              HasSubstr("stablehlo.dynamic_iota: the output shape [4,3] "
                        "differs from the result type's dimensions [3,4]"));

  // The static op's own checks (here: padding 1 + 1 makes 4, not 2),
  // reported against the dynamic op.
  absl::StatusOr<ir::Program> pad = Compile(R"(
func.func @main(%x: tensor<2xf32>, %v: tensor<f32>) -> tensor<2xf32> {
  %low = stablehlo.constant dense<[1]> : tensor<1xi64>
  %high = stablehlo.constant dense<[1]> : tensor<1xi64>
  %interior = stablehlo.constant dense<[0]> : tensor<1xi64>
  %0 = stablehlo.dynamic_pad %x, %v, %low, %high, %interior
    : (tensor<2xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
})");
  ASSERT_FALSE(pad.ok());
  EXPECT_THAT(pad.status().message(),
              HasSubstr("stablehlo.dynamic_pad as stablehlo.pad with its "
                        "constant operands: "));
}

}  // namespace
}  // namespace pjrtx
