// StableHLO programs through the compiler, the elementwise fusion and the
// PTX emitter; ptxas (where installed) checks that each module assembles.
#include "compiler_stub/ptx/ptx_emitter.h"

#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "compiler_stub/compiler.h"
#include "compiler_stub/ptx/elementwise_fusion.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/compiler_stub/ptx/ptxas_runner.h"

namespace pjrtx::ptx {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::SizeIs;

// y = (((((x * a + b) - c) * d) max e) min f + g) / a, where a and d are
// splat constants (which the kernel reads per element), b a broadcast
// constant scalar and c a broadcast parameter (whose rank-0 operands the
// kernel reads once).
constexpr char kChain[] = R"(
func.func @main(%x: tensor<1024x$T>, %e: tensor<1024x$T>, %f: tensor<1024x$T>, %g: tensor<1024x$T>, %s: tensor<$T>) -> tensor<1024x$T> {
  %a = stablehlo.constant dense<2.0> : tensor<1024x$T>
  %half = stablehlo.constant dense<0.5> : tensor<$T>
  %b = stablehlo.broadcast_in_dim %half, dims = [] : (tensor<$T>) -> tensor<1024x$T>
  %c = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<$T>) -> tensor<1024x$T>
  %d = stablehlo.constant dense<-3.0> : tensor<1024x$T>
  %0 = stablehlo.multiply %x, %a : tensor<1024x$T>
  %1 = stablehlo.add %0, %b : tensor<1024x$T>
  %2 = stablehlo.subtract %1, %c : tensor<1024x$T>
  %3 = stablehlo.multiply %2, %d : tensor<1024x$T>
  %4 = stablehlo.maximum %3, %e : tensor<1024x$T>
  %5 = stablehlo.minimum %4, %f : tensor<1024x$T>
  %6 = stablehlo.add %5, %g : tensor<1024x$T>
  %7 = stablehlo.divide %6, %a : tensor<1024x$T>
  func.return %7 : tensor<1024x$T>
}
)";

constexpr char kIntegerOps[] = R"(
func.func @main(%x: tensor<256x$T>, %y: tensor<256x$T>) -> (tensor<256x$T>, tensor<256xi1>) {
  %k = stablehlo.constant dense<3> : tensor<$T>
  %kb = stablehlo.broadcast_in_dim %k, dims = [] : (tensor<$T>) -> tensor<256x$T>
  %0 = stablehlo.add %x, %y : tensor<256x$T>
  %1 = stablehlo.subtract %0, %kb : tensor<256x$T>
  %2 = stablehlo.multiply %1, %y : tensor<256x$T>
  %3 = stablehlo.and %2, %x : tensor<256x$T>
  %4 = stablehlo.or %3, %y : tensor<256x$T>
  %5 = stablehlo.xor %4, %0 : tensor<256x$T>
  %6 = stablehlo.shift_left %5, %kb : tensor<256x$T>
  %7 = stablehlo.shift_right_arithmetic %6, %y : tensor<256x$T>
  %8 = stablehlo.shift_right_logical %7, %kb : tensor<256x$T>
  %9 = stablehlo.maximum %8, %x : tensor<256x$T>
  %10 = stablehlo.minimum %9, %y : tensor<256x$T>
  %11 = stablehlo.negate %10 : tensor<256x$T>
  %12 = stablehlo.not %11 : tensor<256x$T>
  %13 = stablehlo.clamp %k, %12, %y : (tensor<$T>, tensor<256x$T>, tensor<256x$T>) -> tensor<256x$T>
  %14 = stablehlo.compare LT, %13, %x : (tensor<256x$T>, tensor<256x$T>) -> tensor<256xi1>
  %15 = stablehlo.select %14, %13, %x : tensor<256xi1>, tensor<256x$T>
  func.return %15, %14 : tensor<256x$T>, tensor<256xi1>
}
)";

