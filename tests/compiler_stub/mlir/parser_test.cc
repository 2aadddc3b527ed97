#include "compiler_stub/mlir/parser.h"

#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "tests/compiler_stub/mlir/canonical_text.h"

namespace pjrtx::mlir {
namespace {

using ::pjrtx::mlir::testing::CanonicalText;

// Parses `ops` as the body of a function and returns the function's ops.
std::vector<Operation> ParseOps(std::string_view ops) {
  absl::StatusOr<Module> module =
      ParseModule("func.func @f() {\n" + std::string(ops) + "\n}");
  EXPECT_TRUE(module.ok()) << module.status() << "\nin:\n" << ops;
  if (!module.ok()) return {};
  return module->functions.at(0).body.blocks.at(0).operations;
}

Operation ParseOp(std::string_view op) {
  std::vector<Operation> ops = ParseOps(op);
  return ops.empty() ? Operation() : ops.front();
}

const Attribute* FindAttribute(const Operation& op, std::string_view name) {
  for (const auto& [key, value] : op.attributes) {
    if (key == name) return &value;
  }
  return nullptr;
}

const Attribute* FindEntry(const Attribute& attribute, std::string_view name) {
  for (const auto& [key, value] : attribute.entries) {
    if (key == name) return &value;
  }
  return nullptr;
}

std::string ParseError(std::string_view text) {
  absl::StatusOr<Module> module = ParseModule(text);
  EXPECT_FALSE(module.ok()) << "parsed:\n" << text;
  return module.ok() ? "" : std::string(module.status().message());
}

struct FormPair {
  const char* custom;
  const char* generic;
};

// Each op's custom form and the generic form it stands for.
const FormPair kFormPairs[] = {
    {"%r = stablehlo.add %a, %b : tensor<4xi2>",
     "%r = \"stablehlo.add\"(%a, %b) : (tensor<4xi2>, tensor<4xi2>) -> "
     "tensor<4xi2>"},
    {"%r = stablehlo.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> "
     "tensor<4xf32>",
     "%r = \"stablehlo.add\"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> "
     "tensor<4xf32>"},
    {"%r = stablehlo.abs %a : tensor<3xi64>",
     "%r = \"stablehlo.abs\"(%a) : (tensor<3xi64>) -> tensor<3xi64>"},
    {"%r = stablehlo.real %a : (tensor<2xcomplex<f64>>) -> tensor<2xf64>",
     "%r = \"stablehlo.real\"(%a) : (tensor<2xcomplex<f64>>) -> "
     "tensor<2xf64>"},
    {"%r = stablehlo.convert %a : (tensor<2xi1>) -> tensor<2xf64>",
     "%r = \"stablehlo.convert\"(%a) : (tensor<2xi1>) -> tensor<2xf64>"},
    {"%r = stablehlo.clamp %min, %x, %max : tensor<3xi64>",
     "%r = \"stablehlo.clamp\"(%min, %x, %max) : (tensor<3xi64>, "
     "tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>"},
    {"%r = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<2xf32>, "
     "tensor<2xf32>) -> tensor<2xi1>",
     "%r = \"stablehlo.compare\"(%a, %b) {comparison_direction = "
     "#stablehlo<comparison_direction EQ>, compare_type = "
     "#stablehlo<comparison_type FLOAT>} : (tensor<2xf32>, tensor<2xf32>) "
     "-> tensor<2xi1>"},
    {"%r = stablehlo.compare  LT, %a, %b : (tensor<i64>, tensor<i64>) -> "
     "tensor<i1>",
     "%r = \"stablehlo.compare\"(%a, %b) {comparison_direction = "
     "#stablehlo<comparison_direction LT>} : (tensor<i64>, tensor<i64>) -> "
     "tensor<i1>"},
    {"%r = stablehlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<2x3xf32>) "
     "-> tensor<2x3x4xf32>",
     "%r = \"stablehlo.broadcast_in_dim\"(%x) {broadcast_dimensions = "
     "array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3x4xf32>"},
    {"%r = stablehlo.broadcast %x, sizes = [2] : (tensor<3xf32>) -> "
     "tensor<2x3xf32>",
     "%r = \"stablehlo.broadcast\"(%x) {broadcast_sizes = array<i64: 2>} : "
     "(tensor<3xf32>) -> tensor<2x3xf32>"},
    {"%r = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> "
     "tensor<3x2xf32>",
     "%r = \"stablehlo.transpose\"(%x) {permutation = array<i64: 1, 0>} : "
     "(tensor<2x3xf32>) -> tensor<3x2xf32>"},
    {"%r = stablehlo.reverse %x, dims = [1] : tensor<3x2xi32>",
     "%r = \"stablehlo.reverse\"(%x) {dimensions = array<i64: 1>} : "
     "(tensor<3x2xi32>) -> tensor<3x2xi32>"},
    {"%r = stablehlo.constant dense<[1, 2]> : tensor<2xi32>",
     "%r = \"stablehlo.constant\"() {value = dense<[1, 2]> : tensor<2xi32>} "
     ": () -> tensor<2xi32>"},
    {"%r = stablehlo.iota dim = 0 : tensor<4xi32>",
     "%r = \"stablehlo.iota\"() {iota_dimension = 0 : i64} : () -> "
     "tensor<4xi32>"},
    {"%r = stablehlo.dynamic_iota %s, dim = 1 : (tensor<2xi64>) -> "
     "tensor<3x4xi64>",
     "%r = \"stablehlo.dynamic_iota\"(%s) {iota_dimension = 1 : i64} : "
     "(tensor<2xi64>) -> tensor<3x4xi64>"},
    {"%r = stablehlo.slice %x [0:2, 1:4:2] : (tensor<3x4xi64>) -> "
     "tensor<2x2xi64>",
     "%r = \"stablehlo.slice\"(%x) {start_indices = array<i64: 0, 1>, "
     "limit_indices = array<i64: 2, 4>, strides = array<i64: 1, 2>} : "
     "(tensor<3x4xi64>) -> tensor<2x2xi64>"},
    {"%r = stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 2] : "
     "(tensor<4x4xi32>, tensor<i64>, tensor<i64>) -> tensor<2x2xi32>",
     "%r = \"stablehlo.dynamic_slice\"(%x, %i, %j) {slice_sizes = "
     "array<i64: 2, 2>} : (tensor<4x4xi32>, tensor<i64>, tensor<i64>) -> "
     "tensor<2x2xi32>"},
    {"%r = stablehlo.dynamic_update_slice %x, %u, %i : (tensor<4xi32>, "
     "tensor<2xi32>, tensor<i64>) -> tensor<4xi32>",
     "%r = \"stablehlo.dynamic_update_slice\"(%x, %u, %i) : (tensor<4xi32>, "
     "tensor<2xi32>, tensor<i64>) -> tensor<4xi32>"},
    {"%r = stablehlo.pad %x, %v, low = [0, 1], high = [2, 1], interior = "
     "[1, 2] : (tensor<2x3xi32>, tensor<i32>) -> tensor<5x9xi32>",
     "%r = \"stablehlo.pad\"(%x, %v) {edge_padding_low = array<i64: 0, 1>, "
     "edge_padding_high = array<i64: 2, 1>, interior_padding = array<i64: 1, "
     "2>} : (tensor<2x3xi32>, tensor<i32>) -> tensor<5x9xi32>"},
    {"%r = stablehlo.concatenate %a, %b, dim = 0 : (tensor<3x2xi64>, "
     "tensor<1x2xi64>) -> tensor<4x2xi64>",
     "%r = \"stablehlo.concatenate\"(%a, %b) {dimension = 0 : i64} : "
     "(tensor<3x2xi64>, tensor<1x2xi64>) -> tensor<4x2xi64>"},
    {"%r = stablehlo.get_dimension_size %x, dim = 1 : (tensor<2x3xi64>) -> "
     "tensor<i32>",
     "%r = \"stablehlo.get_dimension_size\"(%x) {dimension = 1 : i64} : "
     "(tensor<2x3xi64>) -> tensor<i32>"},
    {"%r = stablehlo.fft %x, type = IFFT, length = [2] : "
     "(tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f64>>",
     "%r = \"stablehlo.fft\"(%x) {fft_type = #stablehlo<fft_type IFFT>, "
     "fft_length = array<i64: 2>} : (tensor<2xcomplex<f64>>) -> "
     "tensor<2xcomplex<f64>>"},
    {"%r = stablehlo.reduce_precision %x, format = e5m10 : tensor<6xf64>",
     "%r = \"stablehlo.reduce_precision\"(%x) {exponent_bits = 5 : i32, "
     "mantissa_bits = 10 : i32} : (tensor<6xf64>) -> tensor<6xf64>"},
    {"%r = stablehlo.rng %a, %b, %s, distribution = NORMAL : (tensor<f32>, "
     "tensor<f32>, tensor<2xi64>) -> tensor<3x3xf32>",
     "%r = \"stablehlo.rng\"(%a, %b, %s) {rng_distribution = "
     "#stablehlo<rng_distribution NORMAL>} : (tensor<f32>, tensor<f32>, "
     "tensor<2xi64>) -> tensor<3x3xf32>"},
    {"%s, %r = stablehlo.rng_bit_generator %x, algorithm = THREE_FRY : "
     "(tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui64>)",
     "%s:2 = \"stablehlo.rng_bit_generator\"(%x) {rng_algorithm = "
     "#stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xui64>) -> "
     "(tensor<2xui64>, tensor<2x2xui64>)"},
    {"%r = stablehlo.cholesky %a, lower = true : tensor<3x3xf64>",
     "%r = \"stablehlo.cholesky\"(%a) {lower = true} : (tensor<3x3xf64>) -> "
     "tensor<3x3xf64>"},
    {"%r = stablehlo.select %p, %a, %b : tensor<2xi1>, tensor<2xi32>",
     "%r = \"stablehlo.select\"(%p, %a, %b) : (tensor<2xi1>, tensor<2xi32>, "
     "tensor<2xi32>) -> tensor<2xi32>"},
    {"%r = stablehlo.complex %a, %b : tensor<2xcomplex<f64>>",
     "%r = \"stablehlo.complex\"(%a, %b) : (tensor<2xf64>, tensor<2xf64>) "
     "-> tensor<2xcomplex<f64>>"},
    {"%r = stablehlo.tuple %a, %b : tuple<tensor<2xf64>, tuple<tensor<i64>>>",
     "%r = \"stablehlo.tuple\"(%a, %b) : (tensor<2xf64>, tuple<tensor<i64>>) "
     "-> tuple<tensor<2xf64>, tuple<tensor<i64>>>"},
    {"%r = stablehlo.get_tuple_element %t[1] : (tuple<tensor<2xf64>, "
     "tensor<i64>>) -> tensor<i64>",
     "%r = \"stablehlo.get_tuple_element\"(%t) {index = 1 : i32} : "
     "(tuple<tensor<2xf64>, tensor<i64>>) -> tensor<i64>"},
    {"%r = stablehlo.after_all %a, %b : !stablehlo.token",
     "%r = \"stablehlo.after_all\"(%a, %b) : (!stablehlo.token, "
     "!stablehlo.token) -> !stablehlo.token"},
    {"%r = stablehlo.after_all : !stablehlo.token",
     "%r = \"stablehlo.after_all\"() : () -> !stablehlo.token"},
    {"%r = stablehlo.create_token : !stablehlo.token",
     "%r = \"stablehlo.create_token\"() : () -> !stablehlo.token"},
    {"%r = stablehlo.replica_id : tensor<ui32>",
     "%r = \"stablehlo.replica_id\"() : () -> tensor<ui32>"},
    {"%a, %b = stablehlo.optimization_barrier %x, %y : tensor<f32>, "
     "tensor<i32>",
     "%a:2 = \"stablehlo.optimization_barrier\"(%x, %y) : (tensor<f32>, "
     "tensor<i32>) -> (tensor<f32>, tensor<i32>)"},
    {"%r = stablehlo.custom_call @foo(%x) {backend_config = \"bar\"} : "
     "(tensor<f64>) -> tensor<f64>",
     "%r = \"stablehlo.custom_call\"(%x) {call_target_name = \"foo\", "
     "backend_config = \"bar\"} : (tensor<f64>) -> tensor<f64>"},
    {"%r = stablehlo.composite \"my.op\" %x {decomposition = @f} : "
     "(tensor<i64>) -> tensor<i64>",
     "%r = \"stablehlo.composite\"(%x) {name = \"my.op\", decomposition = "
     "@f} : (tensor<i64>) -> tensor<i64>"},
    {"%r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], "
     "contracting_dims = [2] x [1], precision = [DEFAULT, HIGHEST] : "
     "(tensor<2x2x2xi64>, tensor<2x2x2xi64>) -> tensor<2x2x2xi64>",
     "%r = \"stablehlo.dot_general\"(%a, %b) {dot_dimension_numbers = "
     "#stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions "
     "= [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = "
     "[1]>, precision_config = [#stablehlo<precision DEFAULT>, "
     "#stablehlo<precision HIGHEST>]} : (tensor<2x2x2xi64>, "
     "tensor<2x2x2xi64>) -> tensor<2x2x2xi64>"},
    {"%r = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0], "
     "algorithm = <lhs_precision_type = tf32, num_primitive_operations = 1> "
     ": (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>",
     "%r = \"stablehlo.dot_general\"(%a, %b) {dot_dimension_numbers = "
     "#stablehlo.dot<lhs_contracting_dimensions = [0], "
     "rhs_contracting_dimensions = [0]>, algorithm = "
     "#stablehlo.dot_algorithm<lhs_precision_type = tf32, "
     "num_primitive_operations = 1>} : (tensor<4xf32>, tensor<4xf32>) -> "
     "tensor<f32>"},
    {"%r = stablehlo.dot %a, %b, precision = [DEFAULT, DEFAULT] : "
     "(tensor<1x2xi32>, tensor<2x1xi32>) -> tensor<1x1xi32>",
     "%r = \"stablehlo.dot\"(%a, %b) {precision_config = "
     "[#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : "
     "(tensor<1x2xi32>, tensor<2x1xi32>) -> tensor<1x1xi32>"},
    {"%r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, "
     "i, o]->[b, 0, 1, f], window = {stride = [4, 4], pad = [[1, 1], [0, "
     "2]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, "
     "true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : "
     "(tensor<1x4x4x1xi64>, tensor<3x3x1x1xi64>) -> tensor<1x2x2x1xi64>",
     "%r = \"stablehlo.convolution\"(%x, %w) {window_strides = array<i64: 4, "
     "4>, padding = dense<[[1, 1], [0, 2]]> : tensor<2x2xi64>, lhs_dilation "
     "= array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, window_reversal "
     "= array<i1: false, true>, dimension_numbers = #stablehlo.conv<[b, 0, "
     "1, f]x[0, 1, i, o]->[b, 0, 1, f]>, batch_group_count = 1 : i64, "
     "feature_group_count = 1 : i64} : (tensor<1x4x4x1xi64>, "
     "tensor<3x3x1x1xi64>) -> tensor<1x2x2x1xi64>"},
    {"%r = stablehlo.convolution(%x, %w) dim_numbers = [f, 1, b, 0]x[o, i, "
     "0, 1]->[0, b, 1, f], window = {} : (tensor<1x4x4x1xi64>, "
     "tensor<3x3x1x1xi64>) -> tensor<1x2x2x1xi64>",
     "%r = \"stablehlo.convolution\"(%x, %w) {dimension_numbers = "
     "#stablehlo.conv<input_batch_dimension = 2, input_feature_dimension = "
     "0, input_spatial_dimensions = [3, 1], kernel_input_feature_dimension "
     "= 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = "
     "[2, 3], output_batch_dimension = 1, output_feature_dimension = 3, "
     "output_spatial_dimensions = [0, 2]>} : (tensor<1x4x4x1xi64>, "
     "tensor<3x3x1x1xi64>) -> tensor<1x2x2x1xi64>"},
    {"%r = stablehlo.reduce(%x init: %c) applies stablehlo.add across "
     "dimensions = [1] : (tensor<1x6xi64>, tensor<i64>) -> tensor<1xi64>",
     "%r = \"stablehlo.reduce\"(%x, %c) ({\n"
     "^bb0(%lhs: tensor<i64>, %rhs: tensor<i64>):\n"
     "  %result = stablehlo.add %lhs, %rhs : tensor<i64>\n"
     "  stablehlo.return %result : tensor<i64>\n"
     "}) {dimensions = array<i64: 1>} : (tensor<1x6xi64>, tensor<i64>) -> "
     "tensor<1xi64>"},
    {"%r:2 = stablehlo.reduce(%x init: %c), (%y init: %d) across dimensions "
     "= [0] : (tensor<2xf32>, tensor<2xi32>, tensor<f32>, tensor<i32>) -> "
     "(tensor<f32>, tensor<i32>)\n"
     " reducer(%x0: tensor<f32>, %x1: tensor<f32>) (%y0: tensor<i32>, %y1: "
     "tensor<i32>) {\n"
     "  stablehlo.return %x0, %y0 : tensor<f32>, tensor<i32>\n"
     "}",
     "%r:2 = \"stablehlo.reduce\"(%x, %y, %c, %d) ({\n"
     "^bb0(%x0: tensor<f32>, %y0: tensor<i32>, %x1: tensor<f32>, %y1: "
     "tensor<i32>):\n"
     "  \"stablehlo.return\"(%x0, %y0) : (tensor<f32>, tensor<i32>) -> ()\n"
     "}) {dimensions = array<i64: 0>} : (tensor<2xf32>, tensor<2xi32>, "
     "tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)"},
    {"%r:2 = stablehlo.while(%i = %x, %s = %y) : tensor<i64>, tensor<f32>\n"
     "cond {\n"
     "  %c = stablehlo.compare LT, %i, %i : (tensor<i64>, tensor<i64>) -> "
     "tensor<i1>\n"
     "  stablehlo.return %c : tensor<i1>\n"
     "} do {\n"
     "  stablehlo.return %i, %s : tensor<i64>, tensor<f32>\n"
     "}",
     "%r:2 = \"stablehlo.while\"(%x, %y) ({\n"
     "^bb0(%i: tensor<i64>, %s: tensor<f32>):\n"
     "  %c = \"stablehlo.compare\"(%i, %i) {comparison_direction = "
     "#stablehlo<comparison_direction LT>} : (tensor<i64>, tensor<i64>) -> "
     "tensor<i1>\n"
     "  \"stablehlo.return\"(%c) : (tensor<i1>) -> ()\n"
     "}, {\n"
     "^bb0(%i: tensor<i64>, %s: tensor<f32>):\n"
     "  \"stablehlo.return\"(%i, %s) : (tensor<i64>, tensor<f32>) -> ()\n"
     "}) : (tensor<i64>, tensor<f32>) -> (tensor<i64>, tensor<f32>)"},
    {"%r = stablehlo.if %p -> (tensor<i32>) {\n"
     "  stablehlo.return %a : tensor<i32>\n"
     "} else {\n"
     "  stablehlo.return %b : tensor<i32>\n"
     "}",
     "%r = \"stablehlo.if\"(%p) ({\n"
     "  \"stablehlo.return\"(%a) : (tensor<i32>) -> ()\n"
     "}, {\n"
     "  \"stablehlo.return\"(%b) : (tensor<i32>) -> ()\n"
     "}) : (tensor<i1>) -> tensor<i32>"},
    {"%r = stablehlo.case(%i) ({\n"
     "  stablehlo.return %a : tensor<i32>\n"
     "}) : (tensor<i32>) -> tensor<i32>",
     "%r = \"stablehlo.case\"(%i) ({\n"
     "  \"stablehlo.return\"(%a) : (tensor<i32>) -> ()\n"
     "}) : (tensor<i32>) -> tensor<i32>"},
    {"stablehlo.return %a, %b : tensor<i32>, tensor<f32>",
     "\"stablehlo.return\"(%a, %b) : (tensor<i32>, tensor<f32>) -> ()"},
    {"func.return %a : tensor<f32>",
     "\"func.return\"(%a) : (tensor<f32>) -> ()"},
    {"return", "\"func.return\"() : () -> ()"},
    {"%r = func.call @g(%a) : (tensor<f32>) -> tensor<f32>",
     "%r = \"func.call\"(%a) {callee = @g} : (tensor<f32>) -> tensor<f32>"},
    {"%r = call @g(%a) : (tensor<f32>) -> tensor<f32>",
     "%r = \"func.call\"(%a) {callee = @g} : (tensor<f32>) -> tensor<f32>"},
    {"check.expect_eq_const %v, dense<[1, 2]> : tensor<2xi64>",
     "\"check.expect_eq_const\"(%v) {value = dense<[1, 2]> : tensor<2xi64>} "
     ": (tensor<2xi64>) -> ()"},
    {"check.expect_almost_eq_const %v, dense<5.1> : tensor<f64> {tolerance "
     "= 0.1 : f64}",
     "\"check.expect_almost_eq_const\"(%v) {value = dense<5.1> : "
     "tensor<f64>, tolerance = 0.1 : f64} : (tensor<f64>) -> ()"},
    {"check.expect_eq %a, %b : tensor<3xi64>",
     "\"check.expect_eq\"(%a, %b) : (tensor<3xi64>, tensor<3xi64>) -> ()"},
    {"check.expect_almost_eq %a, %b, tolerance = 0.1 : tensor<f64>",
     "\"check.expect_almost_eq\"(%a, %b) {tolerance = 0.1 : f64} : "
     "(tensor<f64>, tensor<f64>) -> ()"},
    {"check.expect_close %a, %b, max_ulp_difference = 3 : tensor<f16>, "
     "tensor<f16>",
     "\"check.expect_close\"(%a, %b) {max_ulp_difference = 3 : ui64} : "
     "(tensor<f16>, tensor<f16>) -> ()"},
    {"check.expect_serialized_eq %a, probe_id = \"p\", iter = 1 : "
     "tensor<i64>",
     "\"check.expect_serialized_eq\"(%a) {probe_id = \"p\", iteration = 1 : "
     "ui32} : (tensor<i64>) -> ()"},
    {"%r = interpreter.probe %a, probe_id = \"p\" : tensor<3xi64>",
     "%r = \"interpreter.probe\"(%a) {probe_id = \"p\"} : (tensor<3xi64>) -> "
     "tensor<3xi64>"},
    {"%r = \"stablehlo.sort\"(%x) <{dimension = 0 : i64}> ({\n"
     "^bb0(%a: tensor<i64>, %b: tensor<i64>):\n"
     "  stablehlo.return %a : tensor<i64>\n"
     "}) : (tensor<5xi64>) -> tensor<5xi64>",
     "%r = \"stablehlo.sort\"(%x) ({\n"
     "^bb0(%a: tensor<i64>, %b: tensor<i64>):\n"
     "  \"stablehlo.return\"(%a) : (tensor<i64>) -> ()\n"
     "}) {dimension = 0 : i64} : (tensor<5xi64>) -> tensor<5xi64>"},
};

TEST(ParserTest, CustomFormsEqualTheirGenericForms) {
  for (const FormPair& pair : kFormPairs) {
    SCOPED_TRACE(pair.custom);
    std::vector<Operation> custom = ParseOps(pair.custom);
    std::vector<Operation> generic = ParseOps(pair.generic);
    ASSERT_EQ(custom.size(), 1u);
    ASSERT_EQ(generic.size(), 1u);
    EXPECT_EQ(CanonicalText(custom[0]), CanonicalText(generic[0]));
  }
}

TEST(ParserTest, CompareAttributesAreDialectEnums) {
  Operation op = ParseOp(
      "%r = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<2xf32>, "
      "tensor<2xf32>) -> tensor<2xi1>");
  EXPECT_EQ(op.name, "stablehlo.compare");
  ASSERT_EQ(op.operand_types.size(), 2u);
  EXPECT_EQ(op.operand_types[1].element, "f32");
  ASSERT_EQ(op.result_types.size(), 1u);
  EXPECT_EQ(op.result_types[0].element, "i1");
  const Attribute* direction = FindAttribute(op, "comparison_direction");
  ASSERT_NE(direction, nullptr);
  EXPECT_EQ(direction->kind, Attribute::Kind::kDialect);
  EXPECT_EQ(direction->dialect, "stablehlo");
  EXPECT_EQ(direction->mnemonic, "comparison_direction");
  EXPECT_EQ(direction->body, "EQ");
  const Attribute* type = FindAttribute(op, "compare_type");
  ASSERT_NE(type, nullptr);
  EXPECT_EQ(type->mnemonic, "comparison_type");
  EXPECT_EQ(type->body, "FLOAT");
}

TEST(ParserTest, DimsAreI64DenseArrays) {
  Operation op = ParseOp(
      "%r = stablehlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<2x3xf32>) "
      "-> tensor<2x3x4xf32>");
  const Attribute* dims = FindAttribute(op, "broadcast_dimensions");
  ASSERT_NE(dims, nullptr);
  EXPECT_EQ(dims->kind, Attribute::Kind::kDenseArray);
  EXPECT_EQ(dims->type.element, "i64");
  EXPECT_EQ(dims->integers, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(op.result_types.at(0).dims, (std::vector<int64_t>{2, 3, 4}));
}

TEST(ParserTest, IotaDimensionIsTypedInteger) {
  Operation op = ParseOp("%r = stablehlo.iota dim = 2 : tensor<2x3x4xi32>");
  const Attribute* dim = FindAttribute(op, "iota_dimension");
  ASSERT_NE(dim, nullptr);
  EXPECT_EQ(dim->kind, Attribute::Kind::kInteger);
  EXPECT_EQ(dim->integer, 2);
  EXPECT_EQ(dim->type.element, "i64");
}

TEST(ParserTest, DotDimensionNumbersAreIntegerLists) {
  Operation op = ParseOp(
      "%r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], "
      "contracting_dims = [2] x [1] : (tensor<2x2x2xi64>, tensor<2x2x2xi64>) "
      "-> tensor<2x2x2xi64>");
  const Attribute* numbers = FindAttribute(op, "dot_dimension_numbers");
  ASSERT_NE(numbers, nullptr);
  EXPECT_EQ(numbers->kind, Attribute::Kind::kDialect);
  EXPECT_EQ(numbers->mnemonic, "dot");
  const Attribute* contracting =
      FindEntry(*numbers, "rhs_contracting_dimensions");
  ASSERT_NE(contracting, nullptr);
  EXPECT_EQ(contracting->kind, Attribute::Kind::kArray);
  ASSERT_EQ(contracting->elements.size(), 1u);
  EXPECT_EQ(contracting->elements[0].kind, Attribute::Kind::kInteger);
  EXPECT_EQ(contracting->elements[0].integer, 1);
  EXPECT_NE(FindEntry(*numbers, "lhs_batching_dimensions"), nullptr);
}

TEST(ParserTest, ConvolutionWindowAndDimensionNumbers) {
  Operation op = ParseOp(
      "%r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, "
      "i, o]->[b, 0, 1, f], window = {stride = [4, 4], pad = [[1, 1], [0, "
      "2]]} : (tensor<1x4x4x1xi64>, tensor<3x3x1x1xi64>) -> "
      "tensor<1x2x2x1xi64>");
  const Attribute* numbers = FindAttribute(op, "dimension_numbers");
  ASSERT_NE(numbers, nullptr);
  EXPECT_EQ(numbers->mnemonic, "conv");
  const Attribute* feature = FindEntry(*numbers, "input_feature_dimension");
  ASSERT_NE(feature, nullptr);
  EXPECT_EQ(feature->integer, 3);
  const Attribute* padding = FindAttribute(op, "padding");
  ASSERT_NE(padding, nullptr);
  EXPECT_EQ(padding->kind, Attribute::Kind::kDenseElements);
  EXPECT_EQ(padding->type.dims, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(padding->type.element, "i64");
  EXPECT_EQ(padding->dense.values,
            (std::vector<std::string>{"1", "1", "0", "2"}));
}

TEST(ParserTest, GatherDimensionNumbersHaveEntries) {
  Operation op = ParseOp(
      "%r = \"stablehlo.gather\"(%x, %i) {dimension_numbers = "
      "#stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], "
      "start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = "
      "array<i64: 1, 2, 2>, indices_are_sorted = false} : (tensor<3x4x2xi32>, "
      "tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32>");
  const Attribute* numbers = FindAttribute(op, "dimension_numbers");
  ASSERT_NE(numbers, nullptr);
  EXPECT_EQ(numbers->kind, Attribute::Kind::kDialect);
  EXPECT_EQ(numbers->dialect, "stablehlo");
  EXPECT_EQ(numbers->mnemonic, "gather");
  ASSERT_EQ(numbers->entries.size(), 4u);
  EXPECT_EQ(numbers->entries[3].first, "index_vector_dim");
  EXPECT_EQ(numbers->entries[3].second.integer, 2);
  EXPECT_EQ(numbers->entries[0].second.elements.size(), 2u);
}

TEST(ParserTest, ReduceAppliesBuildsTheBody) {
  Operation op = ParseOp(
      "%r = stablehlo.reduce(%x init: %c) applies stablehlo.maximum across "
      "dimensions = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>");
  ASSERT_EQ(op.regions.size(), 1u);
  ASSERT_EQ(op.regions[0].blocks.size(), 1u);
  const Block& block = op.regions[0].blocks[0];
  ASSERT_EQ(block.arguments.size(), 2u);
  EXPECT_EQ(block.arguments[0].type.dims.size(), 0u);
  EXPECT_EQ(block.arguments[0].type.element, "f32");
  ASSERT_EQ(block.operations.size(), 2u);
  EXPECT_EQ(block.operations[0].name, "stablehlo.maximum");
  EXPECT_EQ(block.operations[1].name, "stablehlo.return");
  const Attribute* dimensions = FindAttribute(op, "dimensions");
  ASSERT_NE(dimensions, nullptr);
  EXPECT_EQ(dimensions->integers, (std::vector<int64_t>{0, 1}));
}

TEST(ParserTest, ExpectEqConstTakesTheLiteralsType) {
  Operation op =
      ParseOp("check.expect_eq_const %v, dense<[-2, 0, 2]> : tensor<3xi64>");
  ASSERT_EQ(op.operands.size(), 1u);
  EXPECT_EQ(op.operands[0].name, "v");
  ASSERT_EQ(op.operand_types.size(), 1u);
  EXPECT_EQ(op.operand_types[0].dims, (std::vector<int64_t>{3}));
  EXPECT_EQ(op.result_types.size(), 0u);
  const Attribute* value = FindAttribute(op, "value");
  ASSERT_NE(value, nullptr);
  EXPECT_EQ(value->dense.values, (std::vector<std::string>{"-2", "0", "2"}));
}

TEST(ParserTest, CallHasCalleeSymbol) {
  Operation op = ParseOp("%r = call @add_2(%a) : (tensor<i64>) -> tensor<i64>");
  EXPECT_EQ(op.name, "func.call");
  const Attribute* callee = FindAttribute(op, "callee");
  ASSERT_NE(callee, nullptr);
  EXPECT_EQ(callee->kind, Attribute::Kind::kSymbolRef);
  EXPECT_EQ(callee->string_value, "add_2");
}

TEST(ParserTest, SeveralResultNamesBecomeOneGroup) {
  std::vector<Operation> ops = ParseOps(
      "%a, %b:2 = \"x.y\"() : () -> (tensor<i1>, tensor<i2>, tensor<i4>)\n"
      "\"x.use\"(%a, %b, %b#1, %0#1) : (tensor<i1>, tensor<i2>, tensor<i4>, "
      "tensor<i8>) -> ()");
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0].result_name, "a");
  EXPECT_EQ(ops[0].num_results, 3);
  const std::vector<ValueRef>& uses = ops[1].operands;
  ASSERT_EQ(uses.size(), 4u);
  EXPECT_EQ(uses[0].name, "a");
  EXPECT_EQ(uses[0].index, 0);
  EXPECT_EQ(uses[1].name, "a");
  EXPECT_EQ(uses[1].index, 1);
  EXPECT_EQ(uses[2].name, "a");
  EXPECT_EQ(uses[2].index, 2);
  // A name defined nowhere is kept as written.
  EXPECT_EQ(uses[3].name, "0");
  EXPECT_EQ(uses[3].index, 1);
}

TEST(ParserTest, InnerRegionsSeeOuterNamesAndShadowThem) {
  std::vector<Operation> ops = ParseOps(
      "%x, %y = \"x.pair\"() : () -> (tensor<i1>, tensor<i1>)\n"
      "%w = stablehlo.while(%y = %y) : tensor<i1> cond {\n"
      "  stablehlo.return %y : tensor<i1>\n"
      "} do {\n"
      "  stablehlo.return %x : tensor<i1>\n"
      "}\n"
      "\"x.use\"(%y) : (tensor<i1>) -> ()");
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_EQ(ops[1].operands.at(0).name, "x");
  EXPECT_EQ(ops[1].operands.at(0).index, 1);
  const Operation& cond_return =
      ops[1].regions.at(0).blocks.at(0).operations.at(0);
  EXPECT_EQ(cond_return.operands.at(0).name, "y");
  EXPECT_EQ(cond_return.operands.at(0).index, 0);
  const Operation& body_return =
      ops[1].regions.at(1).blocks.at(0).operations.at(0);
  EXPECT_EQ(body_return.operands.at(0).name, "x");
  EXPECT_EQ(ops[2].operands.at(0).name, "x");
  EXPECT_EQ(ops[2].operands.at(0).index, 1);
}

TEST(ParserTest, JaxModule) {
  constexpr std::string_view kText = R"mlir(#loc1 = loc("x")
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32> {mhlo.layout_mode = "default", mhlo.sharding = "{replicated}"} loc("x")) -> (tensor<4xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32> loc(#loc)
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32> loc(#loc2)
    %1:2 = call @pair(%arg0, %0) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) loc(#loc3)
    %2 = stablehlo.multiply %1#0, %1#1 : tensor<4xf32> loc(#loc2)
    return %2 : tensor<4xf32> loc(#loc)
  } loc(#loc)
  func.func private @pair(%input: tensor<4xf32>, %other: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    return %input, %other : tensor<4xf32>, tensor<4xf32>
  }
} loc(#loc)
#loc = loc(unknown)
#loc2 = loc("jit(f)/jit(main)/mul"(#loc1))
#loc3 = loc(callsite(#loc1 at #loc2))
)mlir";
  absl::StatusOr<Module> module = ParseModule(kText);
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_EQ(module->name, "jit_f");
  ASSERT_EQ(module->attributes.size(), 2u);
  EXPECT_EQ(module->attributes[0].first, "mhlo.num_partitions");
  EXPECT_EQ(module->attributes[0].second.integer, 1);
  EXPECT_EQ(module->attributes[0].second.type.element, "i32");
  ASSERT_EQ(module->functions.size(), 2u);
  const Function& main = module->functions[0];
  EXPECT_EQ(main.name, "main");
  EXPECT_EQ(main.visibility, "public");
  ASSERT_EQ(main.arguments.size(), 1u);
  EXPECT_EQ(main.arguments[0].name, "arg0");
  ASSERT_EQ(main.arguments[0].attributes.size(), 2u);
  EXPECT_EQ(main.arguments[0].attributes[1].first, "mhlo.sharding");
  EXPECT_EQ(main.arguments[0].attributes[1].second.string_value,
            "{replicated}");
  ASSERT_EQ(main.result_attributes.size(), 1u);
  EXPECT_EQ(main.result_attributes[0].at(0).first, "jax.result_info");
  ASSERT_EQ(main.body.blocks.size(), 1u);
  const Block& block = main.body.blocks[0];
  ASSERT_EQ(block.arguments.size(), 1u);
  ASSERT_EQ(block.operations.size(), 5u);
  EXPECT_EQ(block.operations[2].name, "func.call");
  EXPECT_EQ(block.operations[2].num_results, 2);
  EXPECT_EQ(block.operations[3].operands.at(1).name, "1");
  EXPECT_EQ(block.operations[3].operands.at(1).index, 1);
  EXPECT_EQ(block.operations[4].name, "func.return");
  EXPECT_EQ(block.operations[4].location.line, 8);
  EXPECT_EQ(block.operations[4].location.column, 5);
  EXPECT_EQ(module->functions[1].visibility, "private");
}

TEST(ParserTest, BareFunctionsFormAnUnnamedModule) {
  absl::StatusOr<Module> module = ParseModule(
      "// comment\nfunc.func @a() {\n  func.return\n}\nfunc.func "
      "@b(tensor<f32>) "
      "-> tensor<f32>\n");
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_EQ(module->name, "");
  ASSERT_EQ(module->functions.size(), 2u);
  EXPECT_TRUE(module->functions[1].body.blocks.empty());
  EXPECT_EQ(module->functions[1].arguments.at(0).type.element, "f32");
}

TEST(ParserTest, EmptyInputIsAnEmptyModule) {
  absl::StatusOr<Module> module = ParseModule("// Test an empty module\n");
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_TRUE(module->functions.empty());
}

TEST(ParserTest, DenseLiterals) {
  std::vector<Operation> ops = ParseOps(R"mlir(
    %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi4>
    %b = stablehlo.constant dense<-0.0> : tensor<4xf32>
    %c = stablehlo.constant dense<[0x7FC00000, nan, inf, -inf, 1.5e-3]> : tensor<5xf32>
    %d = stablehlo.constant dense<"0x0102FF"> : tensor<3xui8>
    %e = stablehlo.constant dense<[(1.0, -2.0), (3.0,4.0)]> : tensor<2xcomplex<f32>>
    %f = stablehlo.constant dense<[true, false]> : tensor<2xi1>
    %g = stablehlo.constant dense<> : tensor<0x2xi2>
    %h = stablehlo.constant dense<[[], []]> : tensor<2x0xi8>
  )mlir");
  ASSERT_EQ(ops.size(), 8u);
  auto value = [&](size_t i) { return *FindAttribute(ops[i], "value"); };
  EXPECT_EQ(value(0).dense.values,
            (std::vector<std::string>{"1", "2", "3", "4"}));
  EXPECT_EQ(value(0).dense.written_shape, (std::vector<int64_t>{2, 2}));
  EXPECT_FALSE(value(0).dense.splat);
  EXPECT_EQ(value(0).type.element, "i4");
  EXPECT_TRUE(value(1).dense.splat);
  EXPECT_EQ(value(1).dense.values, (std::vector<std::string>{"-0.0"}));
  EXPECT_EQ(
      value(2).dense.values,
      (std::vector<std::string>{"0x7FC00000", "nan", "inf", "-inf", "1.5e-3"}));
  EXPECT_TRUE(value(3).dense.is_hex);
  EXPECT_EQ(value(3).dense.hex_bytes, (std::vector<uint8_t>{1, 2, 255}));
  EXPECT_EQ(value(4).dense.values,
            (std::vector<std::string>{"(1.0, -2.0)", "(3.0, 4.0)"}));
  EXPECT_EQ(value(4).type.element, "complex<f32>");
  EXPECT_EQ(value(5).dense.values, (std::vector<std::string>{"true", "false"}));
  EXPECT_TRUE(value(6).dense.values.empty());
  EXPECT_EQ(value(6).type.dims, (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(value(7).dense.written_shape, (std::vector<int64_t>{2, 0}));
}

TEST(ParserTest, Types) {
  Operation op = ParseOp(
      "%r:6 = \"x.types\"() : () -> (tensor<f32>, tensor<?x4xbf16>, "
      "tuple<tensor<i32>, !stablehlo.token>, !stablehlo.token, "
      "tensor<2x!quant.uniform<i8:f32, 0.1:-30>>, tensor<?xf32, "
      "#stablehlo.bounds<8>>)");
  ASSERT_EQ(op.result_types.size(), 6u);
  const Type& scalar = op.result_types[0];
  EXPECT_EQ(scalar.kind, Type::Kind::kTensor);
  EXPECT_TRUE(scalar.dims.empty());
  EXPECT_EQ(scalar.element, "f32");
  EXPECT_EQ(op.result_types[1].dims, (std::vector<int64_t>{-1, 4}));
  EXPECT_EQ(op.result_types[2].kind, Type::Kind::kTuple);
  EXPECT_EQ(op.result_types[2].elements.at(1).kind, Type::Kind::kToken);
  EXPECT_EQ(op.result_types[3].kind, Type::Kind::kToken);
  EXPECT_EQ(op.result_types[4].element, "!quant.uniform<i8:f32, 0.1:-30>");
  EXPECT_EQ(op.result_types[5].encoding, "#stablehlo.bounds<8>");
  EXPECT_EQ(op.result_types[5].text, "tensor<?xf32, #stablehlo.bounds<8>>");
}

TEST(ParserTest, Attributes) {
  Operation op = ParseOp(
      "\"x.attrs\"() <{p = 1}> {a = array<i64>, b = 7 : i64, c = -3, d = "
      "0x7FC00000 : f32, e, f = @sym, g = {h = \"s\\\"q\"}, i = i32, j = "
      "#stablehlo<precision HIGH>, k = array<f32: 1.5, -2>, l = "
      "18446744073709551615 : ui64, m = [true, 1.0], n = array<f32: "
      "0x3F800000>} "
      ": () -> ()");
  auto attr = [&](std::string_view name) {
    const Attribute* found = FindAttribute(op, name);
    EXPECT_NE(found, nullptr) << name;
    return found == nullptr ? Attribute() : *found;
  };
  EXPECT_EQ(op.attributes.front().first, "p");
  EXPECT_EQ(attr("a").kind, Attribute::Kind::kDenseArray);
  EXPECT_TRUE(attr("a").integers.empty());
  EXPECT_EQ(attr("b").integer, 7);
  EXPECT_EQ(attr("c").integer, -3);
  EXPECT_EQ(attr("c").type.element, "i64");
  EXPECT_EQ(attr("d").kind, Attribute::Kind::kFloat);
  EXPECT_TRUE(attr("d").float_value != attr("d").float_value);  // NaN
  EXPECT_EQ(attr("e").kind, Attribute::Kind::kUnit);
  EXPECT_EQ(attr("f").string_value, "sym");
  EXPECT_EQ(attr("g").entries.at(0).second.string_value, "s\"q");
  EXPECT_EQ(attr("i").kind, Attribute::Kind::kType);
  EXPECT_EQ(attr("j").body, "HIGH");
  EXPECT_EQ(attr("k").floats, (std::vector<double>{1.5, -2}));
  EXPECT_EQ(attr("l").integer, -1);
  EXPECT_EQ(attr("m").elements.at(1).kind, Attribute::Kind::kFloat);
  EXPECT_EQ(attr("n").floats, (std::vector<double>{1.0}));
}

TEST(ParserTest, UnknownGenericOpParses) {
  Operation op = ParseOp(
      "%r:2 = \"my.op\"(%a) ({\n^bb0(%x: tensor<f32>):\n  \"my.end\"() : () "
      "-> ()\n}) {k = 1} : (tensor<f32>) -> (tensor<f32>, tensor<f32>)");
  EXPECT_EQ(op.name, "my.op");
  EXPECT_EQ(op.num_results, 2);
  ASSERT_EQ(op.regions.size(), 1u);
  EXPECT_EQ(op.regions[0].blocks.at(0).label, "bb0");
}

TEST(ParserTest, ErrorsGiveLineColumnAndTheFoundToken) {
  EXPECT_EQ(ParseError("func.func @f() {\n  %0 = stablehlo.add %a %b : "
                       "tensor<f32>\n}"),
            "2:25: found '%b', expected ':'");
  EXPECT_EQ(ParseError("func.func @f() {\n  %0 = my.op %a : tensor<f32>\n}"),
            "2:8: found unknown custom op 'my.op', expected a known op or the "
            "generic form \"my.op\"(...) : (...) -> (...)");
  EXPECT_EQ(ParseError("func.func @f() {\n  %0 = stablehlo.constant "
                       "dense<[[1, 2], [3]]> : tensor<2x2xi32>\n}"),
            "2:42: found a list of 1 elements, expected 2 like the other lists "
            "at its depth");
  EXPECT_EQ(ParseError("func.func @f() {"),
            "1:17: found end of input, expected an operation or '}'");
  EXPECT_EQ(ParseError("func.func @f() {\n  %0 = \"a.b\"() : () -> "
                       "tensor<4x>\n}"),
            "2:33: found '>', expected a type");
  EXPECT_EQ(ParseError("module {\n}\nfunc.func @g() {\n}"),
            "3:1: found 'func.func', expected end of input after the module");
  EXPECT_EQ(ParseError("func.func @f() {\n  %a, %b = stablehlo.add %x, %y : "
                       "tensor<f32>\n}"),
            "2:3: found 2 result names, expected 1 (the results of "
            "stablehlo.add)");
}

TEST(ParserTest, BytecodeIsUnimplemented) {
  absl::StatusOr<Module> module = ParseModule("ML\xefR\x01\x02");
  EXPECT_EQ(module.status().code(), absl::StatusCode::kUnimplemented);
}

TEST(ParserTest, NestingDeeperThan256IsAnError) {
  std::string deep = "func.func @f() { \"a.b\"() {x = ";
  for (int i = 0; i < 300; ++i) deep += "[";
  std::string message = ParseError(deep);
  EXPECT_NE(message.find("expected at most 256 levels of nesting"),
            std::string::npos)
      << message;
  std::string shallow = "func.func @f() { \"a.b\"() {x = ";
  for (int i = 0; i < 200; ++i) shallow += "[";
  for (int i = 0; i < 200; ++i) shallow += "]";
  shallow += "} : () -> () }";
  EXPECT_TRUE(ParseModule(shallow).ok());
}

}  // namespace
}  // namespace pjrtx::mlir
