// dot_general through cuBLASLt: libpjrt_cuda.so through the C ABI on the
// fake driver (fake_cuda/) and the fake cuBLASLt (fake_cublaslt/), which
// counts the matmuls it runs. Plain, batched and transposed-rhs dots of
// f32, bf16 and FP8 must equal a host reference within the tolerance of
// their types, computed by cuBLASLt where it can run them and by the PTX
// kernel where it cannot: the library missing (cuda.cublaslt_missing), its
// heuristic offering no algorithm (cuda.cublaslt_no_algorithm). A matmul
// failing in cuBLASLt fails the run, naming it (cuda.cublaslt_fault).
#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/client/client.h"
#include "runtime/client/executable.h"

namespace {

using ::pjrtx::client::Buffer;
using ::pjrtx::client::Client;
using ::pjrtx::client::Device;
using ::pjrtx::client::Executable;
using ::pjrtx::client::PluginLibrary;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// What the ctest entry running the test set up.
enum class Mode { kCublasLt, kMissing, kNoAlgorithm, kMatmulFails };

bool Set(const char* variable) {
  const char* value = std::getenv(variable);
  return value != nullptr && *value != '\0';
}

Mode CurrentMode() {
  if (Set("FAKE_CUBLASLT_NO_ALGORITHM")) return Mode::kNoAlgorithm;
  if (Set("FAKE_CUBLASLT_FAIL")) return Mode::kMatmulFails;
  const char* path = std::getenv("PJRTX_CUBLASLT_PATH");
  if (path == nullptr || dlopen(path, RTLD_NOW | RTLD_LOCAL) == nullptr) {
    return Mode::kMissing;
  }
  return Mode::kCublasLt;
}

// The fake's count of the matmuls queued so far; 0 without the fake.
int64_t CublasLtMatmuls() {
  const char* path = std::getenv("PJRTX_CUBLASLT_PATH");
  if (path == nullptr) return 0;
  // The plugin loaded it: this finds the same library and its counter.
  void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  if (library == nullptr) return 0;
  auto count = reinterpret_cast<int64_t (*)()>(
      dlsym(library, "fakeCublasLtMatmulCount"));
  return count != nullptr ? count() : 0;
}

// Element types of the tests, stored as the plugin stores them.
enum class Type { kF32, kBF16, kF8 };

const char* Mlir(Type type) {
  switch (type) {
    case Type::kF32:
      return "f32";
    case Type::kBF16:
      return "bf16";
    case Type::kF8:
      return "f8E4M3FN";
  }
  return "";
}

PJRTX_Buffer_Type BufferType(Type type) {
  switch (type) {
    case Type::kF32:
      return PJRTX_Buffer_Type_F32;
    case Type::kBF16:
      return PJRTX_Buffer_Type_BF16;
    case Type::kF8:
      return PJRTX_Buffer_Type_F8E4M3FN;
  }
  return PJRTX_Buffer_Type_F32;
}

size_t Bytes(Type type) {
  return type == Type::kF32 ? 4 : type == Type::kBF16 ? 2 : 1;
}

uint16_t ToBf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return static_cast<uint16_t>((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
}

float FromBf16(uint16_t half) {
  const uint32_t bits = uint32_t{half} << 16;
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

// Values of the form k/8 with |k| <= 16 are exact in E4M3FN (3 mantissa
// bits): its encoding, by search over the 126 finite non-negative codes.
uint8_t ToF8(float value) {
  uint8_t best = 0;
  float best_error = INFINITY;
  for (int code = 0; code < 0x7F; ++code) {
    const int exponent = code >> 3;
    const int mantissa = code & 7;
    const float magnitude =
        exponent == 0 ? std::ldexp(mantissa / 8.0f, -6)
                      : std::ldexp(1.0f + mantissa / 8.0f, exponent - 7);
    const float error = std::fabs(std::fabs(value) - magnitude);
    if (error < best_error) {
      best_error = error;
      best = static_cast<uint8_t>(code);
    }
  }
  return value < 0 ? static_cast<uint8_t>(best | 0x80) : best;
}

// A host array of `type` holding `values` (already representable).
std::vector<uint8_t> Encode(Type type, const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * Bytes(type));
  for (size_t i = 0; i < values.size(); ++i) {
    if (type == Type::kF32) {
      std::memcpy(&bytes[i * 4], &values[i], 4);
    } else if (type == Type::kBF16) {
      const uint16_t half = ToBf16(values[i]);
      std::memcpy(&bytes[i * 2], &half, 2);
    } else {
      bytes[i] = ToF8(values[i]);
    }
  }
  return bytes;
}

std::vector<float> Decode(Type type, const std::vector<uint8_t>& bytes) {
  std::vector<float> values(bytes.size() / Bytes(type));
  for (size_t i = 0; i < values.size(); ++i) {
    if (type == Type::kF32) {
      std::memcpy(&values[i], &bytes[i * 4], 4);
    } else {
      uint16_t half;
      std::memcpy(&half, &bytes[i * 2], 2);
      values[i] = FromBf16(half);
    }
  }
  return values;
}

// Random values exact in `type`: multiples of 1/8 in [-2, 2] for FP8 and
// bf16 (exact in both), any f32 in [-1, 1] for f32.
std::vector<float> Values(Type type, size_t n, uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<float> values(n);
  for (float& value : values) {
    if (type == Type::kF32) {
      value = std::uniform_real_distribution<float>(-1.0f, 1.0f)(random);
    } else {
      value = static_cast<float>(
                  std::uniform_int_distribution<int>(-16, 16)(random)) /
              8.0f;
    }
  }
  return values;
}

// A dot_general of its shapes and types: lhs [batch..., m, k] and rhs
// [batch..., k, n], or [batch..., n, k] when `rhs_transposed`.
struct Dot {
  Dot(int64_t m, int64_t n, int64_t k) : m(m), n(n), k(k) {}
  Dot& Batch(std::vector<int64_t> dims) {
    batch = std::move(dims);
    return *this;
  }
  Dot& TransposedRhs() {
    rhs_transposed = true;
    return *this;
  }
  Dot& Types(Type operand_type, Type result_type) {
    operands = operand_type;
    result = result_type;
    return *this;
  }

  std::vector<int64_t> batch;
  int64_t m = 1, n = 1, k = 1;
  bool rhs_transposed = false;
  Type operands = Type::kF32;
  Type result = Type::kF32;

  std::vector<int64_t> LhsDims() const { return With({m, k}); }
  std::vector<int64_t> RhsDims() const {
    return With(rhs_transposed ? std::vector<int64_t>{n, k}
                               : std::vector<int64_t>{k, n});
  }
  std::vector<int64_t> ResultDims() const { return With({m, n}); }
  int64_t Batches() const {
    int64_t count = 1;
    for (int64_t b : batch) count *= b;
    return count;
  }

  std::string Program() const {
    auto tensor = [](const std::vector<int64_t>& dims, Type type) {
      return absl::StrCat("tensor<", absl::StrJoin(dims, "x"), "x", Mlir(type),
                          ">");
    };
    const std::string lhs = tensor(LhsDims(), operands);
    const std::string rhs = tensor(RhsDims(), operands);
    const std::string out = tensor(ResultDims(), result);
    std::vector<int64_t> batching;
    for (size_t d = 0; d < batch.size(); ++d) batching.push_back(d);
    const int64_t rank = static_cast<int64_t>(batch.size());
    std::string numbers;
    if (!batching.empty()) {
      numbers = absl::StrCat("batching_dims = [", absl::StrJoin(batching, ", "),
                             "] x [", absl::StrJoin(batching, ", "), "], ");
    }
    absl::StrAppend(&numbers, "contracting_dims = [", rank + 1, "] x [",
                    rhs_transposed ? rank + 1 : rank, "]");
    return absl::StrCat("func.func @main(%a: ", lhs, ", %b: ", rhs, ") -> ",
                        out, " {\n  %0 = stablehlo.dot_general %a, %b, ",
                        numbers, " : (", lhs, ", ", rhs, ") -> ", out,
                        "\n  func.return %0 : ", out, "\n}\n");
  }

  // The exact product of `lhs` and `rhs` in double, and for each element
  // the sum of the magnitudes of its products (what rounding scales with).
  void Reference(const std::vector<float>& lhs, const std::vector<float>& rhs,
                 std::vector<double>* want, std::vector<double>* scale) const {
    want->assign(Batches() * m * n, 0.0);
    scale->assign(want->size(), 0.0);
    for (int64_t p = 0; p < Batches(); ++p) {
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          double sum = 0, magnitude = 0;
          for (int64_t l = 0; l < k; ++l) {
            const double x = lhs[(p * m + i) * k + l];
            const double y = rhs_transposed ? rhs[(p * n + j) * k + l]
                                            : rhs[(p * k + l) * n + j];
            sum += x * y;
            magnitude += std::fabs(x * y);
          }
          (*want)[(p * m + i) * n + j] = sum;
          (*scale)[(p * m + i) * n + j] = magnitude;
        }
      }
    }
  }

