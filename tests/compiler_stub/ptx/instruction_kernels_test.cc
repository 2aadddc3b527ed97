// The single-instruction kernels (instruction_kernels.h) on real programs:
// each StableHLO program goes through the compiler, the kernel of its one
// instruction of interest is emitted for sm_80 and sm_90, run in the PTX
// interpreter of the fake CUDA driver over random inputs, and compared
// element by element with the CPU reference (runtime/cpu) on the same
// inputs. ptxas, where installed, assembles every kernel.
#include "compiler_stub/ptx/instruction_kernels.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "compiler_stub/compiler.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/cpu/interpreter.h"
#include "runtime/cpu/kernels.h"
#include "runtime/cpu/literal.h"
#include "tests/compiler_stub/ptx/ptxas_runner.h"
#include "tests/plugins/cuda/ptx_interpreter/ptx_interpreter.h"
#include "tests/plugins/cuda/ptx_interpreter/test_device_memory.h"

namespace pjrtx::ptx {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;

using Bytes = std::vector<uint8_t>;

using DeviceMemory = fake_cuda::TestDeviceMemory;

Bytes U64Param(uint64_t value) {
  Bytes bytes(8);
  std::memcpy(bytes.data(), &value, 8);
  return bytes;
}

std::string Substitute(const std::string& text, const std::string& type) {
  return absl::StrReplaceAll(text, {{"$T", type}});
}

// Random elements of every type, in range for it. Floats spread over many
// binades, so that sums in another order round differently; with
// `specials`, some are NaN, infinities or zeros of either sign.
void Fill(cpu::Literal& literal, std::mt19937& rng, bool specials) {
  const ir::ElementType type = literal.type();
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-6, 6);
  std::uniform_int_distribution<int64_t> integer(-1000, 1000);
  std::uniform_int_distribution<int> special(0, 15);
  const double kSpecials[] = {std::nan(""), INFINITY, -INFINITY, 0.0, -0.0};
  for (int64_t i = 0; i < literal.num_elements(); ++i) {
    if (type == ir::ElementType::kPred) {
      literal.SetInt(i, integer(rng) & 1);
    } else if (ir::IsFloat(type)) {
      const int pick = special(rng);
      literal.SetFloat(i, specials && pick < 5
                              ? kSpecials[pick]
                              : std::ldexp(unit(rng), exponent(rng)));
    } else {
      literal.SetInt(i, integer(rng));
    }
  }
}

// Same element: both NaN, or the same bytes (so -0 differs from +0).
bool SameElement(const cpu::Literal& a, const cpu::Literal& b, int64_t i) {
  const size_t size = ir::StorageSize(a.type());
  if (std::memcmp(a.data() + i * size, b.data() + i * size, size) == 0) {
    return true;
  }
  return ir::IsFloat(a.type()) && std::isnan(a.GetFloat(i)) &&
         std::isnan(b.GetFloat(i));
}

struct Emitted {
  ir::Program program;
  int instruction = -1;  // Index in the entry computation.
};

// With `fuse` false, elementwise ops stay as they are, as fusion leaves
// a lone op in a region.
std::optional<Emitted> Compile(const std::string& text, ir::OpCode opcode,
                               bool fuse = true) {
  compiler::CompileOptions options;
  options.fusion = fuse;
  absl::StatusOr<ir::Program> program = compiler::Compile(text, options);
  if (!program.ok()) {
    ADD_FAILURE() << program.status() << "\n" << text;
    return std::nullopt;
  }
  const ir::Computation& entry = program->computations[program->entry];
  for (size_t i = 0; i < entry.instructions.size(); ++i) {
    if (entry.instructions[i].opcode == opcode) {
      return Emitted{*std::move(program), static_cast<int>(i)};
    }
  }
  ADD_FAILURE() << "no instruction of the opcode in\n" << text;
  return std::nullopt;
}

// Runs `kernel` in the PTX interpreter with `grid` x `block` threads;
// inputs are entry parameters, whose values `arguments` holds. Returns the
// bytes of its one output.
std::optional<std::vector<Bytes>> RunKernel(
    const InstructionKernel& kernel, const ir::Computation& entry,
    const std::vector<cpu::Literal>& arguments,
    const std::vector<ir::Shape>& outputs, unsigned grid, unsigned block) {
  std::string error;
  std::unique_ptr<fake_cuda::PtxModule> module =
      fake_cuda::PtxModule::Parse(kernel.ptx, &error);
  if (module == nullptr) {
    ADD_FAILURE() << error << "\n" << kernel.ptx;
    return std::nullopt;
  }
  const fake_cuda::PtxKernel* entry_point = module->Find(kernel.name);
  if (entry_point == nullptr) {
    ADD_FAILURE() << "no kernel " << kernel.name;
    return std::nullopt;
  }
  DeviceMemory memory;
  std::vector<Bytes> params;
  for (int value : kernel.inputs) {
    int parameter = -1;
    for (size_t p = 0; p < entry.parameters.size(); ++p) {
      if (entry.parameters[p] == value) parameter = static_cast<int>(p);
    }
    if (parameter < 0) {
      ADD_FAILURE() << "kernel input " << value << " is not a parameter";
      return std::nullopt;
    }
    const cpu::Literal& argument = arguments[parameter];
    const uint64_t address = memory.Allocate(argument.size_bytes());
    memory.Write(address, argument.data(), argument.size_bytes());
    params.push_back(U64Param(address));
  }
  std::vector<uint64_t> out;
  for (const ir::Shape& output : outputs) {
    out.push_back(memory.Allocate(output.size_bytes()));
    params.push_back(U64Param(out.back()));
  }
  params.push_back(U64Param(kernel.threads));
  if (entry_point->param_sizes() != std::vector<size_t>(params.size(), 8)) {
    ADD_FAILURE() << "unexpected parameters\n" << kernel.ptx;
    return std::nullopt;
  }
  if (!entry_point->Run({grid, 1, 1}, {block, 1, 1}, params,
                        memory.Translator(), &error)) {
    ADD_FAILURE() << error << "\n" << kernel.ptx;
    return std::nullopt;
  }
  std::vector<Bytes> results;
  for (size_t i = 0; i < outputs.size(); ++i) {
    results.push_back(memory.Read(out[i], outputs[i].size_bytes()));
  }
  return results;
}

enum class Reference {
  kInterpreter,  // The CPU interpreter runs the program.
  kDotKernel,    // cpu::DotGeneral, the reference kernel (not oneDNN).
};

// The program's results on `arguments`, as the CPU computes them.
std::optional<std::vector<cpu::Literal>> CpuResults(
    const Emitted& emitted, const std::vector<cpu::Literal>& args,
    Reference reference) {
  const ir::Computation& entry =
      emitted.program.computations[emitted.program.entry];
  const ir::Instruction& instruction = entry.instructions[emitted.instruction];
  if (reference == Reference::kDotKernel) {
    return std::vector<cpu::Literal>{
        cpu::DotGeneral(args[0], args[1], instruction.attributes.dot,
                        instruction.result_types[0].shape)};
  }
  cpu::Interpreter interpreter(emitted.program);
  std::vector<cpu::TensorValue> values;
  for (const cpu::Literal& arg : args)
    values.push_back(cpu::TensorValue::Tensor(arg));
  absl::StatusOr<std::vector<cpu::TensorValue>> results =
      interpreter.Run(std::move(values));
  if (!results.ok()) {
    ADD_FAILURE() << results.status();
    return std::nullopt;
  }
  std::vector<cpu::Literal> tensors;
  for (const cpu::TensorValue& value : *results)
    tensors.push_back(value.tensor);
  return tensors;
}

