// The interpreter on the kernels the compiler stub really emits: StableHLO
// programs go through the compiler, the elementwise fusion and the PTX
// emitter (for sm_80 and sm_90), run in the interpreter over host memory,
// and every output element is checked against a reference computed here,
// element by element, with plain C++.
#include "tests/plugins/cuda/ptx_interpreter/ptx_interpreter.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "compiler_stub/compiler.h"
#include "compiler_stub/ir/float_formats.h"
#include "compiler_stub/ptx/elementwise_fusion.h"
#include "compiler_stub/ptx/ptx_emitter.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/plugins/cuda/ptx_interpreter/test_device_memory.h"

namespace fake_cuda {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

using Bytes = std::vector<uint8_t>;

using DeviceMemory = TestDeviceMemory;

template <typename T>
Bytes ToBytes(const std::vector<T>& values) {
  Bytes bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

template <typename T>
std::vector<T> FromBytes(const Bytes& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!bytes.empty()) std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

Bytes U64Param(uint64_t value) { return ToBytes(std::vector<uint64_t>{value}); }

std::string Substitute(const char* text, const std::string& type, int n) {
  return absl::StrReplaceAll(text, {{"$T", type}, {"$N", absl::StrCat(n)}});
}

// A StableHLO program's one fused kernel and its PTX.
struct Emitted {
  pjrtx::ir::Program program;
  pjrtx::ptx::FusedKernel kernel;
  std::string ptx;
};

std::optional<Emitted> Emit(const std::string& text, int sm) {
  absl::StatusOr<pjrtx::ir::Program> program =
      pjrtx::compiler::Compile(text, {});
  if (!program.ok()) {
    ADD_FAILURE() << program.status();
    return std::nullopt;
  }
  std::vector<pjrtx::ptx::FusedKernel> kernels =
      pjrtx::ptx::FindElementwiseFusions(*program, program->entry);
  if (kernels.size() != 1) {
    ADD_FAILURE() << "expected one fused kernel, got " << kernels.size();
    return std::nullopt;
  }
  absl::StatusOr<std::string> ptx = pjrtx::ptx::EmitPtx(kernels[0], {sm});
  if (!ptx.ok()) {
    ADD_FAILURE() << ptx.status();
    return std::nullopt;
  }
  return Emitted{*std::move(program), kernels[0], *std::move(ptx)};
}

struct Geometry {
  Dim3 grid{3, 1, 1};
  Dim3 block{32, 1, 1};
};

// The bytes of a kernel input: a function argument, or a constant of the
// program (a splat stored as one element is repeated).
std::optional<Bytes> InputBytes(const Emitted& emitted,
                                const pjrtx::ptx::FusedInput& input,
                                const std::vector<Bytes>& arguments) {
  const pjrtx::ir::Computation& entry =
      emitted.program.computations[emitted.program.entry];
  for (size_t i = 0; i < entry.parameters.size(); ++i) {
    if (entry.parameters[i] == input.value) return arguments.at(i);
  }
  for (const pjrtx::ir::Instruction& instruction : entry.instructions) {
    if (instruction.opcode != pjrtx::ir::OpCode::kConstant ||
        instruction.results[0] != input.value) {
      continue;
    }
    const Bytes& constant = instruction.attributes.constant;
    const size_t size = input.shape.size_bytes();
    const size_t element = pjrtx::ir::StorageSize(input.shape.type);
    if (constant.size() == size) return constant;
    if (constant.size() != element) break;
    Bytes repeated;
    for (size_t k = 0; k < size / element; ++k) {
      repeated.insert(repeated.end(), constant.begin(), constant.end());
    }
    return repeated;
  }
  ADD_FAILURE() << "no data for kernel input value " << input.value;
  return std::nullopt;
}

// Runs the program's fused kernel (PTX for `sm`) on `arguments`, the
// storage-layout bytes of each function parameter, and returns the bytes
// of each function result; `run_seconds`, when set, receives the time
// PtxKernel::Run took.
std::optional<std::vector<Bytes>> RunProgram(
    const std::string& text, int sm, const std::vector<Bytes>& arguments,
    Geometry geometry = {}, double* run_seconds = nullptr) {
  std::optional<Emitted> emitted = Emit(text, sm);
  if (!emitted) return std::nullopt;
  std::string error;
  std::unique_ptr<PtxModule> module = PtxModule::Parse(emitted->ptx, &error);
  if (module == nullptr) {
    ADD_FAILURE() << error << "\n" << emitted->ptx;
    return std::nullopt;
  }
  const PtxKernel* kernel = module->Find(emitted->kernel.name);
  if (kernel == nullptr) {
    ADD_FAILURE() << "no kernel " << emitted->kernel.name;
    return std::nullopt;
  }
  DeviceMemory memory;
  std::vector<Bytes> params;
  for (const pjrtx::ptx::FusedInput& input : emitted->kernel.inputs) {
    std::optional<Bytes> bytes = InputBytes(*emitted, input, arguments);
    if (!bytes) return std::nullopt;
    const uint64_t address = memory.Allocate(bytes->size());
    memory.Write(address, *bytes);
    params.push_back(U64Param(address));
  }
  std::vector<uint64_t> outputs;
  for (const pjrtx::ptx::FusedOutput& output : emitted->kernel.outputs) {
    outputs.push_back(memory.Allocate(output.shape.size_bytes()));
    params.push_back(U64Param(outputs.back()));
  }
  int64_t n = 1;
  for (int64_t dim : emitted->kernel.dims) n *= dim;
  params.push_back(U64Param(static_cast<uint64_t>(n)));
  if (kernel->param_sizes() != std::vector<size_t>(params.size(), 8)) {
    ADD_FAILURE() << "unexpected parameter sizes";
    return std::nullopt;
  }
  const auto start = std::chrono::steady_clock::now();
  const bool ran = kernel->Run(geometry.grid, geometry.block, params,
                               memory.Translator(), &error);
  if (run_seconds != nullptr) {
    *run_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
  }
  if (!ran) {
    ADD_FAILURE() << error;
    return std::nullopt;
  }
  const pjrtx::ir::Computation& entry =
      emitted->program.computations[emitted->program.entry];
  std::vector<Bytes> results;
  for (int value : entry.results) {
    bool found = false;
    for (size_t i = 0; i < emitted->kernel.outputs.size(); ++i) {
      const pjrtx::ptx::FusedOutput& output = emitted->kernel.outputs[i];
      if (output.value != value) continue;
      results.push_back(memory.Read(outputs[i], output.shape.size_bytes()));
      found = true;
      break;
    }
    if (!found) {
      ADD_FAILURE() << "result " << value << " is not a kernel output";
      return std::nullopt;
    }
  }
  return results;
}

// --- References ---

// NaN-propagating maximum and minimum with -0 < +0 (StableHLO's).
template <typename F>
F Maximum(F a, F b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<F>::quiet_NaN();
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
template <typename F>
F Minimum(F a, F b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<F>::quiet_NaN();
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

// The 16-bit formats: values are computed in float and rounded to the
// format after each op.
struct F16 {
  static uint16_t Encode(float v) { return pjrtx::ir::FloatToHalf(v); }
  static float Decode(uint16_t b) { return pjrtx::ir::HalfToFloat(b); }
  static constexpr const char* kName = "f16";
};
struct BF16 {
  static uint16_t Encode(float v) { return pjrtx::ir::FloatToBFloat16(v); }
  static float Decode(uint16_t b) { return pjrtx::ir::BFloat16ToFloat(b); }
  static constexpr const char* kName = "bf16";
};

// Same value: both NaN, or the same bits (so -0 differs from +0).
template <typename F>
::testing::AssertionResult SameFloat(F actual, F expected) {
  if (std::isnan(expected) && std::isnan(actual)) {
    return ::testing::AssertionSuccess();
  }
  if (std::bit_cast<std::conditional_t<sizeof(F) == 4, uint32_t, uint64_t>>(
          actual) ==
      std::bit_cast<std::conditional_t<sizeof(F) == 4, uint32_t, uint64_t>>(
          expected)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "got " << actual << ", expected " << expected;
}

template <typename Format>
::testing::AssertionResult SameHalf(uint16_t actual, uint16_t expected) {
  const float a = Format::Decode(actual);
  const float e = Format::Decode(expected);
  if ((std::isnan(a) && std::isnan(e)) || actual == expected) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "got " << a << " (0x" << std::hex << actual << "), expected " << e
         << " (0x" << expected << ")";
}

// Inputs: mostly uniform in [low, high], with some special values.
std::vector<float> FloatInputs(int n, float low, float high, uint32_t seed,
                               const std::vector<float>& specials = {}) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> uniform(low, high);
  std::vector<float> values(n);
  for (int i = 0; i < n; ++i) {
    values[i] =
        i < static_cast<int>(specials.size()) ? specials[i] : uniform(random);
  }
  std::shuffle(values.begin(), values.end(), random);
  return values;
}

class EmittedKernelTest : public ::testing::TestWithParam<int> {
 protected:
  int sm() const { return GetParam(); }
};

// --- A chain over splat, broadcast and scalar inputs ---

// y = (min(max((x * a + b - s) * d, e), f) + g) / a, where a = 2 and d = -3
// are splat constants (read per element), b = 0.5 a broadcast constant
// scalar and s a broadcast parameter (both read once per thread).
constexpr char kChain[] = R"(
func.func @main(%x: tensor<$Nx$T>, %e: tensor<$Nx$T>, %f: tensor<$Nx$T>, %g: tensor<$Nx$T>, %s: tensor<$T>) -> tensor<$Nx$T> {
  %a = stablehlo.constant dense<2.0> : tensor<$Nx$T>
  %half = stablehlo.constant dense<0.5> : tensor<$T>
  %b = stablehlo.broadcast_in_dim %half, dims = [] : (tensor<$T>) -> tensor<$Nx$T>
  %c = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<$T>) -> tensor<$Nx$T>
  %d = stablehlo.constant dense<-3.0> : tensor<$Nx$T>
  %0 = stablehlo.multiply %x, %a : tensor<$Nx$T>
  %1 = stablehlo.add %0, %b : tensor<$Nx$T>
  %2 = stablehlo.subtract %1, %c : tensor<$Nx$T>
  %3 = stablehlo.multiply %2, %d : tensor<$Nx$T>
  %4 = stablehlo.maximum %3, %e : tensor<$Nx$T>
  %5 = stablehlo.minimum %4, %f : tensor<$Nx$T>
  %6 = stablehlo.add %5, %g : tensor<$Nx$T>
  %7 = stablehlo.divide %6, %a : tensor<$Nx$T>
  func.return %7 : tensor<$Nx$T>
}
)";

// The chain's inputs: random, with NaNs, and at index 0 values that make
// the maximum and minimum compare -0 with +0 (x = 0, s = 0.5 gives -0
// after the multiply by -3).
struct ChainInputs {
  std::vector<float> x, e, f, g;
  float s = 0.5f;
};

ChainInputs MakeChainInputs(int n) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  ChainInputs in;
  in.x = FloatInputs(n, -10, 10, 1, {nan, 1e30f});
  in.e = FloatInputs(n, -30, 30, 2, {nan});
  in.f = FloatInputs(n, -30, 30, 3, {nan});
  in.g = FloatInputs(n, -5, 5, 4);
  in.x[0] = 0.0f;
  in.e[0] = 0.0f;
  in.f[0] = -0.0f;
  in.g[0] = -0.0f;
  return in;
}

template <typename F, typename Round>
F ChainReference(F x, F e, F f, F g, F s, Round round) {
  F v = round(x * F{2});
  v = round(v + F{0.5});
  v = round(v - s);
  v = round(v * F{-3});
  v = round(Maximum(v, e));
  v = round(Minimum(v, f));
  v = round(v + g);
  return round(v / F{2});
}

void CheckChainF32(int sm, int n, Geometry geometry) {
  const ChainInputs in = MakeChainInputs(n);
  auto results = RunProgram(Substitute(kChain, "f32", n), sm,
                            {ToBytes(in.x), ToBytes(in.e), ToBytes(in.f),
                             ToBytes(in.g), ToBytes(std::vector{in.s})},
                            geometry);
  ASSERT_TRUE(results.has_value());
  const std::vector<float> y = FromBytes<float>(results->at(0));
  ASSERT_EQ(y.size(), n);
  auto identity = [](float v) { return v; };
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(SameFloat(y[i], ChainReference(in.x[i], in.e[i], in.f[i],
                                               in.g[i], in.s, identity)))
        << "sm_" << sm << " element " << i;
  }
  // The -0/+0 element: max(-0, +0) = +0, min(+0, -0) = -0, -0 + -0 = -0.
  EXPECT_TRUE(std::signbit(y[0]));
  EXPECT_EQ(y[0], 0.0f);
}