// Integer ops whose PTX needs guards or loops: division and remainder
// (by zero, by -1), power (unrolled over the exponent's bits), and the
// bit counts over the type's own width.
constexpr char kIntegerArithmetic[] = R"(
func.func @main(%x: tensor<64x$T>, %y: tensor<64x$T>) -> (tensor<64x$T>, tensor<64x$T>, tensor<64x$T>, tensor<64x$T>) {
  %0 = stablehlo.divide %x, %y : tensor<64x$T>
  %1 = stablehlo.remainder %0, %y : tensor<64x$T>
  %2 = stablehlo.power %1, %x : tensor<64x$T>
  %3 = stablehlo.xor %2, %y : tensor<64x$T>
  %4 = stablehlo.popcnt %3 : tensor<64x$T>
  %5 = stablehlo.count_leading_zeros %4 : tensor<64x$T>
  func.return %2, %3, %4, %5 : tensor<64x$T>, tensor<64x$T>, tensor<64x$T>, tensor<64x$T>
}
)";

// sign: of signed integers and floats (the spec allows no other).
constexpr char kSign[] = R"(
func.func @main(%x: tensor<16x$T>) -> tensor<16x$T> {
  %0 = stablehlo.sign %x : tensor<16x$T>
  %1 = stablehlo.multiply %0, %x : tensor<16x$T>
  func.return %1 : tensor<16x$T>
}
)";

constexpr char kCompareSelect[] = R"(
func.func @main(%x: tensor<64xf32>, %y: tensor<64xf32>, %lo: tensor<f32>, %hi: tensor<f32>, %p: tensor<i1>) -> (tensor<64xf32>, tensor<64xi1>) {
  %gt = stablehlo.compare GT, %x, %y, FLOAT : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
  %ne = stablehlo.compare NE, %x, %y : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
  %both = stablehlo.and %gt, %ne : tensor<64xi1>
  %either = stablehlo.or %both, %gt : tensor<64xi1>
  %flip = stablehlo.not %either : tensor<64xi1>
  %odd = stablehlo.xor %flip, %ne : tensor<64xi1>
  %same = stablehlo.compare EQ, %odd, %gt : (tensor<64xi1>, tensor<64xi1>) -> tensor<64xi1>
  %pick = stablehlo.select %same, %x, %y : tensor<64xi1>, tensor<64xf32>
  %clamped = stablehlo.clamp %lo, %pick, %hi : (tensor<f32>, tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
  %chosen = stablehlo.select %p, %same, %gt : tensor<i1>, tensor<64xi1>
  %r = stablehlo.select %chosen, %clamped, %x : tensor<64xi1>, tensor<64xf32>
  func.return %r, %chosen : tensor<64xf32>, tensor<64xi1>
}
)";