// Emits the kernel of the first `opcode` instruction of `text` for sm_80
// and sm_90 and checks it against the CPU on random inputs: the kernel's
// interface, its output bytes under two launch geometries, and that ptxas
// assembles it.
void Check(const std::string& text, ir::OpCode opcode,
           Reference reference = Reference::kInterpreter, bool specials = true,
           bool fuse = true) {
  SCOPED_TRACE(text);
  std::optional<Emitted> emitted = Compile(text, opcode, fuse);
  if (!emitted) return;
  const ir::Computation& entry =
      emitted->program.computations[emitted->program.entry];
  const ir::Instruction& instruction = entry.instructions[emitted->instruction];
  ASSERT_EQ(entry.results, instruction.results)
      << "the instruction must compute the program's results";
  std::mt19937 rng(static_cast<uint32_t>(std::hash<std::string>()(text)));
  std::vector<cpu::Literal> arguments;
  for (const ir::ValueType& type : entry.parameter_types) {
    arguments.emplace_back(type.shape);
    Fill(arguments.back(), rng, specials);
  }
  std::optional<std::vector<cpu::Literal>> expected =
      CpuResults(*emitted, arguments, reference);
  if (!expected) return;
  std::vector<ir::Shape> shapes;
  for (const ir::ValueType& type : instruction.result_types) {
    shapes.push_back(type.shape);
  }
  const std::string ptxas = testing::FindPtxas();
  for (int sm : {80, 90}) {
    SCOPED_TRACE(absl::StrCat("sm_", sm));
    absl::StatusOr<InstructionKernel> kernel = EmitInstructionKernel(
        emitted->program, entry, instruction, "single_op", {sm});
    ASSERT_TRUE(kernel.ok()) << kernel.status();
    EXPECT_EQ(kernel->name, "single_op");
    EXPECT_EQ(kernel->inputs, instruction.operands);
    EXPECT_EQ(kernel->outputs, instruction.results);
    EXPECT_EQ(kernel->threads, static_cast<uint64_t>(shapes[0].num_elements()));
    EXPECT_THAT(kernel->ptx, HasSubstr(absl::StrCat(".target sm_", sm)));
    if (!ptxas.empty()) {
      const testing::PtxasResult assembled =
          testing::Assemble(ptxas, kernel->ptx, sm);
      EXPECT_EQ(assembled.exit_code, 0) << assembled.log << "\n" << kernel->ptx;
    }
    // One thread doing every element, and more threads than elements.
    for (auto [grid, block] : {std::pair<unsigned, unsigned>{1, 1}, {3, 32}}) {
      std::optional<std::vector<Bytes>> bytes =
          RunKernel(*kernel, entry, arguments, shapes, grid, block);
      if (!bytes) return;
      for (size_t r = 0; r < shapes.size(); ++r) {
        const ir::Shape& shape = shapes[r];
        cpu::Literal actual(shape);
        if (!(*bytes)[r].empty()) {
          std::memcpy(actual.data(), (*bytes)[r].data(), (*bytes)[r].size());
        }
        int mismatches = 0;
        for (int64_t i = 0; i < shape.num_elements() && mismatches < 5; ++i) {
          if (SameElement(actual, (*expected)[r], i)) continue;
          ++mismatches;
          ADD_FAILURE() << "result " << r << ", element " << i << " of "
                        << shape.ToString() << ": kernel " << actual.GetFloat(i)
                        << ", CPU " << (*expected)[r].GetFloat(i) << " (grid "
                        << grid << " x " << block << ")\n"
                        << (mismatches == 1 ? kernel->ptx : "");
        }
      }
    }
  }
}

// Every element type, for the moves (which copy storage bytes).
const char* const kAllTypes[] = {
    "f32", "f16", "bf16", "f64",  "i1",  "i2",       "i4",     "ui4",
    "i8",  "ui8", "i16",  "ui32", "i64", "f8E4M3FN", "f8E5M2",
};
// The types the kernels compute on.
const char* const kArithmeticTypes[] = {
    "f32", "f16", "bf16", "f64",  "i4",  "ui2",  "i8",
    "ui8", "i16", "i32",  "ui32", "i64", "ui64",
};

TEST(InstructionKernelsTest, BroadcastInDim) {
  for (const char* type : kAllTypes) {
    Check(Substitute(R"(
func.func @main(%x: tensor<3x1x$T>) -> tensor<2x3x4x$T> {
  %0 = stablehlo.broadcast_in_dim %x, dims = [1, 2] : (tensor<3x1x$T>) -> tensor<2x3x4x$T>
  func.return %0 : tensor<2x3x4x$T>
})",
                     type),
          ir::OpCode::kBroadcastInDim);
  }
  // Scalars, and a permuting broadcast.
  Check(R"(
func.func @main(%x: tensor<f32>) -> tensor<5x3xf32> {
  %0 = stablehlo.broadcast_in_dim %x, dims = [] : (tensor<f32>) -> tensor<5x3xf32>
  func.return %0 : tensor<5x3xf32>
})",
        ir::OpCode::kBroadcastInDim);
  Check(R"(
func.func @main(%x: tensor<4x3xi16>) -> tensor<3x2x4xi16> {
  %0 = stablehlo.broadcast_in_dim %x, dims = [2, 0] : (tensor<4x3xi16>) -> tensor<3x2x4xi16>
  func.return %0 : tensor<3x2x4xi16>
})",
        ir::OpCode::kBroadcastInDim);
}

TEST(InstructionKernelsTest, Transpose) {
  for (const char* type : kAllTypes) {
    Check(Substitute(R"(
func.func @main(%x: tensor<2x3x4x$T>) -> tensor<4x2x3x$T> {
  %0 = stablehlo.transpose %x, dims = [2, 0, 1] : (tensor<2x3x4x$T>) -> tensor<4x2x3x$T>
  func.return %0 : tensor<4x2x3x$T>
})",
                     type),
          ir::OpCode::kTranspose);
  }
  Check(R"(
func.func @main(%x: tensor<3x1x2x5xf64>) -> tensor<5x2x1x3xf64> {
  %0 = stablehlo.transpose %x, dims = [3, 2, 1, 0] : (tensor<3x1x2x5xf64>) -> tensor<5x2x1x3xf64>
  func.return %0 : tensor<5x2x1x3xf64>
})",
        ir::OpCode::kTranspose);
}

TEST(InstructionKernelsTest, Reshape) {
  for (const char* type : {"f32", "bf16", "i1", "i4", "f64"}) {
    Check(Substitute(R"(
func.func @main(%x: tensor<2x3x4x$T>) -> tensor<6x4x$T> {
  %0 = stablehlo.reshape %x : (tensor<2x3x4x$T>) -> tensor<6x4x$T>
  func.return %0 : tensor<6x4x$T>
})",
                     type),
          ir::OpCode::kReshape);
  }
}

TEST(InstructionKernelsTest, Slice) {
  for (const char* type : kAllTypes) {
    Check(Substitute(R"(
func.func @main(%x: tensor<5x7x$T>) -> tensor<2x2x$T> {
  %0 = "stablehlo.slice"(%x) {start_indices = array<i64: 1, 2>, limit_indices = array<i64: 5, 7>, strides = array<i64: 2, 3>} : (tensor<5x7x$T>) -> tensor<2x2x$T>
  func.return %0 : tensor<2x2x$T>
})",
                     type),
          ir::OpCode::kSlice);
  }
  Check(R"(
func.func @main(%x: tensor<4x6x5xf32>) -> tensor<3x2x1xf32> {
  %0 = "stablehlo.slice"(%x) {start_indices = array<i64: 1, 0, 4>, limit_indices = array<i64: 4, 6, 5>, strides = array<i64: 1, 4, 1>} : (tensor<4x6x5xf32>) -> tensor<3x2x1xf32>
  func.return %0 : tensor<3x2x1xf32>
})",
        ir::OpCode::kSlice);
}

