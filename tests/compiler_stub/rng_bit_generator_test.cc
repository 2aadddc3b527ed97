// stablehlo.rng_bit_generator gives XLA:CPU's bits and new state for
// THREE_FRY, PHILOX and DEFAULT (PHILOX), u64[2] and u64[3] states, and
// outputs of every width, compiled with and without fusion and run on the
// CPU engine; bad algorithms, states and outputs are INVALID_ARGUMENT
// naming the value and what was expected.
//
// The expected values come from XLA:CPU: JAX 0.10.2's cpu backend compiling
// the same one-op program, e.g.
//
//   from jax._src import xla_bridge
//   from jax._src.lib import xla_client as xc
//   cpu = xla_bridge.get_backend('cpu')
//   exe = cpu.compile_and_load(text, xc.DeviceList(tuple(cpu.devices()[:1])),
//                              xc.CompileOptions())
//   state, bits = exe.execute([jax.device_put(np.array(s, np.uint64))])
//
// (XLA returns the unsigned bits for signed and float outputs; the values
// below for those are the same bits.)
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler_stub/compiler.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/cpu/interpreter.h"
#include "runtime/cpu/literal.h"

namespace pjrtx {
namespace {

using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

struct Outputs {
  std::vector<uint64_t> state;
  cpu::Literal bits;
};

std::string Program(const std::string& algorithm, size_t state_size,
                    const std::string& output) {
  const std::string state = absl::StrCat("tensor<", state_size, "xui64>");
  return absl::StrCat(
      "func.func @main(%s: ", state, ") -> (", state, ", ", output, ") {\n",
      "  %0:2 = stablehlo.rng_bit_generator %s, algorithm = ", algorithm,
      " : (", state, ") -> (", state, ", ", output, ")\n",
      "  func.return %0#0, %0#1 : ", state, ", ", output, "\n}\n");
}

absl::StatusOr<Outputs> Generate(const std::string& algorithm,
                                 const std::vector<uint64_t>& state,
                                 const std::string& output, bool fusion) {
  compiler::CompileOptions options;
  options.fusion = fusion;
  absl::StatusOr<ir::Program> program =
      compiler::Compile(Program(algorithm, state.size(), output), options);
  if (!program.ok()) return program.status();
  cpu::Literal initial(
      ir::Shape{ir::ElementType::kU64, {static_cast<int64_t>(state.size())}});
  std::memcpy(initial.data(), state.data(), initial.size_bytes());
  cpu::Interpreter interpreter(*program);
  absl::StatusOr<std::vector<cpu::TensorValue>> results =
      interpreter.Run({cpu::TensorValue::Tensor(std::move(initial))});
  if (!results.ok()) return results.status();
  Outputs outputs;
  const cpu::Literal& new_state = (*results)[0].tensor;
  for (int64_t i = 0; i < new_state.num_elements(); ++i) {
    outputs.state.push_back(new_state.GetUInt(i));
  }
  outputs.bits = std::move((*results)[1].tensor);
  return outputs;
}

// The output's elements as their bits, zero-extended.
std::vector<uint64_t> Bits(const cpu::Literal& literal) {
  const int width = ir::BitWidth(literal.type());
  const size_t size = ir::StorageSize(literal.type());
  std::vector<uint64_t> bits;
  for (int64_t i = 0; i < literal.num_elements(); ++i) {
    uint64_t b = 0;
    std::memcpy(&b, literal.data() + i * size, size);
    bits.push_back(width == 64 ? b : b & ((uint64_t{1} << width) - 1));
  }
  return bits;
}

struct Case {
  std::string algorithm;
  std::vector<uint64_t> state;
  std::string output;
  std::vector<uint64_t> new_state;
  std::vector<uint64_t> bits;
};

class RngBitGeneratorTest : public ::testing::TestWithParam<bool> {};

TEST_P(RngBitGeneratorTest, MatchesXlaCpu) {
  constexpr uint64_t kKey = 0x0123456789ABCDEF;
  constexpr uint64_t kCounter = 0xFEDCBA9876543210;
  const std::vector<Case> cases = {
      // No even dimension: 32-bit words pair up along the largest (5 as 3
      // pairs, the last word dropped); the counter advances by 3 x 3.
      {"THREE_FRY",
       {42, 7},
       "tensor<3x5xui32>",
       {42, 16},
       {2642642533, 3437982737, 356970675, 1736384518, 4222757798, 563344011,
        4074627445, 653491321, 3185375099, 2676170827, 1532797651, 4222029849,
        1855476965, 944181238, 1747370287}},
      {"THREE_FRY",
       {42, 7},
       "tensor<4xui64>",
       {42, 11},
       {14766023422270211685u, 7457714718447694003u, 4341426575643913126u,
        17500391620222382731u}},
      // Paired along dimension 0 (even): element (i, j) of the two words
      // of block j.
      {"THREE_FRY",
       {42, 7},
       "tensor<2x3xui8>",
       {42, 10},
       {101, 179, 166, 17, 6, 119}},
      {"THREE_FRY", {42, 7}, "tensor<ui32>", {42, 8}, {2642642533}},
      {"THREE_FRY",
       {42, 7},
       "tensor<4xf32>",
       {42, 9},
       {2642642533, 3437982737, 356970675, 1736384518}},
      // A u64[2] state's counter is (state[1], state[0]); only its low word
      // is kept.
      {"PHILOX",
       {kKey, kCounter},
       "tensor<5xui32>",
       {kKey, kCounter + 2},
       {516242754, 3483603125, 4062402306, 3877632279, 3410436889}},
      {"DEFAULT",
       {kKey, kCounter},
       "tensor<5xui32>",
       {kKey, kCounter + 2},
       {516242754, 3483603125, 4062402306, 3877632279, 3410436889}},
      {"PHILOX",
       {kKey, kCounter},
       "tensor<3xui64>",
       {kKey, kCounter + 2},
       {14961961494634642754u, 16654303828281349890u, 15457048240369115929u}},
      {"PHILOX",
       {kKey, kCounter},
       "tensor<2x3xui16>",
       {kKey, kCounter + 2},
       {15682, 37045, 22274, 63767, 8985, 30586}},
      // A u64[3] state's 128-bit counter carries into its high word.
      {"PHILOX",
       {7, 0xFFFFFFFFFFFFFFFF, 5},
       "tensor<6xui32>",
       {7, 1, 6},
       {592388033, 4281800940, 662029415, 3118642158, 2900326916, 2923260437}},
      {"PHILOX", {42, 7}, "tensor<4xi8>", {42, 8}, {232, 93, 220, 66}},
      // Nothing to generate: the state is passed on unchanged.
      {"PHILOX", {42, 7}, "tensor<3x0xui32>", {42, 7}, {}},
      {"THREE_FRY", {42, 7}, "tensor<0x3xui64>", {42, 7}, {}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(absl::StrCat(c.algorithm, " ", c.output, " from [",
                              absl::StrJoin(c.state, ", "), "]"));
    absl::StatusOr<Outputs> outputs =
        Generate(c.algorithm, c.state, c.output, GetParam());
    ASSERT_TRUE(outputs.ok()) << outputs.status();
    EXPECT_THAT(outputs->state, ElementsAreArray(c.new_state));
    EXPECT_THAT(Bits(outputs->bits), ElementsAreArray(c.bits));
  }
}

// A million words: block indices and counters far from the first ones.
TEST_P(RngBitGeneratorTest, MatchesXlaCpuForLargeOutputs) {
  struct Large {
    std::string algorithm;
    std::string output;
    uint64_t new_counter;
    std::vector<std::pair<int64_t, uint64_t>> samples;
  };
  const std::vector<Large> cases = {
      {"PHILOX",
       "tensor<1048576xui32>",
       262148,
       {{0, 3144060952},
        {1, 1693593194},
        {2, 2328100114},
        {3, 3250740911},
        {4, 514065308},
        {524287, 954335929},
        {524288, 2770692799},
        {1048575, 4200068270}}},
      {"THREE_FRY",
       "tensor<1024x1024xui32>",
       524292,
       {{0, 555017538},
        {1, 1109507171},
        {2, 3802093305},
        {3, 849634428},
        {4, 4095841382},
        {524287, 2909546874},
        {524288, 935595024},
        {1048575, 2071473112}}},
  };
  for (const Large& c : cases) {
    SCOPED_TRACE(c.algorithm);
    absl::StatusOr<Outputs> outputs =
        Generate(c.algorithm, {3, 4}, c.output, GetParam());
    ASSERT_TRUE(outputs.ok()) << outputs.status();
    EXPECT_THAT(outputs->state, ElementsAreArray({uint64_t{3}, c.new_counter}));
    for (const auto& [index, value] : c.samples) {
      EXPECT_EQ(outputs->bits.GetUInt(index), value) << "element " << index;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fusion, RngBitGeneratorTest, ::testing::Bool());

absl::Status CompileError(const std::string& text) {
  return compiler::Compile(text, {}).status();
}

TEST(RngBitGeneratorErrorsTest, BadStatesAndOutputsAreInvalidArguments) {
  struct Bad {
    std::string text;
    std::string message;
  };
  const std::vector<Bad> cases = {
      {Program("THREE_FRY", 3, "tensor<4xui32>"),
       "THREE_FRY takes an initial_state of 2 ui64 (key, counter), got "
       "tensor<3xui64>"},
      {Program("PHILOX", 4, "tensor<4xui32>"),
       "PHILOX takes an initial_state of 2 ui64 (key, counter) or 3 (key, "
       "counter low, counter high), got tensor<4xui64>"},
      {Program("DEFAULT", 1, "tensor<4xui32>"),
       "DEFAULT (PHILOX here, as on XLA:CPU) takes an initial_state of 2"},
      {Program("PHILOX", 2, "tensor<4xi1>"),
       "output must be of an integer or floating-point type, got "
       "tensor<4xi1>"},
      {R"(
func.func @main(%s: tensor<4xui32>) -> (tensor<4xui32>, tensor<4xui32>) {
  %0:2 = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<4xui32>) -> (tensor<4xui32>, tensor<4xui32>)
  func.return %0#0, %0#1 : tensor<4xui32>, tensor<4xui32>
})",
       "initial_state must be a 1-dimensional tensor of ui64, got "
       "tensor<4xui32>"},
      {R"(
func.func @main(%s: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0:2 = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  func.return %0#0, %0#1 : tensor<f32>, tensor<f32>
})",
       "initial_state must be a 1-dimensional tensor of ui64, got "
       "tensor<f32>"},
      {R"(
func.func @main(%s: tensor<2xui64>) -> (tensor<3xui64>, tensor<4xui32>) {
  %0:2 = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  func.return %0#0, %0#1 : tensor<3xui64>, tensor<4xui32>
})",
       "result type tensor<3xui64> should be tensor<2xui64>"},
      {R"(
func.func @main(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>) {
  %0:2 = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm MERSENNE>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  func.return %0#0, %0#1 : tensor<2xui64>, tensor<4xui32>
})",
       "rng_algorithm MERSENNE is not one of DEFAULT, THREE_FRY, PHILOX"},
  };
  for (const Bad& c : cases) {
    const absl::Status status = CompileError(c.text);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
    EXPECT_THAT(status.message(), HasSubstr("stablehlo.rng_bit_generator: "))
        << c.text;
    EXPECT_THAT(status.message(), HasSubstr(c.message));
  }
}

}  // namespace
}  // namespace pjrtx