constexpr char kConversions[] = R"(
func.func @main(%x: tensor<128xf32>) -> (tensor<128xf32>, tensor<128xi16>, tensor<128xf16>, tensor<128xi1>, tensor<128xf64>, tensor<128xbf16>, tensor<128xi32>) {
  %0 = stablehlo.convert %x : (tensor<128xf32>) -> tensor<128xi32>
  %1 = stablehlo.convert %0 : (tensor<128xi32>) -> tensor<128xf64>
  %2 = stablehlo.convert %1 : (tensor<128xf64>) -> tensor<128xbf16>
  %3 = stablehlo.convert %2 : (tensor<128xbf16>) -> tensor<128xf16>
  %4 = stablehlo.convert %3 : (tensor<128xf16>) -> tensor<128xi8>
  %5 = stablehlo.convert %4 : (tensor<128xi8>) -> tensor<128xi64>
  %6 = stablehlo.convert %5 : (tensor<128xi64>) -> tensor<128xbf16>
  %7 = stablehlo.convert %6 : (tensor<128xbf16>) -> tensor<128xf32>
  %8 = stablehlo.convert %7 : (tensor<128xf32>) -> tensor<128xui8>
  %9 = stablehlo.convert %8 : (tensor<128xui8>) -> tensor<128xi1>
  %10 = stablehlo.convert %9 : (tensor<128xi1>) -> tensor<128xf32>
  %11 = stablehlo.convert %10 : (tensor<128xf32>) -> tensor<128xi1>
  %12 = stablehlo.convert %1 : (tensor<128xf64>) -> tensor<128xf16>
  %13 = stablehlo.convert %12 : (tensor<128xf16>) -> tensor<128xui64>
  %14 = stablehlo.convert %13 : (tensor<128xui64>) -> tensor<128xf32>
  %15 = stablehlo.convert %14 : (tensor<128xf32>) -> tensor<128xf64>
  %16 = stablehlo.convert %5 : (tensor<128xi64>) -> tensor<128xi16>
  %17 = stablehlo.convert %16 : (tensor<128xi16>) -> tensor<128xui32>
  %18 = stablehlo.convert %17 : (tensor<128xui32>) -> tensor<128xf16>
  %19 = stablehlo.convert %11 : (tensor<128xi1>) -> tensor<128xbf16>
  %20 = stablehlo.convert %9 : (tensor<128xi1>) -> tensor<128xi32>
  %21 = stablehlo.convert %15 : (tensor<128xf64>) -> tensor<128xf32>
  func.return %21, %16, %18, %11, %15, %19, %20 : tensor<128xf32>, tensor<128xi16>, tensor<128xf16>, tensor<128xi1>, tensor<128xf64>, tensor<128xbf16>, tensor<128xi32>
}
)";

constexpr char kRounding[] = R"(
func.func @main(%x: tensor<32x$T>) -> (tensor<32x$T>, tensor<32xi1>) {
  %0 = stablehlo.abs %x : tensor<32x$T>
  %1 = stablehlo.sqrt %0 : tensor<32x$T>
  %2 = stablehlo.rsqrt %1 : tensor<32x$T>
  %3 = stablehlo.floor %2 : tensor<32x$T>
  %4 = stablehlo.ceil %3 : tensor<32x$T>
  %5 = stablehlo.round_nearest_even %4 : tensor<32x$T>
  %6 = stablehlo.negate %5 : tensor<32x$T>
  %7 = stablehlo.is_finite %6 : (tensor<32x$T>) -> tensor<32xi1>
  func.return %6, %7 : tensor<32x$T>, tensor<32xi1>
}
)";

constexpr char kTranscendental[] = R"(
func.func @main(%x: tensor<32x$T>) -> tensor<32x$T> {
  %0 = stablehlo.exponential %x : tensor<32x$T>
  %1 = stablehlo.log %0 : tensor<32x$T>
  %2 = stablehlo.sine %1 : tensor<32x$T>
  %3 = stablehlo.cosine %2 : tensor<32x$T>
  %4 = stablehlo.tan %3 : tensor<32x$T>
  %5 = stablehlo.tanh %4 : tensor<32x$T>
  %6 = stablehlo.logistic %5 : tensor<32x$T>
  %7 = stablehlo.exponential_minus_one %6 : tensor<32x$T>
  %8 = stablehlo.log_plus_one %7 : tensor<32x$T>
  %9 = stablehlo.cbrt %8 : tensor<32x$T>
  %10 = stablehlo.power %9, %x : tensor<32x$T>
  %11 = stablehlo.round_nearest_afz %10 : tensor<32x$T>
  %12 = stablehlo.atan2 %11, %x : tensor<32x$T>
  %13 = stablehlo.remainder %12, %x : tensor<32x$T>
  func.return %13 : tensor<32x$T>
}
)";

struct TestProgram {
  std::string name;
  std::string text;
};