TEST(InstructionKernelsTest, Concatenate) {
  for (const char* type : kAllTypes) {
    Check(Substitute(R"(
func.func @main(%a: tensor<2x3x$T>, %b: tensor<2x0x$T>, %c: tensor<2x4x$T>, %d: tensor<2x1x$T>) -> tensor<2x8x$T> {
  %0 = stablehlo.concatenate %a, %b, %c, %d, dim = 1 : (tensor<2x3x$T>, tensor<2x0x$T>, tensor<2x4x$T>, tensor<2x1x$T>) -> tensor<2x8x$T>
  func.return %0 : tensor<2x8x$T>
})",
                     type),
          ir::OpCode::kConcatenate);
  }
  Check(R"(
func.func @main(%a: tensor<1x3xf32>, %b: tensor<3x3xf32>) -> tensor<4x3xf32> {
  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<1x3xf32>, tensor<3x3xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
})",
        ir::OpCode::kConcatenate);
}

TEST(InstructionKernelsTest, Pad) {
  for (const char* type : kAllTypes) {
    // Interior padding, and negative edges that cut into the operand.
    Check(Substitute(R"(
func.func @main(%x: tensor<3x4x$T>, %v: tensor<$T>) -> tensor<8x8x$T> {
  %0 = stablehlo.pad %x, %v, low = [1, -1], high = [2, -1], interior = [1, 2] : (tensor<3x4x$T>, tensor<$T>) -> tensor<8x8x$T>
  func.return %0 : tensor<8x8x$T>
})",
                     type),
          ir::OpCode::kPad);
  }
  Check(R"(
func.func @main(%x: tensor<2x5x3xf32>, %v: tensor<f32>) -> tensor<3x1x5xf32> {
  %0 = stablehlo.pad %x, %v, low = [0, -3, 2], high = [1, -1, 0], interior = [0, 0, 0] : (tensor<2x5x3xf32>, tensor<f32>) -> tensor<3x1x5xf32>
  func.return %0 : tensor<3x1x5xf32>
})",
        ir::OpCode::kPad);
  // Nothing of the operand is left.
  Check(R"(
func.func @main(%x: tensor<2x0xi8>, %v: tensor<i8>) -> tensor<3x4xi8> {
  %0 = stablehlo.pad %x, %v, low = [1, 2], high = [0, 2], interior = [0, 0] : (tensor<2x0xi8>, tensor<i8>) -> tensor<3x4xi8>
  func.return %0 : tensor<3x4xi8>
})",
        ir::OpCode::kPad);
}

TEST(InstructionKernelsTest, Reverse) {
  for (const char* type : kAllTypes) {
    Check(Substitute(R"(
func.func @main(%x: tensor<3x4x5x$T>) -> tensor<3x4x5x$T> {
  %0 = stablehlo.reverse %x, dims = [0, 2] : tensor<3x4x5x$T>
  func.return %0 : tensor<3x4x5x$T>
})",
                     type),
          ir::OpCode::kReverse);
  }
}

TEST(InstructionKernelsTest, Iota) {
  for (const char* type : {"f32", "f16", "bf16", "f64", "i1", "i2", "i4", "ui4",
                           "i8", "ui8", "i16", "ui32", "i64", "ui64"}) {
    Check(Substitute(R"(
func.func @main() -> tensor<4x300x$T> {
  %0 = stablehlo.iota dim = 1 : tensor<4x300x$T>
  func.return %0 : tensor<4x300x$T>
})",
                     type),
          ir::OpCode::kIota);
  }
  Check(R"(
func.func @main() -> tensor<5x1x2xi32> {
  %0 = stablehlo.iota dim = 0 : tensor<5x1x2xi32>
  func.return %0 : tensor<5x1x2xi32>
})",
        ir::OpCode::kIota);
}

TEST(InstructionKernelsTest, BitcastConvert) {
  // Bits of i1 join into and split out of wider elements (whole-byte types
  // are aliased by the CUDA planner, but the kernel serves them too).
  for (const auto& [from, to] :
       std::vector<std::pair<std::string, std::string>>{{"64xi1", "i64"},
                                                        {"8x32xi1", "8xui32"},
                                                        {"i16", "16xi1"},
                                                        {"3xf64", "3x64xi1"},
                                                        {"6xf32", "6xi32"},
                                                        {"4xi64", "4x2xf32"},
                                                        {"4x2xui16", "4xf32"},
                                                        {"5xbf16", "5xf16"}}) {
    Check(absl::StrReplaceAll(R"(
func.func @main(%x: tensor<$F>) -> tensor<$R> {
  %0 = stablehlo.bitcast_convert %x : (tensor<$F>) -> tensor<$R>
  func.return %0 : tensor<$R>
})",
                              {{"$F", from}, {"$R", to}}),
          ir::OpCode::kBitcastConvert);
  }
}

TEST(InstructionKernelsTest, ReducePrecision) {
  // Mantissa rounding, exponent overflow and underflow, NaN: random
  // values with specials, against the CPU, for every float type and
  // formats narrower in either field.
  for (const char* type : {"f32", "f16", "bf16", "f64"}) {
    for (const auto& [exponent, mantissa] : std::vector<std::pair<int, int>>{
             {5, 10}, {8, 7}, {4, 3}, {2, 0}, {11, 52}, {5, 2}}) {
      Check(absl::StrReplaceAll(R"(
func.func @main(%x: tensor<300x$T>) -> tensor<300x$T> {
  %0 = stablehlo.reduce_precision %x, format = e$Em$M : tensor<300x$T>
  func.return %0 : tensor<300x$T>
})",
                                {{"$T", type},
                                 {"$E", std::to_string(exponent)},
                                 {"$M", std::to_string(mantissa)}}),
            ir::OpCode::kReducePrecision);
    }
  }
}

TEST(InstructionKernelsTest, GatherClampsItsStarts) {
  // Random start indices (negative, in range, past the end) of several
  // types; the index vector last, first, and implicit; with batching
  // dimensions.
  for (const char* index : {"i32", "ui8", "i64"}) {
    for (const char* type : {"f32", "i1", "bf16", "i64"}) {
      Check(absl::StrReplaceAll(R"(
func.func @main(%x: tensor<30x40x20x$T>, %i: tensor<2x3x2x$I>) -> tensor<2x3x2x5x$T> {
  %0 = "stablehlo.gather"(%x, %i) {
    dimension_numbers = #stablehlo.gather<
      offset_dims = [2, 3],
      collapsed_slice_dims = [0],
      start_index_map = [1, 0],
      index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 2, 5>,
    indices_are_sorted = false
  } : (tensor<30x40x20x$T>, tensor<2x3x2x$I>) -> tensor<2x3x2x5x$T>
  func.return %0 : tensor<2x3x2x5x$T>
})",
                                {{"$T", type}, {"$I", index}}),
            ir::OpCode::kGather);
    }
  }
  Check(R"(
func.func @main(%x: tensor<200x7xf32>, %i: tensor<2x5xi32>) -> tensor<5x3xf32> {
  %0 = "stablehlo.gather"(%x, %i) {
    dimension_numbers = #stablehlo.gather<
      offset_dims = [1],
      collapsed_slice_dims = [0],
      start_index_map = [0, 1],
      index_vector_dim = 0>,
    slice_sizes = array<i64: 1, 3>,
    indices_are_sorted = false
  } : (tensor<200x7xf32>, tensor<2x5xi32>) -> tensor<5x3xf32>
  func.return %0 : tensor<5x3xf32>
})",
        ir::OpCode::kGather);
  Check(R"(
func.func @main(%x: tensor<300x4xf16>, %i: tensor<6xui8>) -> tensor<6x4xf16> {
  %0 = "stablehlo.gather"(%x, %i) {
    dimension_numbers = #stablehlo.gather<
      offset_dims = [1],
      collapsed_slice_dims = [0],
      start_index_map = [0],
      index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 4>,
    indices_are_sorted = false
  } : (tensor<300x4xf16>, tensor<6xui8>) -> tensor<6x4xf16>
  func.return %0 : tensor<6x4xf16>
})",
        ir::OpCode::kGather);
  Check(R"(
func.func @main(%x: tensor<3x2x40x5xi32>, %i: tensor<2x3x4x2xi64>) -> tensor<2x3x4x2x2xi32> {
  %0 = "stablehlo.gather"(%x, %i) {
    dimension_numbers = #stablehlo.gather<
      offset_dims = [3, 4],
      collapsed_slice_dims = [1],
      operand_batching_dims = [0],
      start_indices_batching_dims = [1],
      start_index_map = [2, 1],
      index_vector_dim = 3>,
    slice_sizes = array<i64: 1, 1, 2, 2>,
    indices_are_sorted = false
  } : (tensor<3x2x40x5xi32>, tensor<2x3x4x2xi64>) -> tensor<2x3x4x2x2xi32>
  func.return %0 : tensor<2x3x4x2x2xi32>
})",
        ir::OpCode::kGather);
}