TEST_P(EmittedKernelTest, ChainF32WithOddCountAndSmallGrid) {
  // 1001 elements for 3 x 32 threads: each thread loops.
  CheckChainF32(sm(), 1001, {});
}

TEST_P(EmittedKernelTest, ChainF32WithOneThread) {
  Geometry geometry;
  geometry.grid = {1, 1, 1};
  geometry.block = {1, 1, 1};
  CheckChainF32(sm(), 333, geometry);
}

TEST_P(EmittedKernelTest, ChainF64WithMoreThreadsThanElements) {
  constexpr int kN = 77;
  const ChainInputs in = MakeChainInputs(kN);
  auto wide = [](const std::vector<float>& v) {
    return std::vector<double>(v.begin(), v.end());
  };
  // Make the doubles use their precision.
  std::vector<double> x = wide(in.x);
  for (int i = 1; i < kN; ++i) x[i] += 1e-12 * i;
  const std::vector<double> e = wide(in.e), f = wide(in.f), g = wide(in.g);
  const double s = 0.5;
  Geometry geometry;
  geometry.grid = {4, 1, 1};  // 128 threads for 77 elements.
  auto results = RunProgram(
      Substitute(kChain, "f64", kN), sm(),
      {ToBytes(x), ToBytes(e), ToBytes(f), ToBytes(g), ToBytes(std::vector{s})},
      geometry);
  ASSERT_TRUE(results.has_value());
  const std::vector<double> y = FromBytes<double>(results->at(0));
  ASSERT_EQ(y.size(), kN);
  auto identity = [](double v) { return v; };
  for (int i = 0; i < kN; ++i) {
    EXPECT_TRUE(
        SameFloat(y[i], ChainReference(x[i], e[i], f[i], g[i], s, identity)))
        << "element " << i;
  }
}