// The special functions (chlo's erf_inv, lgamma, digamma: long f64 code,
// erfc's continued fraction a loop); and compares under IEEE totalOrder.
constexpr char kSpecialFunction[] = R"(
func.func @main(%x: tensor<64x$T>) -> tensor<64x$T> {
  %0 = "chlo.$F"(%x) : (tensor<64x$T>) -> tensor<64x$T>
  func.return %0 : tensor<64x$T>
}
)";
constexpr char kTotalOrder[] = R"(
func.func @main(%x: tensor<64x$T>, %y: tensor<64x$T>) -> tensor<64x$T> {
  %0 = stablehlo.compare GT, %x, %y, TOTALORDER : (tensor<64x$T>, tensor<64x$T>) -> tensor<64xi1>
  %1 = stablehlo.select %0, %x, %y : (tensor<64xi1>, tensor<64x$T>, tensor<64x$T>) -> tensor<64x$T>
  func.return %1 : tensor<64x$T>
}
)";

// rng_bit_generator's rounds (u32 adds, rotations, xors; Philox's u64
// products), fused from its template.
constexpr char kRngBitGenerator[] = R"(
func.func @main(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<1000x$T>) {
  %0:2 = stablehlo.rng_bit_generator %s, algorithm = $A : (tensor<2xui64>) -> (tensor<2xui64>, tensor<1000x$T>)
  func.return %0#0, %0#1 : tensor<2xui64>, tensor<1000x$T>
}
)";

std::vector<TestProgram> Programs() {
  std::vector<TestProgram> programs;
  auto add = [&](const char* name, const char* text, const char* type) {
    programs.push_back({absl::StrCat(name, "_", type),
                        absl::StrReplaceAll(text, {{"$T", type}})});
  };
  for (const char* type : {"f32", "f16", "bf16", "f64"}) {
    add("chain", kChain, type);
    add("rounding", kRounding, type);
  }
  for (const char* type : {"i32", "i64", "ui32", "i8", "ui16"}) {
    add("integer_ops", kIntegerOps, type);
  }
  for (const char* type : {"i32", "i64", "ui32", "ui64", "i8", "ui16"}) {
    add("integer_arithmetic", kIntegerArithmetic, type);
  }
  for (const char* type : {"f32", "f64", "f16", "bf16", "i32", "i64", "i8"}) {
    add("sign", kSign, type);
  }
  for (const char* type : {"f32", "f16", "bf16", "f64"}) {
    add("transcendental", kTranscendental, type);
    for (const char* function : {"erf_inv", "lgamma", "digamma"}) {
      programs.push_back(
          {absl::StrCat(function, "_", type),
           absl::StrReplaceAll(kSpecialFunction,
                               {{"$T", type}, {"$F", function}})});
    }
    add("total_order", kTotalOrder, type);
  }
  for (const char* type : {"ui32", "ui64"}) {
    for (const char* algorithm : {"THREE_FRY", "PHILOX"}) {
      programs.push_back(
          {absl::StrCat("rng_bit_generator_", algorithm, "_", type),
           absl::StrReplaceAll(kRngBitGenerator,
                               {{"$T", type}, {"$A", algorithm}})});
    }
  }
  programs.push_back({"compare_select", kCompareSelect});
  programs.push_back({"conversions", kConversions});
  return programs;
}

// The one kernel `text` fuses into.
FusedKernel FuseOne(const std::string& text) {
  absl::StatusOr<ir::Program> program = compiler::Compile(text, {});
  EXPECT_TRUE(program.ok()) << program.status();
  if (!program.ok()) return {};
  std::vector<FusedKernel> kernels =
      FindElementwiseFusions(*program, program->entry);
  EXPECT_THAT(kernels, SizeIs(1));
  return kernels.empty() ? FusedKernel{} : kernels[0];
}

std::string Chain(const char* type) {
  return absl::StrReplaceAll(kChain, {{"$T", type}});
}