TEST(InstructionKernelsTest, Convolution) {
  // Strides, padding, both dilations and reversal over NHWC; feature
  // groups over NCHW; batch groups; against the CPU's reference kernel,
  // bit for bit, for float and integer types.
  for (const auto& [in, out] :
       std::vector<std::pair<std::string, std::string>>{{"f32", "f32"},
                                                        {"bf16", "bf16"},
                                                        {"f64", "f64"},
                                                        {"i8", "i32"},
                                                        {"f16", "f16"}}) {
    Check(absl::StrReplaceAll(R"(
func.func @main(%x: tensor<2x9x8x3x$I>, %k: tensor<3x2x3x4x$I>) -> tensor<2x4x15x4x$O> {
  %0 = stablehlo.convolution(%x, %k)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {
      stride = [2, 1],
      pad = [[1, 2], [0, 1]],
      lhs_dilate = [1, 2],
      rhs_dilate = [2, 1],
      reverse = [false, true]
    } {
      batch_group_count = 1 : i64,
      feature_group_count = 1 : i64
    }
  : (tensor<2x9x8x3x$I>, tensor<3x2x3x4x$I>) -> tensor<2x4x15x4x$O>
  func.return %0 : tensor<2x4x15x4x$O>
})",
                              {{"$I", in}, {"$O", out}}),
          ir::OpCode::kConvolution);
  }
  Check(R"(
func.func @main(%x: tensor<1x6x5x5xf32>, %k: tensor<4x3x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %0 = stablehlo.convolution(%x, %k)
    dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1],
    window = {} {
      batch_group_count = 1 : i64,
      feature_group_count = 2 : i64
    }
  : (tensor<1x6x5x5xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x3x3xf32>
  func.return %0 : tensor<1x4x3x3xf32>
})",
        ir::OpCode::kConvolution);
  Check(R"(
func.func @main(%x: tensor<4x5x5x2xi64>, %k: tensor<2x2x2x4xi64>) -> tensor<2x4x4x4xi64> {
  %0 = stablehlo.convolution(%x, %k)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {} {
      batch_group_count = 2 : i64,
      feature_group_count = 1 : i64
    }
  : (tensor<4x5x5x2xi64>, tensor<2x2x2x4xi64>) -> tensor<2x4x4x4xi64>
  func.return %0 : tensor<2x4x4x4xi64>
})",
        ir::OpCode::kConvolution);
}

TEST(InstructionKernelsTest, SortRowsWithTheirComparator) {
  // Ascending along the last dimension, descending along the first, and a
  // comparator of several ops (fused into one group); no NaN, whose
  // comparisons leave the order to the algorithm.
  for (const char* type : {"f32", "i32", "bf16", "ui8", "f64"}) {
    Check(absl::StrReplaceAll(R"(
func.func @main(%x: tensor<5x33x$T>) -> tensor<5x33x$T> {
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<$T>, %b: tensor<$T>):
    %c = stablehlo.compare LT, %a, %b : (tensor<$T>, tensor<$T>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 1 : i64, is_stable = true} : (tensor<5x33x$T>) -> tensor<5x33x$T>
  func.return %0 : tensor<5x33x$T>
})",
                              {{"$T", type}}),
          ir::OpCode::kSort, Reference::kInterpreter, /*specials=*/false);
  }
  Check(R"(
func.func @main(%x: tensor<17x3xi64>) -> tensor<17x3xi64> {
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %c = stablehlo.compare GT, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64, is_stable = false} : (tensor<17x3xi64>) -> tensor<17x3xi64>
  func.return %0 : tensor<17x3xi64>
})",
        ir::OpCode::kSort, Reference::kInterpreter, /*specials=*/false);
  // By absolute value, then sign: |a| < |b|, or equal and a < b.
  Check(R"(
func.func @main(%x: tensor<4x40xi32>) -> tensor<4x40xi32> {
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %aa = stablehlo.abs %a : tensor<i32>
    %ab = stablehlo.abs %b : tensor<i32>
    %lt = stablehlo.compare LT, %aa, %ab : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %eq = stablehlo.compare EQ, %aa, %ab : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %below = stablehlo.compare LT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = stablehlo.and %eq, %below : tensor<i1>
    %c = stablehlo.or %lt, %tie : tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 1 : i64, is_stable = true} : (tensor<4x40xi32>) -> tensor<4x40xi32>
  func.return %0 : tensor<4x40xi32>
})",
        ir::OpCode::kSort, Reference::kInterpreter, /*specials=*/false);
}

TEST(InstructionKernelsTest, ScatterAppliesEveryUpdateInOrder) {
  // Random indices: duplicates (combined in the CPU's order, so floats
  // agree bit for bit) and targets outside the operand (skipped).
  for (const auto& [type, op] :
       std::vector<std::pair<std::string, std::string>>{{"f32", "add"},
                                                        {"i32", "maximum"},
                                                        {"bf16", "multiply"},
                                                        {"i64", "add"}}) {
    for (const char* index : {"ui8", "i32"}) {
      Check(absl::StrReplaceAll(R"(
func.func @main(%x: tensor<40x3x$T>, %i: tensor<5x2x$I>, %u: tensor<5x2x$T>) -> tensor<40x3x$T> {
  %0 = "stablehlo.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<$T>, %b: tensor<$T>):
      %c = stablehlo.$OP %a, %b : tensor<$T>
      stablehlo.return %c : tensor<$T>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      update_window_dims = [1],
      inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0, 1],
      index_vector_dim = 1>,
    indices_are_sorted = false,
    unique_indices = false
  } : (tensor<40x3x$T>, tensor<5x2x$I>, tensor<5x2x$T>) -> tensor<40x3x$T>
  func.return %0 : tensor<40x3x$T>
})",
                                {{"$T", type}, {"$I", index}, {"$OP", op}}),
            ir::OpCode::kScatter);
    }
  }
  // The corpus's shape: index vector last, windows of two dimensions.
  Check(R"(
func.func @main(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64> {
  %0 = "stablehlo.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %c = stablehlo.add %a, %b : tensor<i64>
      stablehlo.return %c : tensor<i64>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      update_window_dims = [2, 3],
      inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [1, 0],
      index_vector_dim = 2>,
    indices_are_sorted = false,
    unique_indices = false
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return %0 : tensor<3x4x2xi64>
})",
        ir::OpCode::kScatter);
  // Two operands sharing their indices, their region mixing them: each
  // result needs the other operand's current value.
  Check(R"(
func.func @main(%x: tensor<6x2xf32>, %y: tensor<6x2xi32>, %i: tensor<7x1xi32>, %u: tensor<7x2xf32>, %v: tensor<7x2xi32>) -> (tensor<6x2xf32>, tensor<6x2xi32>) {
  %0:2 = "stablehlo.scatter"(%x, %y, %i, %u, %v) ({
    ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
      %bf = stablehlo.convert %b : (tensor<i32>) -> tensor<f32>
      %e = stablehlo.add %a, %c : tensor<f32>
      %f = stablehlo.add %e, %bf : tensor<f32>
      %g = stablehlo.maximum %b, %d : tensor<i32>
      stablehlo.return %f, %g : tensor<f32>, tensor<i32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      update_window_dims = [1],
      inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0],
      index_vector_dim = 1>,
    indices_are_sorted = false,
    unique_indices = false
  } : (tensor<6x2xf32>, tensor<6x2xi32>, tensor<7x1xi32>, tensor<7x2xf32>, tensor<7x2xi32>) -> (tensor<6x2xf32>, tensor<6x2xi32>)
  func.return %0#0, %0#1 : tensor<6x2xf32>, tensor<6x2xi32>
})",
        ir::OpCode::kScatter, Reference::kInterpreter, /*specials=*/false);
}