 private:
  std::vector<int64_t> With(std::vector<int64_t> last) const {
    std::vector<int64_t> dims = batch;
    dims.insert(dims.end(), last.begin(), last.end());
    return dims;
  }
};

class CublasLtTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto library = PluginLibrary::Load(CUDA_PLUGIN);
    ASSERT_TRUE(library.ok()) << library.status();
    auto client = Client::Create(*library, {});
    ASSERT_TRUE(client.ok()) << client.status();
    client_ = std::make_unique<Client>(*std::move(client));
    devices_ = client_->addressable_devices();
    ASSERT_FALSE(devices_.empty());
  }

  // Compiles and runs `dot` on random operands on every GPU and checks
  // the result against the host: `cublaslt` says whether cuBLASLt (rather
  // than the kernel) must have computed it.
  void Check(const Dot& dot, bool cublaslt) {
    auto executable = Executable::Compile(*client_, dot.Program());
    ASSERT_TRUE(executable.ok()) << executable.status() << "\n"
                                 << dot.Program();
    const std::vector<int64_t> lhs_dims = dot.LhsDims();
    const std::vector<int64_t> rhs_dims = dot.RhsDims();
    const std::vector<float> lhs =
        Values(dot.operands, dot.Batches() * dot.m * dot.k, 1);
    const std::vector<float> rhs =
        Values(dot.operands, dot.Batches() * dot.k * dot.n, 2);
    std::vector<double> want, scale;
    dot.Reference(lhs, rhs, &want, &scale);
    // Sums in f32 (cuBLASLt) or f64 (the kernel) of up to 64 products,
    // each rounding by at most 2^-24 of the magnitudes so far; a bf16
    // result rounds once more, by up to 2^-8.
    const double epsilon = dot.result == Type::kBF16 ? 1.0 / 128 : 1e-5;
    for (const Device& device : devices_) {
      const std::vector<uint8_t> lhs_bytes = Encode(dot.operands, lhs);
      const std::vector<uint8_t> rhs_bytes = Encode(dot.operands, rhs);
      auto a = client_->BufferFromHost(
          lhs_bytes.data(), BufferType(dot.operands), lhs_dims, device);
      auto b = client_->BufferFromHost(
          rhs_bytes.data(), BufferType(dot.operands), rhs_dims, device);
      ASSERT_TRUE(a.ok() && b.ok());
      const int64_t before = CublasLtMatmuls();
      auto run = executable->Execute(device, {&*a, &*b});
      ASSERT_TRUE(run.ok()) << run.status();
      auto out = run->outputs[0].ToHostSync();
      ASSERT_TRUE(out.ok()) << out.status();
      EXPECT_EQ(CublasLtMatmuls() - before, cublaslt ? 1 : 0)
          << "on GPU " << device.id();
      const std::vector<float> got = Decode(dot.result, *out);
      ASSERT_EQ(got.size(), want.size());
      int mismatches = 0;
      for (size_t i = 0; i < got.size() && mismatches < 5; ++i) {
        const double tolerance = epsilon * scale[i] + 1e-6;
        if (!(std::fabs(got[i] - want[i]) <= tolerance)) {
          ADD_FAILURE() << "element " << i << " on GPU " << device.id() << ": "
                        << got[i] << ", expected " << want[i];
          ++mismatches;
        }
      }
    }
  }

  // Whether a plain dot runs through cuBLASLt in this ctest entry.
  static bool ThroughCublasLt() { return CurrentMode() == Mode::kCublasLt; }

  std::unique_ptr<Client> client_;
  std::vector<Device> devices_;
};