template <typename Format>
void CheckHalfChain(int sm) {
  constexpr int kN = 513;
  const ChainInputs in = MakeChainInputs(kN);
  auto encode = [](const std::vector<float>& v) {
    std::vector<uint16_t> bits;
    for (float value : v) bits.push_back(Format::Encode(value));
    return bits;
  };
  const std::vector<uint16_t> x = encode(in.x), e = encode(in.e),
                              f = encode(in.f), g = encode(in.g);
  const uint16_t s = Format::Encode(in.s);
  auto results = RunProgram(Substitute(kChain, Format::kName, kN), sm,
                            {ToBytes(x), ToBytes(e), ToBytes(f), ToBytes(g),
                             ToBytes(std::vector{s})});
  ASSERT_TRUE(results.has_value());
  const std::vector<uint16_t> y = FromBytes<uint16_t>(results->at(0));
  ASSERT_EQ(y.size(), kN);
  auto round = [](float v) { return Format::Decode(Format::Encode(v)); };
  for (int i = 0; i < kN; ++i) {
    const float expected = ChainReference(
        Format::Decode(x[i]), Format::Decode(e[i]), Format::Decode(f[i]),
        Format::Decode(g[i]), Format::Decode(s), round);
    EXPECT_TRUE(SameHalf<Format>(y[i], Format::Encode(expected)))
        << "element " << i;
  }
}

TEST_P(EmittedKernelTest, ChainF16) { CheckHalfChain<F16>(sm()); }
TEST_P(EmittedKernelTest, ChainBF16) { CheckHalfChain<BF16>(sm()); }

// --- Integers ---

constexpr char kIntegerOps[] = R"(
func.func @main(%x: tensor<$Nx$T>, %y: tensor<$Nx$T>) -> (tensor<$Nx$T>, tensor<$Nxi1>, tensor<$Nx$T>, tensor<$Nx$T>) {
  %k = stablehlo.constant dense<3> : tensor<$T>
  %kb = stablehlo.broadcast_in_dim %k, dims = [] : (tensor<$T>) -> tensor<$Nx$T>
  %0 = stablehlo.add %x, %y : tensor<$Nx$T>
  %1 = stablehlo.subtract %0, %kb : tensor<$Nx$T>
  %2 = stablehlo.multiply %1, %y : tensor<$Nx$T>
  %3 = stablehlo.and %2, %x : tensor<$Nx$T>
  %4 = stablehlo.or %3, %y : tensor<$Nx$T>
  %5 = stablehlo.xor %4, %0 : tensor<$Nx$T>
  %6 = stablehlo.shift_left %5, %kb : tensor<$Nx$T>
  %7 = stablehlo.shift_right_arithmetic %6, %y : tensor<$Nx$T>
  %8 = stablehlo.shift_right_logical %7, %kb : tensor<$Nx$T>
  %9 = stablehlo.maximum %8, %x : tensor<$Nx$T>
  %10 = stablehlo.minimum %9, %y : tensor<$Nx$T>
  %11 = stablehlo.negate %10 : tensor<$Nx$T>
  %12 = stablehlo.not %11 : tensor<$Nx$T>
  %13 = stablehlo.clamp %k, %12, %y : (tensor<$T>, tensor<$Nx$T>, tensor<$Nx$T>) -> tensor<$Nx$T>
  %14 = stablehlo.compare LT, %13, %x : (tensor<$Nx$T>, tensor<$Nx$T>) -> tensor<$Nxi1>
  %15 = stablehlo.select %14, %13, %x : tensor<$Nxi1>, tensor<$Nx$T>
  %16 = stablehlo.shift_left %0, %y : tensor<$Nx$T>
  %17 = stablehlo.shift_right_logical %0, %y : tensor<$Nx$T>
  func.return %15, %14, %16, %17 : tensor<$Nx$T>, tensor<$Nxi1>, tensor<$Nx$T>, tensor<$Nx$T>
}
)";

// StableHLO integer semantics: wrapping arithmetic; shift amounts read as
// unsigned, and shifting by the width or more gives 0 (or the sign, for
// the arithmetic right shift of the two's complement pattern).
template <typename T>
struct IntegerReference {
  using U = std::make_unsigned_t<T>;
  using S = std::make_signed_t<T>;
  static constexpr uint64_t kBits = 8 * sizeof(T);

  static T Add(T a, T b) { return static_cast<T>(uint64_t(a) + uint64_t(b)); }
  static T Sub(T a, T b) { return static_cast<T>(uint64_t(a) - uint64_t(b)); }
  static T Mul(T a, T b) { return static_cast<T>(uint64_t(a) * uint64_t(b)); }
  static T Shl(T a, T b) {
    const uint64_t amount = static_cast<U>(b);
    return amount >= kBits ? T{0} : static_cast<T>(uint64_t(a) << amount);
  }
  static T Sra(T a, T b) {
    const uint64_t amount = static_cast<U>(b);
    const S s = static_cast<S>(a);
    if (amount >= kBits) return s < 0 ? static_cast<T>(-1) : T{0};
    return static_cast<T>(s >> amount);
  }
  static T Srl(T a, T b) {
    const uint64_t amount = static_cast<U>(b);
    return amount >= kBits ? T{0} : static_cast<T>(static_cast<U>(a) >> amount);
  }
};

template <typename T>
void CheckIntegerOps(int sm, const std::string& type_name) {
  using R = IntegerReference<T>;
  constexpr int kN = 255;
  std::mt19937_64 random(7);
  std::vector<T> x(kN), y(kN);
  const T edges[] = {std::numeric_limits<T>::min(),
                     std::numeric_limits<T>::max(), T{0}, static_cast<T>(-1),
                     T{1}};
  for (int i = 0; i < kN; ++i) {
    x[i] = i < 5 ? edges[i] : static_cast<T>(random());
    // Shift amounts around the width, and arbitrary values.
    y[i] = i % 3 == 0 ? static_cast<T>(random())
                      : static_cast<T>(random() % (R::kBits + 4));
    if (std::is_signed_v<T> && i % 7 == 0) y[i] = static_cast<T>(-y[i]);
  }
  auto results = RunProgram(Substitute(kIntegerOps, type_name, kN), sm,
                            {ToBytes(x), ToBytes(y)});
  ASSERT_TRUE(results.has_value());
  const std::vector<T> selected = FromBytes<T>(results->at(0));
  const std::vector<uint8_t> less = results->at(1);
  const std::vector<T> shifted_left = FromBytes<T>(results->at(2));
  const std::vector<T> shifted_right = FromBytes<T>(results->at(3));
  ASSERT_EQ(selected.size(), kN);
  const T k = 3;
  for (int i = 0; i < kN; ++i) {
    const T v0 = R::Add(x[i], y[i]);
    const T v1 = R::Sub(v0, k);
    const T v2 = R::Mul(v1, y[i]);
    const T v3 = static_cast<T>(v2 & x[i]);
    const T v4 = static_cast<T>(v3 | y[i]);
    const T v5 = static_cast<T>(v4 ^ v0);
    const T v6 = R::Shl(v5, k);
    const T v7 = R::Sra(v6, y[i]);
    const T v8 = R::Srl(v7, k);
    const T v9 = std::max(v8, x[i]);
    const T v10 = std::min(v9, y[i]);
    const T v11 = R::Sub(T{0}, v10);
    const T v12 = static_cast<T>(~v11);
    const T v13 = std::min(std::max(v12, k), y[i]);
    const bool v14 = v13 < x[i];
    const T v15 = v14 ? v13 : x[i];
    EXPECT_EQ(selected[i], v15) << type_name << " element " << i;
    EXPECT_EQ(less[i], v14 ? 1 : 0) << type_name << " element " << i;
    EXPECT_EQ(shifted_left[i], R::Shl(v0, y[i]))
        << type_name << " element " << i << ": " << +v0 << " << " << +y[i];
    EXPECT_EQ(shifted_right[i], R::Srl(v0, y[i]))
        << type_name << " element " << i << ": " << +v0 << " >> " << +y[i];
  }
}