TEST(InstructionKernelsTest, SelectAndScatter) {
  // Overlapping windows (stride below the window), padding, and the
  // corpus's shape; max-pooling's gradient (GE, add) and others.
  for (const auto& [type, select, scatter] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"f32", "GE", "add"},
           {"i32", "LT", "maximum"},
           {"f64", "GT", "add"},
           {"bf16", "GE", "add"}}) {
    Check(absl::StrReplaceAll(
              R"(
func.func @main(%x: tensor<9x7x$T>, %s: tensor<4x4x$T>, %i: tensor<$T>) -> tensor<9x7x$T> {
  %0 = "stablehlo.select_and_scatter"(%x, %s, %i) ({
    ^bb0(%a: tensor<$T>, %b: tensor<$T>):
      %c = stablehlo.compare $SEL, %a, %b : (tensor<$T>, tensor<$T>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%a: tensor<$T>, %b: tensor<$T>):
      %c = stablehlo.$SCAT %a, %b : tensor<$T>
      stablehlo.return %c : tensor<$T>
  }) {
    window_dimensions = array<i64: 3, 2>,
    window_strides = array<i64: 2, 2>,
    padding = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>
  } : (tensor<9x7x$T>, tensor<4x4x$T>, tensor<$T>) -> tensor<9x7x$T>
  func.return %0 : tensor<9x7x$T>
})",
              {{"$T", type}, {"$SEL", select}, {"$SCAT", scatter}}),
          ir::OpCode::kSelectAndScatter);
  }
}

TEST(InstructionKernelsTest, GetDimensionSize) {
  Check(R"(
func.func @main(%x: tensor<2x37xi8>) -> tensor<i32> {
  %0 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<2x37xi8>) -> tensor<i32>
  func.return %0 : tensor<i32>
})",
        ir::OpCode::kGetDimensionSize);
}

TEST(InstructionKernelsTest, DynamicSliceClampsItsStarts) {
  // Random starts: negative, in range and past the end, of several types.
  for (const char* index : {"i32", "ui8", "i8", "i64", "ui64"}) {
    for (const char* type : {"f32", "i1", "bf16", "f64", "i4"}) {
      Check(absl::StrReplaceAll(R"(
func.func @main(%x: tensor<5x300x$T>, %i: tensor<$I>, %j: tensor<$I>) -> tensor<2x7x$T> {
  %0 = "stablehlo.dynamic_slice"(%x, %i, %j) {
    slice_sizes = array<i64: 2, 7>
  } : (tensor<5x300x$T>, tensor<$I>, tensor<$I>) -> tensor<2x7x$T>
  func.return %0 : tensor<2x7x$T>
})",
                                {{"$T", type}, {"$I", index}}),
            ir::OpCode::kDynamicSlice);
    }
  }
}

TEST(InstructionKernelsTest, DynamicUpdateSliceClampsItsStarts) {
  for (const char* index : {"i32", "ui8", "i8", "i64"}) {
    for (const char* type : {"f32", "i1", "f16", "i64"}) {
      Check(absl::StrReplaceAll(R"(
func.func @main(%x: tensor<4x260x$T>, %u: tensor<3x9x$T>, %i: tensor<$I>, %j: tensor<$I>) -> tensor<4x260x$T> {
  %0 = stablehlo.dynamic_update_slice %x, %u, %i, %j : (tensor<4x260x$T>, tensor<3x9x$T>, tensor<$I>, tensor<$I>) -> tensor<4x260x$T>
  func.return %0 : tensor<4x260x$T>
})",
                                {{"$T", type}, {"$I", index}}),
            ir::OpCode::kDynamicUpdateSlice);
    }
  }
  // Rank 0: the update is the result.
  Check(R"(
func.func @main(%x: tensor<f32>, %u: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.dynamic_update_slice %x, %u : (tensor<f32>, tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
})",
        ir::OpCode::kDynamicUpdateSlice);
}

constexpr char kReduce[] = R"(
func.func @main(%x: tensor<$SHAPEx$T>, %init: tensor<$T>) -> tensor<$OUT$T> {
  %r = stablehlo.reduce(%x init: %init) applies stablehlo.$OP across dimensions = [$DIMS] : (tensor<$SHAPEx$T>, tensor<$T>) -> tensor<$OUT$T>
  func.return %r : tensor<$OUT$T>
})";

std::string ReduceProgram(const std::string& op, const std::string& type,
                          const std::string& shape, const std::string& dims,
                          const std::string& out) {
  return absl::StrReplaceAll(kReduce, {{"$OP", op},
                                       {"$T", type},
                                       {"$SHAPE", shape},
                                       {"$DIMS", dims},
                                       {"$OUT", out}});
}

TEST(InstructionKernelsTest, Reduce) {
  for (const char* type : kArithmeticTypes) {
    for (const char* op : {"add", "multiply", "maximum", "minimum"}) {
      Check(ReduceProgram(op, type, "3x4x5", "0, 2", "4x"),
            ir::OpCode::kReduce);
    }
  }
  for (const char* type : {"i1", "i8", "ui16", "i64"}) {
    for (const char* op : {"and", "or"}) {
      Check(ReduceProgram(op, type, "3x4x5", "1", "3x5x"), ir::OpCode::kReduce);
    }
  }
  for (const char* op : {"add", "multiply", "maximum", "minimum"}) {
    Check(ReduceProgram(op, "i1", "6x3", "0", "3x"), ir::OpCode::kReduce);
  }
  // The longest rows the CPU engine still sums in order (it cascades rows
  // of 256 or more, runtime/cpu/cascade_sum.h), long enough for a
  // different summation order to show in f32.
  Check(ReduceProgram("add", "f32", "3x255", "1", "3x"), ir::OpCode::kReduce,
        Reference::kInterpreter, /*specials=*/false);
  Check(ReduceProgram("add", "bf16", "2x200x3", "1, 2", "2x"),
        ir::OpCode::kReduce, Reference::kInterpreter, /*specials=*/false);
  // Everything, nothing, or an empty range reduced.
  Check(ReduceProgram("add", "f32", "2x3x4", "0, 1, 2", ""),
        ir::OpCode::kReduce);
  Check(ReduceProgram("maximum", "f32", "2x3", "", "2x3x"),
        ir::OpCode::kReduce);
  Check(ReduceProgram("add", "f32", "2x0x3", "1", "2x3x"), ir::OpCode::kReduce);
  Check(ReduceProgram("multiply", "i32", "4x1x3", "1", "4x3x"),
        ir::OpCode::kReduce);
}