TEST(PtxEmitterTest, ModuleDeclaresTheTargetAndOneEntry) {
  absl::StatusOr<std::string> ptx = EmitPtx(FuseOne(Chain("f32")), {80});
  ASSERT_TRUE(ptx.ok()) << ptx.status();
  EXPECT_THAT(*ptx,
              HasSubstr(".version 7.8\n.target sm_80\n.address_size 64\n"));
  // %x, %a, %half, %s, %d, %e, %f, %g in the order the kernel first reads
  // them, then the one output.
  EXPECT_THAT(*ptx, HasSubstr(".visible .entry main_fusion0(\n"
                              "  .param .u64 in0,\n  .param .u64 in1,\n"
                              "  .param .u64 in2,\n  .param .u64 in3,\n"
                              "  .param .u64 in4,\n  .param .u64 in5,\n"
                              "  .param .u64 in6,\n  .param .u64 in7,\n"
                              "  .param .u64 out0,\n  .param .u64 n\n)"));
}

TEST(PtxEmitterTest, VersionIsTheNewestOf78AndWhatTheTargetNeeds) {
  const FusedKernel kernel = FuseOne(Chain("f32"));
  for (const auto& [sm, version] :
       std::vector<std::pair<int, std::string>>{{75, "7.8"},
                                                {90, "7.8"},
                                                {100, "8.6"},
                                                {110, "9.0"},
                                                {120, "8.7"}}) {
    absl::StatusOr<std::string> ptx = EmitPtx(kernel, {sm});
    ASSERT_TRUE(ptx.ok()) << ptx.status();
    EXPECT_THAT(*ptx, HasSubstr(absl::StrCat(".version ", version,
                                             "\n.target sm_", sm, "\n")));
  }
}

TEST(PtxEmitterTest, ScalarsAreReadOnceBeforeTheLoop) {
  absl::StatusOr<std::string> ptx = EmitPtx(FuseOne(Chain("f32")), {80});
  ASSERT_TRUE(ptx.ok()) << ptx.status();
  // %half and %s (in2, in3) are loaded before the loop, the six tensors
  // inside it.
  const size_t loop = ptx->find("$L__loop:");
  ASSERT_NE(loop, std::string::npos);
  std::vector<size_t> loads;
  for (size_t at = ptx->find("ld.global.f32"); at != std::string::npos;
       at = ptx->find("ld.global.f32", at + 1)) {
    loads.push_back(at);
  }
  ASSERT_THAT(loads, SizeIs(8));
  EXPECT_LT(loads[1], loop);
  EXPECT_GT(loads[2], loop);
}

TEST(PtxEmitterTest, FloatOpsRoundEachResultAndNeverContract) {
  absl::StatusOr<std::string> ptx = EmitPtx(FuseOne(Chain("f32")), {80});
  ASSERT_TRUE(ptx.ok()) << ptx.status();
  EXPECT_THAT(*ptx, HasSubstr("mul.rn.f32"));
  EXPECT_THAT(*ptx, HasSubstr("add.rn.f32"));
  EXPECT_THAT(*ptx, HasSubstr("div.rn.f32"));
  EXPECT_THAT(*ptx, Not(HasSubstr("fma")));
}

TEST(PtxEmitterTest, HalfPrecisionComputesInF32AndRoundsBack) {
  absl::StatusOr<std::string> bf16 = EmitPtx(FuseOne(Chain("bf16")), {80});
  ASSERT_TRUE(bf16.ok()) << bf16.status();
  EXPECT_THAT(*bf16, HasSubstr("cvt.rn.bf16.f32"));
  // No bf16 arithmetic, which needs sm_90.
  EXPECT_THAT(*bf16, Not(ContainsRegex("(add|sub|mul|fma|max|min)[.a-z]*"
                                       "\\.bf16 ")));
  absl::StatusOr<std::string> f16 = EmitPtx(FuseOne(Chain("f16")), {80});
  ASSERT_TRUE(f16.ok()) << f16.status();
  EXPECT_THAT(*f16, HasSubstr("cvt.f32.f16"));
  EXPECT_THAT(*f16, HasSubstr("cvt.rn.f16.f32"));
}