TEST_P(EmittedKernelTest, IntegerOpsI8) { CheckIntegerOps<int8_t>(sm(), "i8"); }
TEST_P(EmittedKernelTest, IntegerOpsU8) {
  CheckIntegerOps<uint8_t>(sm(), "ui8");
}
TEST_P(EmittedKernelTest, IntegerOpsU16) {
  CheckIntegerOps<uint16_t>(sm(), "ui16");
}
TEST_P(EmittedKernelTest, IntegerOpsI32) {
  CheckIntegerOps<int32_t>(sm(), "i32");
}
TEST_P(EmittedKernelTest, IntegerOpsU32) {
  CheckIntegerOps<uint32_t>(sm(), "ui32");
}
TEST_P(EmittedKernelTest, IntegerOpsI64) {
  CheckIntegerOps<int64_t>(sm(), "i64");
}
TEST_P(EmittedKernelTest, IntegerOpsU64) {
  CheckIntegerOps<uint64_t>(sm(), "ui64");
}

// --- Comparisons, predicates, select and clamp ---

constexpr char kCompareSelect[] = R"(
func.func @main(%x: tensor<$Nxf32>, %y: tensor<$Nxf32>, %lo: tensor<f32>, %hi: tensor<f32>, %p: tensor<i1>) -> (tensor<$Nxf32>, tensor<$Nxi1>, tensor<$Nxi1>) {
  %nz = stablehlo.constant dense<-0.0> : tensor<f32>
  %nzb = stablehlo.broadcast_in_dim %nz, dims = [] : (tensor<f32>) -> tensor<$Nxf32>
  %x1 = stablehlo.add %x, %nzb : tensor<$Nxf32>
  %gt = stablehlo.compare GT, %x1, %y, FLOAT : (tensor<$Nxf32>, tensor<$Nxf32>) -> tensor<$Nxi1>
  %ne = stablehlo.compare NE, %x1, %y : (tensor<$Nxf32>, tensor<$Nxf32>) -> tensor<$Nxi1>
  %both = stablehlo.and %gt, %ne : tensor<$Nxi1>
  %either = stablehlo.or %both, %gt : tensor<$Nxi1>
  %flip = stablehlo.not %either : tensor<$Nxi1>
  %odd = stablehlo.xor %flip, %ne : tensor<$Nxi1>
  %same = stablehlo.compare EQ, %odd, %gt : (tensor<$Nxi1>, tensor<$Nxi1>) -> tensor<$Nxi1>
  %pick = stablehlo.select %same, %x1, %y : tensor<$Nxi1>, tensor<$Nxf32>
  %clamped = stablehlo.clamp %lo, %pick, %hi : (tensor<f32>, tensor<$Nxf32>, tensor<f32>) -> tensor<$Nxf32>
  %chosen = stablehlo.select %p, %same, %gt : tensor<i1>, tensor<$Nxi1>
  %r = stablehlo.select %chosen, %clamped, %x1 : tensor<$Nxi1>, tensor<$Nxf32>
  %le = stablehlo.compare LE, %clamped, %y : (tensor<$Nxf32>, tensor<$Nxf32>) -> tensor<$Nxi1>
  func.return %r, %chosen, %le : tensor<$Nxf32>, tensor<$Nxi1>, tensor<$Nxi1>
}
)";

TEST_P(EmittedKernelTest, CompareSelectAndClamp) {
  constexpr int kN = 199;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> x = FloatInputs(kN, -4, 4, 11, {nan, 1, -0.0f});
  std::vector<float> y = FloatInputs(kN, -4, 4, 12, {nan, nan, 0.0f});
  // Ties, so that EQ, NE and LE see equal operands.
  for (int i = 0; i < kN; i += 5) y[i] = x[i];
  const float lo = -1.5f, hi = 2.5f;
  for (uint8_t p : {uint8_t{0}, uint8_t{1}}) {
    auto results = RunProgram(Substitute(kCompareSelect, "f32", kN), sm(),
                              {ToBytes(x), ToBytes(y), ToBytes(std::vector{lo}),
                               ToBytes(std::vector{hi}), Bytes{p}});
    ASSERT_TRUE(results.has_value());
    const std::vector<float> r = FromBytes<float>(results->at(0));
    const Bytes& chosen = results->at(1);
    const Bytes& le = results->at(2);
    for (int i = 0; i < kN; ++i) {
      const bool gt = x[i] > y[i];
      const bool ne = !(x[i] == y[i]);  // True when either is NaN.
      const bool either = (gt && ne) || gt;
      const bool odd = !either != ne;
      const bool same = odd == gt;
      const float pick = same ? x[i] : y[i];
      const float clamped = Minimum(Maximum(pick, lo), hi);
      const bool chose = p != 0 ? same : gt;
      EXPECT_TRUE(SameFloat(r[i], chose ? clamped : x[i]))
          << "p " << +p << " element " << i;
      EXPECT_EQ(chosen[i], chose ? 1 : 0) << "p " << +p << " element " << i;
      EXPECT_EQ(le[i], clamped <= y[i] ? 1 : 0) << "element " << i;
    }
  }
}

// --- Conversions ---