TEST(InstructionKernelsTest, ReduceWithSwappedBodyOperands) {
  Check(R"(
func.func @main(%x: tensor<4x6xf32>, %init: tensor<f32>) -> tensor<6xf32> {
  %r = stablehlo.reduce(%x init: %init) across dimensions = [0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<6xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %s = stablehlo.add %b, %a : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  func.return %r : tensor<6xf32>
})",
        ir::OpCode::kReduce);
}

TEST(InstructionKernelsTest, FusedReduce) {
  // An elementwise prologue, with a rank-0 operand, computed as the
  // reduction reads it.
  const std::string product = R"(
func.func @main(%x: tensor<3x40xf32>, %y: tensor<3x40xf32>, %s: tensor<f32>, %init: tensor<f32>) -> tensor<3xf32> {
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<3x40xf32>
  %m = stablehlo.multiply %x, %y : tensor<3x40xf32>
  %p = stablehlo.subtract %m, %b : tensor<3x40xf32>
  %r = stablehlo.reduce(%p init: %init) applies stablehlo.add across dimensions = [1] : (tensor<3x40xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
})";
  Check(product, ir::OpCode::kFusedReduce, Reference::kInterpreter,
        /*specials=*/false);
  Check(R"(
func.func @main(%x: tensor<4x5x6xbf16>, %init: tensor<f32>) -> tensor<5xf32> {
  %c = stablehlo.convert %x : (tensor<4x5x6xbf16>) -> tensor<4x5x6xf32>
  %r = stablehlo.reduce(%c init: %init) applies stablehlo.maximum across dimensions = [0, 2] : (tensor<4x5x6xf32>, tensor<f32>) -> tensor<5xf32>
  func.return %r : tensor<5xf32>
})",
        ir::OpCode::kFusedReduce);
}

constexpr char kDot[] = R"(
func.func @main(%a: tensor<$LHSx$T>, %b: tensor<$RHSx$T>) -> tensor<$OUTx$R> {
  %0 = stablehlo.dot_general %a, %b, $DIMS : (tensor<$LHSx$T>, tensor<$RHSx$T>) -> tensor<$OUTx$R>
  func.return %0 : tensor<$OUTx$R>
})";

std::string DotProgram(const std::string& type, const std::string& result,
                       const std::string& lhs, const std::string& rhs,
                       const std::string& dims, const std::string& out) {
  return absl::StrReplaceAll(kDot, {{"$T", type},
                                    {"$R", result},
                                    {"$LHS", lhs},
                                    {"$RHS", rhs},
                                    {"$DIMS", dims},
                                    {"$OUT", out}});
}

constexpr char kReduceWindow[] = R"(
func.func @main(%x: tensor<$SHAPEx$T>, %init: tensor<$T>) -> tensor<$OUTx$T> {
  %r = "stablehlo.reduce_window"(%x, %init) ({
    ^bb0(%a: tensor<$T>, %b: tensor<$T>):
      %0 = stablehlo.$OP %a, %b : tensor<$T>
      stablehlo.return %0 : tensor<$T>
  }) {$ATTRS} : (tensor<$SHAPEx$T>, tensor<$T>) -> tensor<$OUTx$T>
  func.return %r : tensor<$OUTx$T>
})";

std::string ReduceWindowProgram(const std::string& op, const std::string& type,
                                const std::string& shape,
                                const std::string& attributes,
                                const std::string& out) {
  return absl::StrReplaceAll(kReduceWindow, {{"$OP", op},
                                             {"$T", type},
                                             {"$SHAPE", shape},
                                             {"$ATTRS", attributes},
                                             {"$OUT", out}});
}

TEST(InstructionKernelsTest, ReduceWindow) {
  // Plain sliding windows: every type, every op on some.
  for (const char* type : kArithmeticTypes) {
    Check(ReduceWindowProgram("add", type, "5x6",
                              "window_dimensions = array<i64: 2, 3>", "4x4"),
          ir::OpCode::kReduceWindow);
  }
  for (const char* type : {"f32", "i32"}) {
    for (const char* op : {"multiply", "maximum", "minimum"}) {
      Check(ReduceWindowProgram(op, type, "5x6",
                                "window_dimensions = array<i64: 2, 3>", "4x4"),
            ir::OpCode::kReduceWindow);
    }
  }
  // Strides, window and base dilation, and padding on both sides: every
  // kind of position a window can fall on (input, padding, the holes base
  // dilation leaves), folded in the reference's order.
  const std::string dilated =
      "window_dimensions = array<i64: 2, 3>, "
      "window_strides = array<i64: 2, 1>, "
      "base_dilations = array<i64: 2, 1>, "
      "window_dilations = array<i64: 1, 2>, "
      "padding = dense<[[1, 2], [0, 1]]> : tensor<2x2xi64>";
  for (const char* type : {"f32", "bf16", "i32", "ui8", "f64"}) {
    for (const char* op : {"add", "maximum"}) {
      Check(ReduceWindowProgram(op, type, "5x6", dilated, "6x3"),
            ir::OpCode::kReduceWindow);
    }
  }
  for (const char* op : {"and", "or"}) {
    Check(ReduceWindowProgram(op, "i1", "4x1x3",
                              "window_dimensions = array<i64: 2, 1, 2>, "
                              "padding = dense<[[0, 1], [0, 0], [1, 1]]> : "
                              "tensor<3x2xi64>",
                              "4x1x4"),
          ir::OpCode::kReduceWindow);
  }
  // Windows larger than the input reach only padding at some outputs.
  Check(ReduceWindowProgram("add", "f32", "3",
                            "window_dimensions = array<i64: 4>, "
                            "padding = dense<[[3, 3]]> : tensor<1x2xi64>",
                            "6"),
        ir::OpCode::kReduceWindow);
}

TEST(InstructionKernelsTest, DotGeneral) {
  for (const char* type : {"f32", "f64", "f16", "bf16", "i1", "i4", "i8", "ui8",
                           "i32", "ui32", "i64"}) {
    SCOPED_TRACE(type);
    // A matrix product, a batched one, batching dims that do not lead,
    // several contracting dims in another order than the operands', and
    // contracting over nothing.
    Check(DotProgram(type, type, "4x5", "5x3", "contracting_dims = [1] x [0]",
                     "4x3"),
          ir::OpCode::kDotGeneral, Reference::kDotKernel);
    Check(DotProgram(type, type, "2x4x5", "2x5x3",
                     "batching_dims = [0] x [0], contracting_dims = [2] x [1]",
                     "2x4x3"),
          ir::OpCode::kDotGeneral, Reference::kDotKernel);
    Check(DotProgram(type, type, "4x2x5", "5x2x3",
                     "batching_dims = [1] x [1], contracting_dims = [2] x [0]",
                     "2x4x3"),
          ir::OpCode::kDotGeneral, Reference::kDotKernel);
    Check(DotProgram(type, type, "3x2x4", "4x5x2",
                     "contracting_dims = [2, 1] x [0, 2]", "3x5"),
          ir::OpCode::kDotGeneral, Reference::kDotKernel);
    Check(DotProgram(type, type, "3x0", "0x2", "contracting_dims = [1] x [0]",
                     "3x2"),
          ir::OpCode::kDotGeneral, Reference::kDotKernel);
  }
  // Long dot products: f32 accumulates in f64 and rounds once.
  Check(DotProgram("f32", "f32", "2x300", "300x3",
                   "contracting_dims = [1] x [0]", "2x3"),
        ir::OpCode::kDotGeneral, Reference::kDotKernel, /*specials=*/false);
  Check(DotProgram("bf16", "bf16", "2x300", "300x3",
                   "contracting_dims = [1] x [0]", "2x3"),
        ir::OpCode::kDotGeneral, Reference::kDotKernel, /*specials=*/false);
}