TEST(PtxEmitterTest, MaximumAndMinimumDoNotDropNaNs) {
  absl::StatusOr<std::string> ptx = EmitPtx(FuseOne(Chain("f32")), {80});
  ASSERT_TRUE(ptx.ok()) << ptx.status();
  EXPECT_THAT(*ptx, HasSubstr("setp.nan.f32"));
}

TEST(PtxEmitterTest, NarrowIntegersWrapToTheirWidth) {
  absl::StatusOr<std::string> ptx = EmitPtx(FuseOne(R"(
func.func @main(%x: tensor<4xi8>, %y: tensor<4xui16>) -> (tensor<4xi8>, tensor<4xui16>) {
  %0 = stablehlo.add %x, %x : tensor<4xi8>
  %2 = stablehlo.convert %0 : (tensor<4xi8>) -> tensor<4xui16>
  %1 = stablehlo.multiply %y, %2 : tensor<4xui16>
  %3 = stablehlo.add %1, %2 : tensor<4xui16>
  func.return %0, %3 : tensor<4xi8>, tensor<4xui16>
}
)"),
                                            {80});
  ASSERT_TRUE(ptx.ok()) << ptx.status();
  EXPECT_THAT(*ptx, HasSubstr("ld.global.s8"));
  EXPECT_THAT(*ptx, ContainsRegex("bfe\\.s32 %r[0-9]+, %r[0-9]+, 0, 8;"));
  EXPECT_THAT(*ptx, ContainsRegex("and\\.b32 %r[0-9]+, %r[0-9]+, 0x0000FFFF;"));
  EXPECT_THAT(*ptx, HasSubstr("st.global.u16"));
}