constexpr char kConversions[] = R"(
func.func @main(%x0: tensor<$Nxf32>) -> (tensor<$Nxf32>, tensor<$Nxi16>, tensor<$Nxf16>, tensor<$Nxi1>, tensor<$Nxf64>, tensor<$Nxbf16>, tensor<$Nxi32>, tensor<$Nxui32>, tensor<$Nxi64>) {
  %nz = stablehlo.constant dense<-0.0> : tensor<f32>
  %nzb = stablehlo.broadcast_in_dim %nz, dims = [] : (tensor<f32>) -> tensor<$Nxf32>
  %x = stablehlo.add %x0, %nzb : tensor<$Nxf32>
  %0 = stablehlo.convert %x : (tensor<$Nxf32>) -> tensor<$Nxi32>
  %1 = stablehlo.convert %0 : (tensor<$Nxi32>) -> tensor<$Nxf64>
  %2 = stablehlo.convert %1 : (tensor<$Nxf64>) -> tensor<$Nxbf16>
  %3 = stablehlo.convert %2 : (tensor<$Nxbf16>) -> tensor<$Nxf16>
  %4 = stablehlo.convert %3 : (tensor<$Nxf16>) -> tensor<$Nxi8>
  %5 = stablehlo.convert %4 : (tensor<$Nxi8>) -> tensor<$Nxi64>
  %6 = stablehlo.convert %5 : (tensor<$Nxi64>) -> tensor<$Nxbf16>
  %7 = stablehlo.convert %6 : (tensor<$Nxbf16>) -> tensor<$Nxf32>
  %8 = stablehlo.convert %7 : (tensor<$Nxf32>) -> tensor<$Nxui8>
  %9 = stablehlo.convert %8 : (tensor<$Nxui8>) -> tensor<$Nxi1>
  %10 = stablehlo.convert %9 : (tensor<$Nxi1>) -> tensor<$Nxf32>
  %11 = stablehlo.convert %x : (tensor<$Nxf32>) -> tensor<$Nxi1>
  %12 = stablehlo.convert %1 : (tensor<$Nxf64>) -> tensor<$Nxf16>
  %13 = stablehlo.convert %x : (tensor<$Nxf32>) -> tensor<$Nxui64>
  %14 = stablehlo.convert %13 : (tensor<$Nxui64>) -> tensor<$Nxf32>
  %15 = stablehlo.convert %x : (tensor<$Nxf32>) -> tensor<$Nxf64>
  %16 = stablehlo.convert %15 : (tensor<$Nxf64>) -> tensor<$Nxi64>
  %17 = stablehlo.convert %16 : (tensor<$Nxi64>) -> tensor<$Nxi16>
  %18 = stablehlo.convert %17 : (tensor<$Nxi16>) -> tensor<$Nxui32>
  %19 = stablehlo.convert %18 : (tensor<$Nxui32>) -> tensor<$Nxf16>
  %20 = stablehlo.convert %11 : (tensor<$Nxi1>) -> tensor<$Nxbf16>
  %21 = stablehlo.convert %9 : (tensor<$Nxi1>) -> tensor<$Nxi32>
  %22 = stablehlo.add %14, %10 : tensor<$Nxf32>
  %23 = stablehlo.convert %16 : (tensor<$Nxi64>) -> tensor<$Nxf32>
  %24 = stablehlo.add %22, %23 : tensor<$Nxf32>
  func.return %24, %17, %19, %11, %15, %20, %21, %18, %16 : tensor<$Nxf32>, tensor<$Nxi16>, tensor<$Nxf16>, tensor<$Nxi1>, tensor<$Nxf64>, tensor<$Nxbf16>, tensor<$Nxi32>, tensor<$Nxui32>, tensor<$Nxi64>
}
)";

// Float to integer: truncate, saturate, NaN to 0.
template <typename I>
I ToInteger(double value) {
  if (std::isnan(value)) return 0;
  const double t = std::trunc(value);
  if (t <= static_cast<double>(std::numeric_limits<I>::min())) {
    return std::numeric_limits<I>::min();
  }
  // max + 1, a power of two, is exact.
  const double end = std::ldexp(1.0, std::numeric_limits<I>::digits);
  if (t >= end) return std::numeric_limits<I>::max();
  return static_cast<I>(t);
}

TEST_P(EmittedKernelTest, ConversionsBetweenIntegerAndFloatTypes) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> specials = {std::numeric_limits<float>::quiet_NaN(),
                                       inf,
                                       -inf,
                                       0.0f,
                                       -0.0f,
                                       0.5f,
                                       -0.5f,
                                       127.9f,
                                       -128.9f,
                                       255.5f,
                                       300.0f,
                                       -300.0f,
                                       65504.0f,
                                       65520.0f,
                                       3e9f,
                                       -3e9f,
                                       1.8e19f,  // Near the top of u64.
                                       2e19f,
                                       16777217.0f,
                                       257.0f,
                                       1e-30f};
  constexpr int kN = 301;
  std::vector<float> x = FloatInputs(kN, -70000, 70000, 21, specials);
  auto results =
      RunProgram(Substitute(kConversions, "", kN), sm(), {ToBytes(x)});
  ASSERT_TRUE(results.has_value());
  const auto sum = FromBytes<float>(results->at(0));
  const auto narrow = FromBytes<int16_t>(results->at(1));
  const auto half = FromBytes<uint16_t>(results->at(2));
  const Bytes& nonzero = results->at(3);
  const auto wide = FromBytes<double>(results->at(4));
  const auto bf16 = FromBytes<uint16_t>(results->at(5));
  const auto ones = FromBytes<int32_t>(results->at(6));
  const auto unsigned32 = FromBytes<uint32_t>(results->at(7));
  const auto integer64 = FromBytes<int64_t>(results->at(8));
  for (int i = 0; i < kN; ++i) {
    const float v = x[i];
    const int32_t v0 = ToInteger<int32_t>(v);
    const double v1 = v0;
    const uint16_t v2 = pjrtx::ir::DoubleToBFloat16(v1);
    const uint16_t v3 = pjrtx::ir::FloatToHalf(pjrtx::ir::BFloat16ToFloat(v2));
    const int8_t v4 = ToInteger<int8_t>(pjrtx::ir::HalfToFloat(v3));
    const int64_t v5 = v4;
    const uint16_t v6 = pjrtx::ir::DoubleToBFloat16(static_cast<double>(v5));
    const float v7 = pjrtx::ir::BFloat16ToFloat(v6);
    const uint8_t v8 = ToInteger<uint8_t>(v7);
    const bool v9 = v8 != 0;
    const float v10 = v9 ? 1.0f : 0.0f;
    const bool v11 = v != 0;  // NaN is nonzero.
    const uint16_t v12 = pjrtx::ir::DoubleToHalf(v1);
    const uint64_t v13 = ToInteger<uint64_t>(v);
    const float v14 = static_cast<float>(v13);
    const double v15 = v;
    const int64_t v16 = ToInteger<int64_t>(v15);
    const int16_t v17 = static_cast<int16_t>(v16);
    const uint32_t v18 = static_cast<uint32_t>(static_cast<int32_t>(v17));
    const uint16_t v19 = pjrtx::ir::DoubleToHalf(static_cast<double>(v18));
    const uint16_t v20 = pjrtx::ir::FloatToBFloat16(v11 ? 1.0f : 0.0f);
    const int32_t v21 = v9 ? 1 : 0;
    const float v22 = v14 + v10;
    const float v23 = static_cast<float>(v16);
    const float v24 = v22 + v23;
    static_cast<void>(v12);
    EXPECT_TRUE(SameFloat(sum[i], v24)) << "element " << i << ": " << v;
    EXPECT_EQ(narrow[i], v17) << "element " << i << ": " << v;
    EXPECT_TRUE(SameHalf<F16>(half[i], v19)) << "element " << i << ": " << v;
    EXPECT_EQ(nonzero[i], v11 ? 1 : 0) << "element " << i << ": " << v;
    EXPECT_TRUE(SameFloat(wide[i], v15)) << "element " << i << ": " << v;
    EXPECT_TRUE(SameHalf<BF16>(bf16[i], v20)) << "element " << i << ": " << v;
    EXPECT_EQ(ones[i], v21) << "element " << i << ": " << v;
    EXPECT_EQ(unsigned32[i], v18) << "element " << i << ": " << v;
    EXPECT_EQ(integer64[i], v16) << "element " << i << ": " << v;
  }
}