TEST(InstructionKernelsTest, DotGeneralWithWiderResult) {
  Check(DotProgram("bf16", "f32", "3x64", "64x2",
                   "contracting_dims = [1] x [0]", "3x2"),
        ir::OpCode::kDotGeneral, Reference::kDotKernel, /*specials=*/false);
  Check(DotProgram("i8", "i32", "3x64", "64x2", "contracting_dims = [1] x [0]",
                   "3x2"),
        ir::OpCode::kDotGeneral, Reference::kDotKernel);
}

// IEEE totalOrder comparisons (the keys of stablehlo.compare TOTALORDER)
// on NaN, infinities and both zeros among random values, every direction.
TEST(InstructionKernelsTest, TotalOrderCompares) {
  for (const char* type : {"f32", "f64", "f16", "bf16"}) {
    for (const char* direction : {"EQ", "NE", "LT", "GE"}) {
      Check(absl::StrReplaceAll(R"(
func.func @main(%x: tensor<4x8x$T>, %y: tensor<4x8x$T>) -> tensor<4x8xi1> {
  %0 = stablehlo.compare $D, %x, %y, TOTALORDER : (tensor<4x8x$T>, tensor<4x8x$T>) -> tensor<4x8xi1>
  func.return %0 : tensor<4x8xi1>
})",
                                {{"$T", type}, {"$D", direction}}),
            ir::OpCode::kCompare, Reference::kInterpreter, /*specials=*/true,
            /*fuse=*/false);
    }
  }
}

// triangular_solve over random systems (so the other triangle holds
// values the kernel must not read, and the diagonal too when it is taken
// as ones): every side, triangle, transposition and type, batched, with
// the CPU's bits.
TEST(InstructionKernelsTest, TriangularSolve) {
  auto program = [](const std::string& type, const std::string& a,
                    const std::string& b, const std::string& options) {
    return Substitute(
        absl::StrCat("func.func @main(%a: tensor<", a, "x$T>, %b: tensor<", b,
                     "x$T>) -> tensor<", b, "x$T> {\n",
                     "  %0 = \"stablehlo.triangular_solve\"(%a, %b) {", options,
                     "} : (tensor<", a, "x$T>, tensor<", b, "x$T>) -> tensor<",
                     b, "x$T>\n", "  func.return %0 : tensor<", b, "x$T>\n}\n"),
        type);
  };
  for (const char* type : {"f32", "f64", "f16", "bf16"}) {
    for (const char* side : {"true", "false"}) {
      for (const char* lower : {"true", "false"}) {
        for (const char* unit : {"false", "true"}) {
          for (const char* transpose : {"NO_TRANSPOSE", "TRANSPOSE"}) {
            const std::string options = absl::StrCat(
                "left_side = ", side, ", lower = ", lower,
                ", unit_diagonal = ", unit,
                ", transpose_a = #stablehlo<transpose ", transpose, ">");
            const bool left = std::string(side) == "true";
            Check(program(type, "2x4x4", left ? "2x4x3" : "2x3x4", options),
                  ir::OpCode::kTriangularSolve, Reference::kInterpreter,
                  /*specials=*/false);
          }
        }
      }
    }
  }
  // NaN, infinities and signed zeros flow through as on the CPU; no
  // right-hand sides, or no batches, launch nothing to do.
  Check(program("f32", "5x5", "5x2",
                "left_side = true, lower = true, unit_diagonal = false, "
                "transpose_a = #stablehlo<transpose ADJOINT>"),
        ir::OpCode::kTriangularSolve);
  Check(program("f32", "3x3", "3x0",
                "left_side = true, lower = false, unit_diagonal = false, "
                "transpose_a = #stablehlo<transpose NO_TRANSPOSE>"),
        ir::OpCode::kTriangularSolve);
  Check(program("f64", "0x2x2", "0x2x2",
                "left_side = false, lower = false, unit_diagonal = false, "
                "transpose_a = #stablehlo<transpose NO_TRANSPOSE>"),
        ir::OpCode::kTriangularSolve);
}

// Elementwise ops that fusion leaves alone (compiled here without fusion,
// so the entry keeps them) become fused kernels of one step; rank-0
// operands of a larger result are read as scalars.
TEST(InstructionKernelsTest, LoneElementwiseOps) {
  for (const char* type : {"f32", "bf16", "f64", "i8", "ui32", "i64"}) {
    Check(Substitute(R"(
func.func @main(%x: tensor<3x4x$T>, %y: tensor<3x4x$T>) -> tensor<3x4x$T> {
  %0 = stablehlo.add %x, %y : tensor<3x4x$T>
  func.return %0 : tensor<3x4x$T>
})",
                     type),
          ir::OpCode::kBinary, Reference::kInterpreter, /*specials=*/true,
          /*fuse=*/false);
  }
  Check(R"(
func.func @main(%x: tensor<i64>, %n: tensor<i64>) -> tensor<i1> {
  %0 = stablehlo.compare LT, %x, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
  func.return %0 : tensor<i1>
})",
        ir::OpCode::kCompare, Reference::kInterpreter, /*specials=*/true,
        /*fuse=*/false);
  Check(R"(
func.func @main(%x: tensor<5xf16>) -> tensor<5xf16> {
  %0 = stablehlo.negate %x : tensor<5xf16>
  func.return %0 : tensor<5xf16>
})",
        ir::OpCode::kUnary, Reference::kInterpreter, /*specials=*/true,
        /*fuse=*/false);
  Check(R"(
func.func @main(%p: tensor<i1>, %x: tensor<2x3xi32>, %y: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = stablehlo.select %p, %x, %y : (tensor<i1>, tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  func.return %0 : tensor<2x3xi32>
})",
        ir::OpCode::kSelect, Reference::kInterpreter, /*specials=*/true,
        /*fuse=*/false);
  Check(R"(
func.func @main(%lo: tensor<f32>, %x: tensor<7xf32>, %hi: tensor<f32>) -> tensor<7xf32> {
  %0 = stablehlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<7xf32>, tensor<f32>) -> tensor<7xf32>
  func.return %0 : tensor<7xf32>
})",
        ir::OpCode::kClamp, Reference::kInterpreter, /*specials=*/true,
        /*fuse=*/false);
  Check(R"(
func.func @main(%x: tensor<6xf32>) -> tensor<6xi16> {
  %0 = stablehlo.convert %x : (tensor<6xf32>) -> tensor<6xi16>
  func.return %0 : tensor<6xi16>
})",
        ir::OpCode::kConvert, Reference::kInterpreter, /*specials=*/false,
        /*fuse=*/false);
}

// The status of emitting the first `opcode` instruction of `text`.
absl::Status EmitStatus(const std::string& text, ir::OpCode opcode,
                        const std::string& name = "k", int sm = 80,
                        bool fuse = true) {
  std::optional<Emitted> emitted = Compile(text, opcode, fuse);
  if (!emitted) return absl::InternalError("does not compile");
  const ir::Computation& entry =
      emitted->program.computations[emitted->program.entry];
  return EmitInstructionKernel(emitted->program, entry,
                               entry.instructions[emitted->instruction], name,
                               {sm})
      .status();
}

TEST(InstructionKernelsTest, UnsupportedInstructionsNameTheOp) {
  const absl::Status status = EmitStatus(R"(
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %c : tensor<f32>
  }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<8xf32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
})",
                                         ir::OpCode::kAllReduce);
  EXPECT_EQ(status.code(), absl::StatusCode::kUnimplemented) << status;
  EXPECT_THAT(std::string(status.message()),
              ContainsRegex("^[0-9]+:[0-9]+: stablehlo.all_reduce"));
}