TEST_F(CublasLtTest, AttributeNamesTheLibraryOrWhyThereIsNone) {
  const std::optional<std::string> described =
      client_->library().StringAttribute("cuda.cublaslt");
  ASSERT_TRUE(described.has_value());
  if (CurrentMode() == Mode::kMissing) {
    EXPECT_THAT(*described, StartsWith("unavailable: "));
    EXPECT_THAT(*described, HasSubstr("PJRTX_CUBLASLT_PATH"));
  } else {
    EXPECT_THAT(*described, StartsWith("cuBLASLt 1"));
    EXPECT_THAT(*described, HasSubstr(std::getenv("PJRTX_CUBLASLT_PATH")));
  }
}

TEST_F(CublasLtTest, F32Matmul) {
  if (CurrentMode() == Mode::kMatmulFails) GTEST_SKIP() << "the matmul fails";
  Check(Dot(33, 9, 17), ThroughCublasLt());
}

TEST_F(CublasLtTest, F32BatchedMatmulWithTwoBatchDimensions) {
  if (CurrentMode() == Mode::kMatmulFails) GTEST_SKIP() << "the matmul fails";
  Check(Dot(5, 7, 11).Batch({2, 3}), ThroughCublasLt());
}

TEST_F(CublasLtTest, F32TransposedRhs) {
  if (CurrentMode() == Mode::kMatmulFails) GTEST_SKIP() << "the matmul fails";
  Check(Dot(16, 24, 40).TransposedRhs(), ThroughCublasLt());
}

TEST_F(CublasLtTest, Bf16MatmulToBf16) {
  if (CurrentMode() == Mode::kMatmulFails) GTEST_SKIP() << "the matmul fails";
  Check(Dot(20, 12, 64).Types(Type::kBF16, Type::kBF16), ThroughCublasLt());
}