// Rounding through f64 to f16 once (not via f32), and integers to the
// 16-bit formats (round to odd in f32, then to nearest even).
constexpr char kNarrowing[] = R"(
func.func @main(%d0: tensor<$Nxf64>, %i: tensor<$Nxi32>, %u: tensor<$Nxui64>) -> (tensor<$Nxf16>, tensor<$Nxbf16>, tensor<$Nxbf16>, tensor<$Nxf16>) {
  %nz = stablehlo.constant dense<-0.0> : tensor<f64>
  %nzb = stablehlo.broadcast_in_dim %nz, dims = [] : (tensor<f64>) -> tensor<$Nxf64>
  %d = stablehlo.add %d0, %nzb : tensor<$Nxf64>
  %0 = stablehlo.convert %d : (tensor<$Nxf64>) -> tensor<$Nxf16>
  %1 = stablehlo.convert %d : (tensor<$Nxf64>) -> tensor<$Nxbf16>
  %di = stablehlo.convert %d : (tensor<$Nxf64>) -> tensor<$Nxi32>
  %zero = stablehlo.xor %di, %di : tensor<$Nxi32>
  %i1 = stablehlo.add %i, %zero : tensor<$Nxi32>
  %2 = stablehlo.convert %i1 : (tensor<$Nxi32>) -> tensor<$Nxbf16>
  %zero64 = stablehlo.convert %zero : (tensor<$Nxi32>) -> tensor<$Nxui64>
  %u1 = stablehlo.add %u, %zero64 : tensor<$Nxui64>
  %3 = stablehlo.convert %u1 : (tensor<$Nxui64>) -> tensor<$Nxf16>
  func.return %0, %1, %2, %3 : tensor<$Nxf16>, tensor<$Nxbf16>, tensor<$Nxbf16>, tensor<$Nxf16>
}
)";

TEST_P(EmittedKernelTest, NarrowingConversionsRoundOnce) {
  constexpr int kN = 64;
  std::vector<double> d(kN);
  std::vector<int32_t> integers(kN);
  std::vector<uint64_t> unsigned64(kN);
  std::mt19937_64 random(5);
  for (int i = 0; i < kN; ++i) {
    // Just above a tie of f16 (1 + 2^-11) and bf16 (1 + 2^-8): rounding
    // through f32 would land on the tie and round to even, down.
    d[i] = (i % 2 == 0 ? 1 + 0x1p-11 + 0x1p-40 : 1 + 0x1p-8 + 0x1p-40) *
           std::ldexp(1.0, static_cast<int>(i % 9) - 4);
    if (i % 4 == 3) d[i] = -d[i];
    // Integers just above a bf16 tie: 2^24 + 2^16 + 1 (f32 alone loses the
    // 1), and random ones.
    integers[i] =
        i % 2 == 0 ? (1 << 24) + (1 << 16) + 1 : static_cast<int32_t>(random());
    unsigned64[i] = i % 2 == 0 ? (uint64_t{1} << 40) + (uint64_t{1} << 29) + 1
                               : random() >> (i % 48);
  }
  auto results =
      RunProgram(Substitute(kNarrowing, "", kN), sm(),
                 {ToBytes(d), ToBytes(integers), ToBytes(unsigned64)});
  ASSERT_TRUE(results.has_value());
  const auto half = FromBytes<uint16_t>(results->at(0));
  const auto bf16 = FromBytes<uint16_t>(results->at(1));
  const auto int_bf16 = FromBytes<uint16_t>(results->at(2));
  const auto u64_half = FromBytes<uint16_t>(results->at(3));
  for (int i = 0; i < kN; ++i) {
    EXPECT_EQ(half[i], pjrtx::ir::DoubleToHalf(d[i])) << "element " << i;
    EXPECT_EQ(bf16[i], pjrtx::ir::DoubleToBFloat16(d[i])) << "element " << i;
    EXPECT_EQ(int_bf16[i], pjrtx::ir::DoubleToBFloat16(integers[i]))
        << "element " << i;
    // Every u64 here is exact in double.
    EXPECT_EQ(u64_half[i],
              pjrtx::ir::DoubleToHalf(static_cast<double>(unsigned64[i])))
        << "element " << i;
  }
}

// --- Unary float ops ---

constexpr char kUnary[] = R"(
func.func @main(%x0: tensor<$Nx$T>) -> (tensor<$Nx$T>, tensor<$Nx$T>, tensor<$Nx$T>, tensor<$Nx$T>, tensor<$Nx$T>, tensor<$Nx$T>, tensor<$Nxi1>, tensor<$Nx$T>) {
  %nz = stablehlo.constant dense<-0.0> : tensor<$T>
  %nzb = stablehlo.broadcast_in_dim %nz, dims = [] : (tensor<$T>) -> tensor<$Nx$T>
  %x = stablehlo.add %x0, %nzb : tensor<$Nx$T>
  %0 = stablehlo.abs %x : tensor<$Nx$T>
  %1 = stablehlo.sqrt %0 : tensor<$Nx$T>
  %2 = stablehlo.floor %x : tensor<$Nx$T>
  %3 = stablehlo.ceil %x : tensor<$Nx$T>
  %4 = stablehlo.round_nearest_even %x : tensor<$Nx$T>
  %5 = stablehlo.negate %x : tensor<$Nx$T>
  %6 = stablehlo.is_finite %x : (tensor<$Nx$T>) -> tensor<$Nxi1>
  %7 = stablehlo.rsqrt %0 : tensor<$Nx$T>
  func.return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<$Nx$T>, tensor<$Nx$T>, tensor<$Nx$T>, tensor<$Nx$T>, tensor<$Nx$T>, tensor<$Nx$T>, tensor<$Nxi1>, tensor<$Nx$T>
}
)";

std::vector<float> UnaryInputs(int n) {
  const float inf = std::numeric_limits<float>::infinity();
  return FloatInputs(
      n, -20, 20, 31,
      {std::numeric_limits<float>::quiet_NaN(), inf, -inf, 0.0f, -0.0f, 0.5f,
       1.5f, 2.5f, -0.5f, -2.5f, 4.0f, 1e-3f, 0.0625f});
}

// Exact round half to even.
double RoundHalfEven(double v) {
  const double r = std::round(v);  // Half away from zero.
  if (std::fabs(v - std::trunc(v)) == 0.5 && std::fmod(r, 2.0) != 0) {
    return std::copysign(r - std::copysign(1.0, v), v);  // -0.5 -> -0.
  }
  return r;
}