TEST(InstructionKernelsTest, MapEvaluatesItsRegionPerElement) {
  for (const char* type : {"f32", "i32", "f16", "i8"}) {
    Check(absl::StrReplaceAll(R"(
func.func @main(%x: tensor<6x50x$T>, %y: tensor<6x50x$T>) -> tensor<6x50x$T> {
  %0 = "stablehlo.map"(%x, %y) ({
    ^bb0(%a: tensor<$T>, %b: tensor<$T>):
      %p = stablehlo.multiply %a, %b : tensor<$T>
      %m = stablehlo.maximum %p, %a : tensor<$T>
      stablehlo.return %m : tensor<$T>
  }) {
    dimensions = array<i64: 0, 1>
  } : (tensor<6x50x$T>, tensor<6x50x$T>) -> tensor<6x50x$T>
  func.return %0 : tensor<6x50x$T>
})",
                              {{"$T", type}}),
          ir::OpCode::kMap);
  }
}

TEST(InstructionKernelsTest, ReduceEvaluatesAnyBody) {
  // A body of several ops, and one that is not associative: folded in the
  // CPU's order, so the bits agree.
  Check(R"(
func.func @main(%x: tensor<4x7xf32>, %init: tensor<f32>) -> tensor<7xf32> {
  %r = stablehlo.reduce(%x init: %init) across dimensions = [0] : (tensor<4x7xf32>, tensor<f32>) -> tensor<7xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %d = stablehlo.subtract %a, %b : tensor<f32>
    %t = stablehlo.maximum %d, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }
  func.return %r : tensor<7xf32>
})",
        ir::OpCode::kReduce);
  for (const char* type : {"f32", "i32", "bf16"}) {
    Check(ReduceProgram("subtract", type, "4x3", "0", "3x"),
          ir::OpCode::kReduce);
  }
  // Two inputs reduced together: the minimum and where it is, first on
  // ties (argmin's body), over a middle dimension.
  Check(R"(
func.func @main(%x: tensor<3x9x2xf32>, %i: tensor<3x9x2xi32>, %x0: tensor<f32>, %i0: tensor<i32>) -> (tensor<3x2xf32>, tensor<3x2xi32>) {
  %r:2 = stablehlo.reduce(%x init: %x0), (%i init: %i0) across dimensions = [1] : (tensor<3x9x2xf32>, tensor<3x9x2xi32>, tensor<f32>, tensor<i32>) -> (tensor<3x2xf32>, tensor<3x2xi32>)
   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>) {
    %lt = stablehlo.compare LT, %c, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %eq = stablehlo.compare EQ, %c, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %first = stablehlo.compare LT, %d, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = stablehlo.and %eq, %first : tensor<i1>
    %take = stablehlo.or %lt, %tie : tensor<i1>
    %v = stablehlo.select %take, %c, %a : tensor<i1>, tensor<f32>
    %k = stablehlo.select %take, %d, %b : tensor<i1>, tensor<i32>
    stablehlo.return %v, %k : tensor<f32>, tensor<i32>
  }
  func.return %r#0, %r#1 : tensor<3x2xf32>, tensor<3x2xi32>
})",
        ir::OpCode::kReduce, Reference::kInterpreter, /*specials=*/false);
}

TEST(InstructionKernelsTest, UnsupportedReductions) {
  // A body reading a value from outside it.
  const absl::Status captured = EmitStatus(R"(
func.func @main(%x: tensor<4xf32>, %k: tensor<f32>) -> tensor<f32> {
  %fzero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %fzero) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %s = stablehlo.add %a, %b : tensor<f32>
    %t = stablehlo.multiply %s, %k : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }
  func.return %r : tensor<f32>
})",
                                           ir::OpCode::kReduce);
  EXPECT_EQ(captured.code(), absl::StatusCode::kUnimplemented) << captured;
  EXPECT_THAT(std::string(captured.message()),
              ContainsRegex("^[0-9]+:[0-9]+: stablehlo.reduce .*outside"));
}

TEST(InstructionKernelsTest, ReduceWindowEvaluatesAnyBody) {
  // Not associative: folded in the CPU's order, padding positions too.
  Check(ReduceWindowProgram("subtract", "f32", "5x6",
                            "window_dimensions = array<i64: 2, 3>, "
                            "window_strides = array<i64: 2, 1>, "
                            "padding = dense<[[1, 0], [0, 1]]> : "
                            "tensor<2x2xi64>",
                            "3x5"),
        ir::OpCode::kReduceWindow);
  // Max pooling that also says where each maximum came from.
  Check(R"(
func.func @main(%x: tensor<6x5xf32>, %i: tensor<6x5xi32>, %x0: tensor<f32>, %i0: tensor<i32>) -> (tensor<5x3xf32>, tensor<5x3xi32>) {
  %r:2 = "stablehlo.reduce_window"(%x, %i, %x0, %i0) ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    %gt = stablehlo.compare GT, %c, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = stablehlo.select %gt, %c, %a : tensor<i1>, tensor<f32>
    %k = stablehlo.select %gt, %d, %b : tensor<i1>, tensor<i32>
    stablehlo.return %v, %k : tensor<f32>, tensor<i32>
  }) {window_dimensions = array<i64: 2, 3>, padding = dense<[[0, 0], [0, 0]]> : tensor<2x2xi64>} : (tensor<6x5xf32>, tensor<6x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<5x3xf32>, tensor<5x3xi32>)
  func.return %r#0, %r#1 : tensor<5x3xf32>, tensor<5x3xi32>
})",
        ir::OpCode::kReduceWindow, Reference::kInterpreter,
        /*specials=*/false);
}

TEST(InstructionKernelsTest, UnsupportedTypes) {
  const absl::Status iota = EmitStatus(R"(
func.func @main() -> tensor<4xf8E4M3FN> {
  %0 = stablehlo.iota dim = 0 : tensor<4xf8E4M3FN>
  func.return %0 : tensor<4xf8E4M3FN>
})",
                                       ir::OpCode::kIota);
  EXPECT_EQ(iota.code(), absl::StatusCode::kUnimplemented) << iota;
  EXPECT_THAT(std::string(iota.message()),
              ContainsRegex("^[0-9]+:[0-9]+: stablehlo.iota.*f8E4M3FN"));
  const absl::Status dot =
      EmitStatus(DotProgram("f8E5M2", "f8E5M2", "2x3", "3x2",
                            "contracting_dims = [1] x [0]", "2x2"),
                 ir::OpCode::kDotGeneral);
  EXPECT_EQ(dot.code(), absl::StatusCode::kUnimplemented) << dot;
  EXPECT_THAT(std::string(dot.message()),
              ContainsRegex("stablehlo.dot_general.*f8E5M2"));
  // A lone elementwise op on FP8, named with its position.
  const absl::Status add = EmitStatus(R"(
func.func @main(%x: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  %0 = stablehlo.add %x, %x : tensor<4xf8E4M3FN>
  func.return %0 : tensor<4xf8E4M3FN>
})",
                                      ir::OpCode::kBinary, "k", 80,
                                      /*fuse=*/false);
  EXPECT_EQ(add.code(), absl::StatusCode::kUnimplemented) << add;
  EXPECT_THAT(std::string(add.message()),
              ContainsRegex("^[0-9]+:[0-9]+: stablehlo.add on f8E4M3FN"));
  // bf16 arithmetic needs sm_80.
  const absl::Status bf16 =
      EmitStatus(ReduceProgram("add", "bf16", "4x3", "0", "3x"),
                 ir::OpCode::kReduce, "k", 75);
  EXPECT_EQ(bf16.code(), absl::StatusCode::kUnimplemented) << bf16;
}

TEST(InstructionKernelsTest, RejectsBadNamesAndTargets) {
  const std::string text = R"(
func.func @main(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
})";
  EXPECT_EQ(EmitStatus(text, ir::OpCode::kTranspose, "9lives").code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EmitStatus(text, ir::OpCode::kTranspose, "k", 81).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(EmitStatus(text, ir::OpCode::kTranspose, "k", 75).ok());
}

}  // namespace
}  // namespace pjrtx::ptx
