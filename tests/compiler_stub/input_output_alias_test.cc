// Donation declarations of the entry's arguments (tf.aliasing_output,
// jax.buffer_donor): what the compiled program records, and the errors for
// declarations no run could honour.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler_stub/compiler.h"
#include "compiler_stub/ir/program.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pjrtx {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

absl::StatusOr<ir::Program> CompileText(const std::string& text) {
  return compiler::Compile(text, compiler::CompileOptions());
}

TEST(InputOutputAliasTest, RecordsEachArgumentsDeclaration) {
  absl::StatusOr<ir::Program> program = CompileText(R"(
func.func @main(%a: tensor<4xf32> {tf.aliasing_output = 1 : i32},
                %b: tensor<4xf32> {jax.buffer_donor = true},
                %c: tensor<4xf32> {jax.buffer_donor = false},
                %d: tensor<2xi32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %s = stablehlo.add %a, %b : tensor<4xf32>
  %p = stablehlo.multiply %a, %c : tensor<4xf32>
  func.return %s, %p : tensor<4xf32>, tensor<4xf32>
}
)");
  ASSERT_TRUE(program.ok()) << program.status();
  // %b, a donor, takes result 0: result 1 is %a's.
  EXPECT_THAT(program->parameter_aliases,
              ElementsAre(1, 0, ir::kNotDonated, ir::kNotDonated));
}

TEST(InputOutputAliasTest, ADonorNoResultCanUseIsNotDonated) {
  absl::StatusOr<ir::Program> program = CompileText(R"(
func.func @main(%a: tensor<4xf32> {jax.buffer_donor = true},
                %b: tensor<4xf64> {jax.buffer_donor = true},
                %c: tensor<4xf64> {jax.buffer_donor = true})
    -> tensor<4xf64> {
  %x = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xf64>
  %s = stablehlo.add %x, %b : tensor<4xf64>
  %t = stablehlo.add %s, %c : tensor<4xf64>
  func.return %t : tensor<4xf64>
}
)");
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_THAT(program->parameter_aliases,
              ElementsAre(ir::kNotDonated, 0, ir::kNotDonated));
}

TEST(InputOutputAliasTest, DeclarationsNoRunCouldHonourAreRejected) {
  struct Case {
    std::string arguments;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"%a: tensor<4xf32> {tf.aliasing_output = 2 : i32}",
       "tf.aliasing_output = 2 names no result; @main has 1"},
      {"%a: tensor<4xf32> {tf.aliasing_output = -1 : i32}",
       "tf.aliasing_output = -1 names no result"},
      {"%a: tensor<4xf32> {tf.aliasing_output = \"x\"}",
       "tf.aliasing_output must be an integer result index"},
      {"%a: tensor<4xf32> {jax.buffer_donor = 1 : i32}",
       "jax.buffer_donor must be a boolean"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.arguments);
    absl::StatusOr<ir::Program> program =
        CompileText("func.func @main(" + c.arguments +
                    ") -> tensor<4xf32> {\n"
                    "  func.return %a : tensor<4xf32>\n}\n");
    ASSERT_FALSE(program.ok());
    EXPECT_EQ(program.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(program.status().message(), HasSubstr("argument 0 of @main"));
    EXPECT_THAT(program.status().message(), HasSubstr(c.message));
  }
}

TEST(InputOutputAliasTest, AnAliasMustMatchItsResultsTypeAndBeUnique) {
  absl::StatusOr<ir::Program> mismatched = CompileText(R"(
func.func @main(%a: tensor<4xf32> {tf.aliasing_output = 0 : i32})
    -> tensor<4xi32> {
  %r = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>
  func.return %r : tensor<4xi32>
}
)");
  ASSERT_FALSE(mismatched.ok());
  EXPECT_THAT(std::string(mismatched.status().message()),
              HasSubstr("argument 0 of @main is tensor<4xf32> but the result "
                        "it aliases (tf.aliasing_output = 0) is "
                        "tensor<4xsi32>"));

  absl::StatusOr<ir::Program> twice = CompileText(R"(
func.func @main(%a: tensor<4xf32> {tf.aliasing_output = 0 : i32},
                %b: tensor<4xf32> {tf.aliasing_output = 0 : i32})
    -> tensor<4xf32> {
  %s = stablehlo.add %a, %b : tensor<4xf32>
  func.return %s : tensor<4xf32>
}
)");
  ASSERT_FALSE(twice.ok());
  EXPECT_THAT(twice.status().message(),
              HasSubstr("argument 1 of @main: result 0 is already aliased"));
}

}  // namespace
}  // namespace pjrtx