TEST(PtxEmitterTest, UnknownTargetIsInvalidArgument) {
  absl::StatusOr<std::string> ptx = EmitPtx(FuseOne(Chain("f32")), {42});
  EXPECT_EQ(ptx.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(ptx.status().message(), HasSubstr("sm_42"));
}

TEST(PtxEmitterTest, NameMustBeAnIdentifier) {
  FusedKernel kernel = FuseOne(Chain("f32"));
  kernel.name = "1st kernel";
  EXPECT_EQ(EmitPtx(kernel, {80}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(PtxEmitterTest, ValueReadBeforeItExistsIsInvalidArgument) {
  FusedKernel kernel = FuseOne(Chain("f32"));
  kernel.inputs.erase(kernel.inputs.begin());
  absl::StatusOr<std::string> ptx = EmitPtx(kernel, {80});
  EXPECT_EQ(ptx.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(ptx.status().message(), HasSubstr("main_fusion0"));
}

TEST(PtxEmitterTest, UnsupportedOpsAreUnimplementedNamingTheOp) {
  // Rounding to bf16 needs sm_80: an op giving bf16 for sm_75 is named,
  // at its position, in the kernel fusion made of it and the op after it.
  absl::StatusOr<std::string> ptx = EmitPtx(FuseOne(R"(
func.func @main(%x: tensor<4xf32>) -> tensor<4xbf16> {
  %0 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xbf16>
  %1 = stablehlo.negate %0 : tensor<4xbf16>
  func.return %1 : tensor<4xbf16>
}
)"),
                                            {75});
  EXPECT_EQ(ptx.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(ptx.status().message(),
              HasSubstr("3:8: stablehlo.convert on bf16 for sm_75 (needs "
                        "sm_80) is not supported by the PTX emitter"));
}

TEST(PtxEmitterTest, Bf16ResultsNeedSm80) {
  absl::StatusOr<std::string> ptx = EmitPtx(FuseOne(Chain("bf16")), {75});
  EXPECT_EQ(ptx.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(ptx.status().message(), HasSubstr("needs sm_80"));
}

TEST(PtxEmitterTest, Fp8IsUnimplemented) {
  // As a result the kernel would store.
  absl::StatusOr<std::string> ptx = EmitPtx(FuseOne(R"(
func.func @main(%x: tensor<4xf32>) -> tensor<4xf8E4M3FN> {
  %0 = stablehlo.negate %x : tensor<4xf32>
  %1 = stablehlo.convert %0 : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
  func.return %1 : tensor<4xf8E4M3FN>
}
)"),
                                            {90});
  EXPECT_EQ(ptx.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(ptx.status().message(), HasSubstr("f8E4M3FN"));
  // As a value that stays in registers.
  ptx = EmitPtx(FuseOne(R"(
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
  %1 = stablehlo.convert %0 : (tensor<4xf8E4M3FN>) -> tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
)"),
                {90});
  EXPECT_EQ(ptx.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(ptx.status().message(),
              HasSubstr("3:8: stablehlo.convert on f8E4M3FN"));
}

// The control for the assembly tests below: ptxas does reject bad PTX.
TEST(PtxasRunnerTest, ReportsInvalidPtx) {
  const std::string ptxas = testing::FindPtxas();
  if (ptxas.empty()) GTEST_SKIP() << "ptxas is not on PATH (no CUDA toolkit)";
  const testing::PtxasResult result = testing::Assemble(
      ptxas, ".version 7.8\n.target sm_80\n.address_size 64\nbogus;\n", 80);
  EXPECT_NE(result.exit_code, 0);
  EXPECT_THAT(result.log, HasSubstr("error"));
}

class PtxAssemblyTest
    : public ::testing::TestWithParam<std::tuple<TestProgram, int>> {
 protected:
  void SetUp() override {
    ptxas_ = testing::FindPtxas();
    if (ptxas_.empty()) {
      GTEST_SKIP() << "ptxas is not on PATH (no CUDA toolkit): the PTX "
                      "text is not assembled";
    }
  }

  std::string ptxas_;
};

// Every kernel the program fuses into (long chains may make several).
TEST_P(PtxAssemblyTest, Assembles) {
  const auto& [program, sm] = GetParam();
  absl::StatusOr<ir::Program> compiled = compiler::Compile(program.text, {});
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  const std::vector<FusedKernel> kernels =
      FindElementwiseFusions(*compiled, compiled->entry);
  ASSERT_FALSE(kernels.empty());
  for (const FusedKernel& kernel : kernels) {
    absl::StatusOr<std::string> ptx = EmitPtx(kernel, {sm});
    ASSERT_TRUE(ptx.ok()) << ptx.status();
    const testing::PtxasResult result = testing::Assemble(ptxas_, *ptx, sm);
    EXPECT_EQ(result.exit_code, 0) << result.log << "\n" << *ptx;
  }
}

INSTANTIATE_TEST_SUITE_P(
    ProgramsOnAmpereAndHopper, PtxAssemblyTest,
    ::testing::Combine(::testing::ValuesIn(Programs()),
                       ::testing::Values(80, 90)),
    [](const ::testing::TestParamInfo<PtxAssemblyTest::ParamType>& info) {
      return absl::StrCat(std::get<0>(info.param).name, "_sm",
                          std::get<1>(info.param));
    });

// Every target the emitter knows, on programs without bf16 (which sm_75
// cannot round to).
INSTANTIATE_TEST_SUITE_P(
    EveryTarget, PtxAssemblyTest,
    ::testing::Combine(
        ::testing::Values(TestProgram{"chain_f32", Chain("f32")},
                          TestProgram{"integer_ops_i64",
                                      absl::StrReplaceAll(kIntegerOps,
                                                          {{"$T", "i64"}})}),
        ::testing::Values(75, 86, 87, 89, 100, 103, 110, 120, 121)),
    [](const ::testing::TestParamInfo<PtxAssemblyTest::ParamType>& info) {
      return absl::StrCat(std::get<0>(info.param).name, "_sm",
                          std::get<1>(info.param));
    });

}  // namespace
}  // namespace pjrtx::ptx