template <typename F>
void CheckUnary(int sm, const char* type_name) {
  constexpr int kN = 101;
  const std::vector<float> inputs = UnaryInputs(kN);
  const std::vector<F> x(inputs.begin(), inputs.end());
  auto results =
      RunProgram(Substitute(kUnary, type_name, kN), sm, {ToBytes(x)});
  ASSERT_TRUE(results.has_value());
  std::vector<std::vector<F>> out;
  for (int k : {0, 1, 2, 3, 4, 5, 7})
    out.push_back(FromBytes<F>(results->at(k)));
  const Bytes& finite = results->at(6);
  for (int i = 0; i < kN; ++i) {
    const F v = x[i];
    const F magnitude = std::fabs(v);
    EXPECT_TRUE(SameFloat(out[0][i], magnitude)) << i;
    EXPECT_TRUE(SameFloat(out[1][i], std::sqrt(magnitude))) << i;
    EXPECT_TRUE(SameFloat(out[2][i], std::floor(v))) << i;
    EXPECT_TRUE(SameFloat(out[3][i], std::ceil(v))) << i;
    EXPECT_TRUE(SameFloat(out[4][i], static_cast<F>(RoundHalfEven(v)))) << i;
    EXPECT_TRUE(SameFloat(out[5][i], -v)) << i;
    EXPECT_EQ(finite[i], std::isfinite(v) ? 1 : 0) << i;
    const F rsqrt = out[6][i];
    if constexpr (std::is_same_v<F, double>) {
      // sqrt then a correctly rounded reciprocal.
      EXPECT_TRUE(SameFloat(rsqrt, 1.0 / std::sqrt(magnitude))) << i;
    } else {
      // rsqrt.approx.f32: within a few ulp.
      const double exact = 1.0 / std::sqrt(static_cast<double>(magnitude));
      if (std::isnan(exact) || std::isinf(exact)) {
        EXPECT_TRUE(SameFloat(rsqrt, static_cast<F>(exact))) << i;
      } else {
        EXPECT_NEAR(rsqrt, exact, 4 * std::ldexp(exact, -23)) << i;
      }
    }
  }
}

TEST_P(EmittedKernelTest, UnaryF32) { CheckUnary<float>(sm(), "f32"); }
TEST_P(EmittedKernelTest, UnaryF64) { CheckUnary<double>(sm(), "f64"); }

template <typename Format>
void CheckHalfUnary(int sm) {
  constexpr int kN = 101;
  std::vector<uint16_t> x;
  for (float v : UnaryInputs(kN)) x.push_back(Format::Encode(v));
  auto results =
      RunProgram(Substitute(kUnary, Format::kName, kN), sm, {ToBytes(x)});
  ASSERT_TRUE(results.has_value());
  std::vector<std::vector<uint16_t>> out;
  for (int k : {0, 1, 2, 3, 4, 5, 7}) {
    out.push_back(FromBytes<uint16_t>(results->at(k)));
  }
  auto same = [](uint16_t actual, float expected) {
    return SameHalf<Format>(actual, Format::Encode(expected));
  };
  for (int i = 0; i < kN; ++i) {
    const float v = Format::Decode(x[i]);
    EXPECT_TRUE(same(out[0][i], std::fabs(v))) << i;
    EXPECT_TRUE(same(out[1][i], std::sqrt(std::fabs(v)))) << i;
    EXPECT_TRUE(same(out[2][i], std::floor(v))) << i;
    EXPECT_TRUE(same(out[3][i], std::ceil(v))) << i;
    EXPECT_TRUE(same(out[4][i], static_cast<float>(RoundHalfEven(v)))) << i;
    EXPECT_TRUE(same(out[5][i], -v)) << i;
    // rsqrt within one unit of the format's last place.
    const uint16_t expected =
        Format::Encode(static_cast<float>(1.0 / std::sqrt(std::fabs(v))));
    const uint16_t actual = out[6][i];
    if (std::isnan(Format::Decode(expected))) {
      EXPECT_TRUE(std::isnan(Format::Decode(actual))) << i;
    } else {
      EXPECT_LE(std::abs(int{actual} - int{expected}), 1) << i;
    }
  }
}

TEST_P(EmittedKernelTest, UnaryF16) { CheckHalfUnary<F16>(sm()); }
TEST_P(EmittedKernelTest, UnaryBF16) { CheckHalfUnary<BF16>(sm()); }

// --- Exponential and log: the approximations, within a tolerance ---

constexpr char kTranscendental[] = R"(
func.func @main(%x0: tensor<$Nx$T>) -> (tensor<$Nx$T>, tensor<$Nx$T>) {
  %nz = stablehlo.constant dense<-0.0> : tensor<$T>
  %nzb = stablehlo.broadcast_in_dim %nz, dims = [] : (tensor<$T>) -> tensor<$Nx$T>
  %x = stablehlo.add %x0, %nzb : tensor<$Nx$T>
  %0 = stablehlo.exponential %x : tensor<$Nx$T>
  %1 = stablehlo.log %x : tensor<$Nx$T>
  func.return %0, %1 : tensor<$Nx$T>, tensor<$Nx$T>
}
)";

// Half the inputs where exp is interesting, half where log is; each op
// sees all (exp overflowing to infinity, log of negatives giving NaN).
std::vector<float> TranscendentalInputs(int n) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> x = FloatInputs(
      n, -20, 20, 41,
      {0.0f, -0.0f, 1.0f, -1.0f, inf, -inf, nan, 80, 1e-30f, 1.0001f});
  const std::vector<float> positive = FloatInputs(n, 1e-3f, 1e4f, 42);
  for (int i = 0; i < n; i += 2) x[i] = positive[i];
  return x;
}

// Within `tolerance` relative, or both the same non-finite value.
::testing::AssertionResult Near(double actual, double expected,
                                double tolerance) {
  if (std::isnan(expected) || std::isinf(expected) || expected == 0) {
    if ((std::isnan(actual) && std::isnan(expected)) || actual == expected) {
      return ::testing::AssertionSuccess();
    }
  } else if (std::fabs(actual - expected) <= tolerance * std::fabs(expected)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "got " << actual << ", expected " << expected;
}

TEST_P(EmittedKernelTest, ExponentialAndLogF32) {
  constexpr int kN = 257;
  const std::vector<float> x = TranscendentalInputs(kN);
  auto results =
      RunProgram(Substitute(kTranscendental, "f32", kN), sm(), {ToBytes(x)});
  ASSERT_TRUE(results.has_value());
  const auto exp = FromBytes<float>(results->at(0));
  const auto log = FromBytes<float>(results->at(1));
  for (int i = 0; i < kN; ++i) {
    // exp(x) = 2^(x log2 e): rounding x log2 e costs up to |x| 2^-24 in
    // the exponent.
    EXPECT_TRUE(Near(exp[i], static_cast<float>(std::exp(double{x[i]})), 2e-5))
        << "exp(" << x[i] << ")";
    EXPECT_TRUE(Near(log[i], std::log(double{x[i]}), 1e-6))
        << "log(" << x[i] << ")";
  }
}

template <typename Format>
void CheckHalfTranscendental(int sm) {
  constexpr int kN = 129;
  std::vector<uint16_t> x;
  for (float v : TranscendentalInputs(kN)) x.push_back(Format::Encode(v));
  auto results = RunProgram(Substitute(kTranscendental, Format::kName, kN), sm,
                            {ToBytes(x)});
  ASSERT_TRUE(results.has_value());
  const auto exp = FromBytes<uint16_t>(results->at(0));
  const auto log = FromBytes<uint16_t>(results->at(1));
  // One rounding to the format after an f32 result within 2^-17: at most
  // one unit of the format's last place off the correctly rounded value.
  auto check = [](uint16_t actual, double exact, const char* what, float v) {
    const uint16_t expected = Format::Encode(static_cast<float>(exact));
    if (std::isnan(Format::Decode(expected))) {
      EXPECT_TRUE(std::isnan(Format::Decode(actual)))
          << what << "(" << v << ")";
    } else {
      EXPECT_LE(std::abs(int{actual} - int{expected}), 1)
          << what << "(" << v << ") = " << Format::Decode(actual)
          << ", expected " << exact;
    }
  };
  for (int i = 0; i < kN; ++i) {
    const float v = Format::Decode(x[i]);
    check(exp[i], std::exp(double{v}), "exp", v);
    check(log[i], std::log(double{v}), "log", v);
  }
}

TEST_P(EmittedKernelTest, ExponentialAndLogF16) {
  CheckHalfTranscendental<F16>(sm());
}
TEST_P(EmittedKernelTest, ExponentialAndLogBF16) {
  CheckHalfTranscendental<BF16>(sm());
}

// The module text differs by target only in .version and .target; every
// target the emitter knows runs the same.
TEST(EveryEmitterTargetTest, ChainAndIntegerOps) {
  for (int sm : {75, 80, 86, 87, 89, 90, 100, 103, 110, 120, 121}) {
    CheckChainF32(sm, 64, {});
    CheckIntegerOps<int64_t>(sm, "i64");
  }
}

INSTANTIATE_TEST_SUITE_P(AmpereAndHopper, EmittedKernelTest,
                         ::testing::Values(80, 90),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return absl::StrCat("sm", info.param);
                         });