TEST_F(CublasLtTest, Bf16BatchedTransposedRhsToF32) {
  if (CurrentMode() == Mode::kMatmulFails) GTEST_SKIP() << "the matmul fails";
  Check(Dot(8, 6, 32).Batch({3}).TransposedRhs().Types(Type::kBF16, Type::kF32),
        ThroughCublasLt());
}

TEST_F(CublasLtTest, Bf16BatchedToBf16) {
  if (CurrentMode() == Mode::kMatmulFails) GTEST_SKIP() << "the matmul fails";
  Check(Dot(3, 5, 9).Batch({4}).Types(Type::kBF16, Type::kBF16),
        ThroughCublasLt());
}

// FP8 E4M3 on the fake's sm_90 GPUs, in Hopper's one layout (rhs [n, k]),
// with unit scales; the PTX kernel has no FP8, so without cuBLASLt such a
// dot cannot be compiled.
TEST_F(CublasLtTest, Fp8TransposedRhsToF32AndBf16) {
  if (CurrentMode() == Mode::kMatmulFails) GTEST_SKIP() << "the matmul fails";
  for (Type result : {Type::kF32, Type::kBF16}) {
    const Dot dot = Dot(32, 16, 64).TransposedRhs().Types(Type::kF8, result);
    if (ThroughCublasLt()) {
      Check(dot, true);
    } else {
      auto executable = Executable::Compile(*client_, dot.Program());
      EXPECT_EQ(executable.status().code(), absl::StatusCode::kUnimplemented)
          << executable.status();
    }
  }
}

// Not plain matmuls, or not cuBLASLt's types: the PTX kernel, as before.
TEST_F(CublasLtTest, OtherDotsStayKernels) {
  if (CurrentMode() == Mode::kMatmulFails) GTEST_SKIP() << "the matmul fails";
  constexpr char kContractingFirst[] = R"(
func.func @main(%a: tensor<4x3xf32>, %b: tensor<4x2xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}
)";
  auto executable = Executable::Compile(*client_, kContractingFirst);
  ASSERT_TRUE(executable.ok()) << executable.status();
  const std::vector<float> a = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  const std::vector<float> b = {1, 0, 0, 1, 1, 1, 2, -1};
  auto a_buffer = client_->BufferFromHost(a.data(), PJRTX_Buffer_Type_F32,
                                          {4, 3}, devices_[0]);
  auto b_buffer = client_->BufferFromHost(b.data(), PJRTX_Buffer_Type_F32,
                                          {4, 2}, devices_[0]);
  ASSERT_TRUE(a_buffer.ok() && b_buffer.ok());
  const int64_t before = CublasLtMatmuls();
  auto run = executable->Execute(devices_[0], {&*a_buffer, &*b_buffer});
  ASSERT_TRUE(run.ok()) << run.status();
  auto out = run->outputs[0].ToHostSync();
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(CublasLtMatmuls(), before);
  // Element (i, j) of a^T b: a's column i dotted with b's column j.
  EXPECT_THAT(Decode(Type::kF32, *out),
              ::testing::ElementsAre(28, 1, 32, 2, 36, 3));
}

// ctest entry cuda.cublaslt_fault: FAKE_CUBLASLT_FAIL=cublasLtMatmul.
TEST_F(CublasLtTest, FailingMatmulFailsTheRunNamingIt) {
  if (CurrentMode() != Mode::kMatmulFails) {
    GTEST_SKIP() << "runs with FAKE_CUBLASLT_FAIL=cublasLtMatmul";
  }
  const Dot dot(8, 8, 8);
  auto executable = Executable::Compile(*client_, dot.Program());
  ASSERT_TRUE(executable.ok()) << executable.status();
  const std::vector<float> ones(64, 1.0f);
  auto a = client_->BufferFromHost(ones.data(), PJRTX_Buffer_Type_F32, {8, 8},
                                   devices_[0]);
  auto b = client_->BufferFromHost(ones.data(), PJRTX_Buffer_Type_F32, {8, 8},
                                   devices_[0]);
  ASSERT_TRUE(a.ok() && b.ok());
  auto run = executable->Execute(devices_[0], {&*a, &*b});
  const absl::Status status = run.ok() ? run->done.Await() : run.status();
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(status.message(), HasSubstr("cublasLtMatmul"));
  EXPECT_THAT(status.message(), HasSubstr("CUBLAS_STATUS_EXECUTION_FAILED"));
  EXPECT_THAT(status.message(), HasSubstr("stablehlo.dot_general"));
  // The GPU goes on working.
  auto back = a->ToHostSync();
  ASSERT_TRUE(back.ok()) << back.status();
}

}  // namespace
