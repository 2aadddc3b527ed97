// Forms JAX's `Lowered.as_text()` prints that the text parser must read as
// the bytecode reader reads the same program's portable artifact: Shardy's
// module-level meshes, and StableHLO struct attributes whose zero integer
// fields the printer leaves out (tests/python/jax/test_text_path.py runs
// whole JAX programs this way).
#include <string>
#include <string_view>

#include "compiler_stub/mlir/parser.h"
#include "gtest/gtest.h"

namespace pjrtx::mlir {
namespace {

const Attribute* FindNamed(
    const std::vector<std::pair<std::string, Attribute>>& list,
    std::string_view name) {
  for (const auto& [key, value] : list) {
    if (key == name) return &value;
  }
  return nullptr;
}

int CountNamed(const std::vector<std::pair<std::string, Attribute>>& list,
               std::string_view name) {
  int count = 0;
  for (const auto& [key, value] : list) count += key == name;
  return count;
}

// As `jax.jit(f).lower(x).as_text(debug_info=True)` prints it for an
// argument placed on a device (abridged).
constexpr std::string_view kPlacedArguments = R"mlir(#loc = loc(unknown)
#loc1 = loc("x")
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @empty_mesh = <[]> {stablehlo.mesh = {axes = []}} loc(#loc)
  sdy.mesh @mesh = <["x"=2, "y"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]> loc(#loc)
  func.func public @main(%arg0: tensor<3x4xf32> {sdy.sharding = #sdy.sharding<@empty_mesh, [{}, {}]>} loc("x")) -> (tensor<3x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.sine %arg0 : tensor<3x4xf32> loc(#loc2)
    return %0 : tensor<3x4xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc2 = loc("jit(f)/sin"(#loc1))
)mlir";

TEST(JaxPrintedFormsTest, ModuleLevelMeshesAreDroppedAsTheBytecodeReaderDoes) {
  absl::StatusOr<Module> module = ParseModule(kPlacedArguments);
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_TRUE(module->other_operations.empty());
  ASSERT_EQ(module->functions.size(), 1u);
  const FunctionArgument& argument = module->functions[0].arguments.at(0);
  const Attribute* sharding = FindNamed(argument.attributes, "sdy.sharding");
  ASSERT_NE(sharding, nullptr);
  EXPECT_EQ(sharding->kind, Attribute::Kind::kDialect);
  EXPECT_EQ(sharding->dialect, "sdy");
  EXPECT_EQ(sharding->mnemonic, "sharding");
  EXPECT_EQ(module->functions[0].body.blocks.at(0).operations.size(), 2u);
}

TEST(JaxPrintedFormsTest, MeshesOutsideAModuleAreDroppedToo) {
  absl::StatusOr<Module> module = ParseModule(
      "sdy.mesh @mesh = #sdy.mesh<[\"x\"=8]>\n"
      "func.func @main() {\n  return\n}\n");
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_TRUE(module->other_operations.empty());
  EXPECT_EQ(module->functions.size(), 1u);
}

TEST(JaxPrintedFormsTest, OtherModuleLevelOpsAreKeptForTheVerifier) {
  absl::StatusOr<Module> module = ParseModule(
      "module {\n  \"foo.bar\"() : () -> ()\n"
      "  func.func @main() {\n    return\n  }\n}\n");
  ASSERT_TRUE(module.ok()) << module.status();
  ASSERT_EQ(module->other_operations.size(), 1u);
  EXPECT_EQ(module->other_operations[0].name, "foo.bar");
}

TEST(JaxPrintedFormsTest, MalformedMeshesAreErrorsWithTheirPosition) {
  absl::StatusOr<Module> unnamed =
      ParseModule("module {\n  sdy.mesh = <[]>\n}\n");
  ASSERT_FALSE(unnamed.ok());
  EXPECT_EQ(unnamed.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(unnamed.status().message()).substr(0, 4), "2:12")
      << unnamed.status();

  absl::StatusOr<Module> unclosed =
      ParseModule("module {\n  sdy.mesh @m = <[\"x\"=2>\n}\n");
  ASSERT_FALSE(unclosed.ok());
  EXPECT_EQ(unclosed.status().code(), absl::StatusCode::kInvalidArgument);
}

// Parses `op` as the one op of a function and returns its attribute `name`.
Attribute ParseOpAttribute(std::string_view op, std::string_view name) {
  absl::StatusOr<Module> module =
      ParseModule("func.func @f() {\n" + std::string(op) + "\n}");
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return Attribute();
  const Operation& parsed =
      module->functions.at(0).body.blocks.at(0).operations.at(0);
  const Attribute* attribute = FindNamed(parsed.attributes, name);
  EXPECT_NE(attribute, nullptr) << name;
  return attribute == nullptr ? Attribute() : *attribute;
}

// A point gather, indices tensor<2xi32> holding one index vector: its
// index_vector_dim is 0, which StableHLO's printer leaves out.
constexpr std::string_view kPointGather =
    "%r = \"stablehlo.gather\"(%x, %i) <{dimension_numbers = "
    "#stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = "
    "[0, 1]>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> "
    ": (tensor<3x4xf32>, tensor<2xi32>) -> tensor<f32>";

TEST(JaxPrintedFormsTest, AnOmittedIndexVectorDimIsZero) {
  const Attribute gather = ParseOpAttribute(kPointGather, "dimension_numbers");
  const Attribute* dim = FindNamed(gather.entries, "index_vector_dim");
  ASSERT_NE(dim, nullptr);
  EXPECT_EQ(dim->kind, Attribute::Kind::kInteger);
  EXPECT_EQ(dim->integer, 0);  // Not the rank of the indices (1).
  EXPECT_EQ(dim->type.element, "i64");
  EXPECT_EQ(dim->location.line, 2);  // The attribute's.
  // Omitted lists stay omitted (read as empty), as in artifacts.
  EXPECT_EQ(FindNamed(gather.entries, "offset_dims"), nullptr);

  // x.at[s].mul(3.0) for a traced scalar s, as JAX prints it.
  const Attribute scatter = ParseOpAttribute(
      "%r = \"stablehlo.scatter\"(%x, %i, %u) <{indices_are_sorted = true, "
      "scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = "
      "[0], inserted_window_dims = [0], scatter_dims_to_operand_dims = "
      "[0]>, unique_indices = true}> ({\n"
      "^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "  %m = stablehlo.multiply %a, %b : tensor<f32>\n"
      "  stablehlo.return %m : tensor<f32>\n"
      "}) : (tensor<3x4xf32>, tensor<1xi32>, tensor<4xf32>) -> "
      "tensor<3x4xf32>",
      "scatter_dimension_numbers");
  const Attribute* scatter_dim = FindNamed(scatter.entries, "index_vector_dim");
  ASSERT_NE(scatter_dim, nullptr);
  EXPECT_EQ(scatter_dim->integer, 0);
}

TEST(JaxPrintedFormsTest, AWrittenIndexVectorDimIsKeptOnce) {
  const Attribute gather = ParseOpAttribute(
      "%r = \"stablehlo.gather\"(%x, %i) <{dimension_numbers = "
      "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], "
      "start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = "
      "false, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, "
      "tensor<2x1xi32>) -> tensor<2x4xf32>",
      "dimension_numbers");
  EXPECT_EQ(CountNamed(gather.entries, "index_vector_dim"), 1);
  EXPECT_EQ(FindNamed(gather.entries, "index_vector_dim")->integer, 1);
}

TEST(JaxPrintedFormsTest, StructsWithoutIntegerFieldsGetNone) {
  const Attribute dot = ParseOpAttribute(
      "%r = \"stablehlo.dot_general\"(%a, %b) <{dot_dimension_numbers = "
      "#stablehlo.dot<lhs_contracting_dimensions = [1], "
      "rhs_contracting_dimensions = [0]>}> : (tensor<2x3xf32>, "
      "tensor<3x4xf32>) -> tensor<2x4xf32>",
      "dot_dimension_numbers");
  EXPECT_EQ(dot.entries.size(), 2u);
}

}  // namespace
}  // namespace pjrtx::mlir