// --- A launch of a million elements, timed ---

TEST(PtxInterpreterSpeedTest, MillionElementChainMatchesReference) {
  constexpr int kN = 1 << 20;
  const ChainInputs in = MakeChainInputs(kN);
  const std::string text = Substitute(kChain, "f32", kN);
  std::optional<Emitted> emitted = Emit(text, 80);
  ASSERT_TRUE(emitted.has_value());
  // Instructions per element: the loop body, from its label to the branch
  // back.
  const size_t loop = emitted->ptx.find("$L__loop:\n");
  const size_t back = emitted->ptx.find("bra $L__loop;");
  ASSERT_NE(loop, std::string::npos);
  ASSERT_NE(back, std::string::npos);
  const int64_t per_element = std::count(emitted->ptx.begin() + loop,
                                         emitted->ptx.begin() + back, ';') +
                              1;
  Geometry geometry;
  geometry.grid = {1024, 1, 1};
  geometry.block = {256, 1, 1};
  double seconds = 0;
  auto results = RunProgram(text, 80,
                            {ToBytes(in.x), ToBytes(in.e), ToBytes(in.f),
                             ToBytes(in.g), ToBytes(std::vector{in.s})},
                            geometry, &seconds);
  ASSERT_TRUE(results.has_value());
  const std::vector<float> y = FromBytes<float>(results->at(0));
  ASSERT_EQ(y.size(), kN);
  auto identity = [](float v) { return v; };
  int mismatches = 0;
  for (int i = 0; i < kN; ++i) {
    if (!SameFloat(y[i], ChainReference(in.x[i], in.e[i], in.f[i], in.g[i],
                                        in.s, identity))) {
      ++mismatches;
    }
  }
  EXPECT_EQ(mismatches, 0);
  std::printf(
      "f32 chain: %d elements in %.3f s: %.1f M elements/s, %.1f M "
      "instructions/s (%lld per element)\n",
      kN, seconds, kN / seconds / 1e6, kN * per_element / seconds / 1e6,
      static_cast<long long>(per_element));
}

// --- Errors ---

std::string EmittedChain() {
  std::optional<Emitted> emitted = Emit(Substitute(kChain, "f32", 16), 80);
  return emitted ? emitted->ptx : std::string();
}

int LineOf(const std::string& text, size_t position) {
  return 1 + static_cast<int>(
                 std::count(text.begin(), text.begin() + position, '\n'));
}

TEST(PtxInterpreterErrorTest, UnsupportedInstructionNamesItsLine) {
  std::string ptx = EmittedChain();
  const size_t at = ptx.find("div.rn.f32");
  ASSERT_NE(at, std::string::npos);
  ptx.replace(at, 10, "div.xyz.f32");
  std::string error;
  EXPECT_EQ(PtxModule::Parse(ptx, &error), nullptr);
  EXPECT_EQ(error, absl::StrCat("line ", LineOf(ptx, at),
                                ": unsupported instruction 'div.xyz.f32'"));
}

TEST(PtxInterpreterErrorTest, AccessOutsideMemoryFailsNamingTheAddress) {
  const std::string ptx = EmittedChain();
  std::string error;
  std::unique_ptr<PtxModule> module = PtxModule::Parse(ptx, &error);
  ASSERT_NE(module, nullptr) << error;
  const PtxKernel* kernel = module->Find("main_fusion0");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(module->Find("main_fusion1"), nullptr);
  DeviceMemory memory;
  std::vector<Bytes> params;
  for (size_t i = 0; i + 2 < kernel->param_sizes().size(); ++i) {
    params.push_back(U64Param(memory.Allocate(16 * sizeof(float))));
  }
  params.push_back(U64Param(0xdead0000));  // out0: not device memory.
  params.push_back(U64Param(16));
  EXPECT_FALSE(
      kernel->Run({1, 1, 1}, {4, 1, 1}, params, memory.Translator(), &error));
  EXPECT_THAT(error, HasSubstr("0xdead0000"));
  EXPECT_THAT(error, HasSubstr("main_fusion0"));
  EXPECT_THAT(error, HasSubstr("st.global.f32"));
  // And a launch with a parameter missing.
  params.pop_back();
  EXPECT_FALSE(
      kernel->Run({1, 1, 1}, {4, 1, 1}, params, memory.Translator(), &error));
  EXPECT_THAT(error, HasSubstr("parameters"));
}

TEST(PtxInterpreterErrorTest, MalformedEntriesNameTheLine) {
  struct Case {
    std::string text;
    std::string error;
  };
  const std::string header = ".version 7.8\n.target sm_80\n.address_size 64\n";
  for (const Case& c : std::vector<Case>{
           {header + ".visible .entry (\n.param .u64 a\n)\n{\nret;\n}\n",
            "line 4: expected the kernel name after .entry, found '('"},
           {header + ".visible .entry k(\n.param .u64 a\n{\nret;\n}\n",
            "line 6: expected ')', found '{'"},
           {header + ".visible .entry k(\n.param a\n)\n{\nret;\n}\n",
            "line 5: expected a parameter type, found 'a'"},
           {header + ".visible .entry k()\n{\nret;\n",
            "line 7: missing '}' at the end of kernel 'k'"},
           {header + ".visible .entry k()\n.maxntid 64\n{\nret;\n}\n",
            "line 5: unsupported directive '.maxntid' on kernel 'k'"},
           {header + ".visible .func f()\n{\nret;\n}\n",
            "line 4: unsupported directive '.func'"},
           {header +
                ".visible .entry k()\n{\n.reg .b32 %r;\nmov.b32 1, %r;\n}\n",
            "line 7: cannot write to the literal"},
           {header + ".visible .entry k()\n{\nadd.s32 %r1, %r1, 1;\n}\n",
            "line 6: undeclared register '%r1'"},
           {header + ".visible .entry k()\n{\nbra $L;\n}\n",
            "line 6: undefined label '$L'"},
           {".version 7.8\n.address_size 32\n",
            "line 2: unsupported .address_size 32"},
       }) {
    std::string error;
    EXPECT_EQ(PtxModule::Parse(c.text, &error), nullptr) << c.text;
    EXPECT_THAT(error, StartsWith(c.error)) << c.text;
  }
}

}  // namespace
}  // namespace fake_cuda
