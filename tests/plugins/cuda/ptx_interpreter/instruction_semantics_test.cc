// Instruction by instruction: hand-written PTX for the corners the
// emitted kernels rarely reach (division by zero, shifts past the width,
// every rounding modifier, NaNs and signed zeros), the parser's errors, and
// the executor's guards. Directed rounding is checked against the host's
// own IEEE arithmetic under fesetround.
#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/plugins/cuda/ptx_interpreter/executor.h"
#include "tests/plugins/cuda/ptx_interpreter/parser.h"
#include "tests/plugins/cuda/ptx_interpreter/ptx_interpreter.h"

namespace fake_cuda {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kHeader[] = ".version 7.8\n.target sm_90\n.address_size 64\n\n";

// Host memory at address kBase, as the kernels see it.
class Memory {
 public:
  static constexpr uint64_t kBase = 0x10000;

  explicit Memory(size_t bytes) : bytes_(bytes, 0) {}
  uint64_t address(size_t offset = 0) const { return kBase + offset; }
  uint8_t* data() { return bytes_.data(); }
  AddressTranslator Translator() {
    return [this](uint64_t address, size_t size) -> void* {
      if (address < kBase || address - kBase + size > bytes_.size()) {
        return nullptr;
      }
      return bytes_.data() + (address - kBase);
    };
  }

 private:
  std::vector<uint8_t> bytes_;
};

std::vector<uint8_t> U64Param(uint64_t value) {
  std::vector<uint8_t> bytes(8);
  std::memcpy(bytes.data(), &value, 8);
  return bytes;
}

// Runs `body` in one thread of a kernel with registers %p<8> (.pred),
// %h<8> (.b16), %r<8> (.b32), %rd<8> (.b64), %f<8> (.f32), %fd<8> (.f64)
// and %out, the address of eight 64-bit words, zero before; returns them.
std::vector<uint64_t> RunBody(const std::string& body) {
  const std::string text = absl::StrCat(
      kHeader,
      ".visible .entry k(.param .u64 out)\n{\n"
      "  .reg .pred %p<8>;\n  .reg .b16 %h<8>;\n  .reg .b32 %r<8>;\n"
      "  .reg .b64 %rd<8>;\n  .reg .f32 %f<8>;\n  .reg .f64 %fd<8>;\n"
      "  .reg .b64 %out;\n  ld.param.u64 %out, [out];\n",
      body, "\n  ret;\n}\n");
  std::string error;
  std::unique_ptr<PtxModule> module = PtxModule::Parse(text, &error);
  if (module == nullptr) {
    ADD_FAILURE() << error << "\n" << text;
    return {};
  }
  Memory memory(64);
  if (!module->Find("k")->Run({1, 1, 1}, {1, 1, 1},
                              {U64Param(memory.address())}, memory.Translator(),
                              &error)) {
    ADD_FAILURE() << error;
    return {};
  }
  std::vector<uint64_t> words(8);
  std::memcpy(words.data(), memory.data(), 64);
  return words;
}

// The word `body` stores at [%out] with st.global.u64.
uint64_t Result(const std::string& body) {
  const std::vector<uint64_t> words = RunBody(body);
  return words.empty() ? 0xBAD : words[0];
}

uint32_t F32Bits(float value) { return std::bit_cast<uint32_t>(value); }
uint64_t F64Bits(double value) { return std::bit_cast<uint64_t>(value); }

std::string F32Literal(float value) {
  char text[16];
  std::snprintf(text, sizeof(text), "0f%08X", F32Bits(value));
  return text;
}
std::string F64Literal(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "0d%016llX",
                static_cast<unsigned long long>(F64Bits(value)));
  return text;
}

TEST(IntegerSemanticsTest, DivisionByZeroAndOverflowAreDeterministic) {
  const std::vector<uint64_t> words = RunBody(R"(
  mov.b32 %r0, 7;
  mov.b32 %r1, 0;
  div.s32 %r2, %r0, %r1;
  st.global.u32 [%out], %r2;
  div.u32 %r3, %r0, %r1;
  st.global.u32 [%out+8], %r3;
  rem.s32 %r4, %r0, %r1;
  st.global.u32 [%out+16], %r4;
  mov.b32 %r0, 0x80000000;
  mov.b32 %r1, -1;
  div.s32 %r5, %r0, %r1;
  st.global.u32 [%out+24], %r5;
  rem.s32 %r6, %r0, %r1;
  st.global.u32 [%out+32], %r6;
  mov.b64 %rd0, 0x8000000000000000;
  mov.b64 %rd1, -1;
  div.s64 %rd2, %rd0, %rd1;
  st.global.u64 [%out+40], %rd2;
  rem.s64 %rd3, %rd0, %rd1;
  st.global.u64 [%out+48], %rd3;
  mov.b64 %rd1, 0;
  div.u64 %rd4, %rd0, %rd1;
  st.global.u64 [%out+56], %rd4;
)");
  EXPECT_THAT(
      words, ::testing::ElementsAre(0xFFFFFFFF, 0xFFFFFFFF, 7, 0x80000000, 0,
                                    0x8000000000000000, 0, 0xFFFFFFFFFFFFFFFF));
}

TEST(IntegerSemanticsTest, ShiftsPastTheWidthClampTheAmount) {
  const std::vector<uint64_t> words = RunBody(R"(
  mov.b32 %r0, 0x80000001;
  shl.b32 %r1, %r0, 32;
  st.global.u32 [%out], %r1;
  shr.s32 %r2, %r0, 40;
  st.global.u32 [%out+8], %r2;
  shr.u32 %r3, %r0, 32;
  st.global.u32 [%out+16], %r3;
  shr.s32 %r4, %r0, 31;
  st.global.u32 [%out+24], %r4;
  shl.b32 %r5, %r0, 31;
  st.global.u32 [%out+32], %r5;
  mov.b64 %rd0, 0x8000000000000001;
  shl.b64 %rd1, %rd0, 64;
  st.global.u64 [%out+40], %rd1;
  shr.s64 %rd2, %rd0, 200;
  st.global.u64 [%out+48], %rd2;
  shr.u64 %rd3, %rd0, 63;
  st.global.u64 [%out+56], %rd3;
)");
  EXPECT_THAT(
      words, ::testing::ElementsAre(0, 0xFFFFFFFF, 0, 0xFFFFFFFF, 0x80000000, 0,
                                    0xFFFFFFFFFFFFFFFF, 1));
}

TEST(IntegerSemanticsTest, WideAndHighMultiplies) {
  const std::vector<uint64_t> words = RunBody(R"(
  mov.b32 %r0, -3;
  mov.b32 %r1, 5;
  mul.wide.s32 %rd0, %r0, %r1;
  st.global.u64 [%out], %rd0;
  mov.b32 %r2, 0xFFFFFFFF;
  mul.wide.u32 %rd1, %r2, %r2;
  st.global.u64 [%out+8], %rd1;
  mov.b64 %rd2, 10;
  mad.wide.u32 %rd3, %r2, %r1, %rd2;
  st.global.u64 [%out+16], %rd3;
  mov.b32 %r3, 0x40000000;
  mul.hi.s32 %r4, %r3, 8;
  st.global.u32 [%out+24], %r4;
  mov.b64 %rd4, 0x8000000000000000;
  mul.hi.u64 %rd5, %rd4, 4;
  st.global.u64 [%out+32], %rd5;
  mul.hi.s64 %rd6, %rd4, 4;
  st.global.u64 [%out+40], %rd6;
  mov.b32 %r5, 0x10000;
  mul.lo.s32 %r6, %r5, %r5;
  mad.lo.s32 %r7, %r1, %r1, %r6;
  st.global.u32 [%out+48], %r7;
  mov.b16 %h0, 0xFFFE;
  mov.b16 %h1, 3;
  mul.wide.s16 %r0, %h0, %h1;
  st.global.u32 [%out+56], %r0;
)");
  EXPECT_THAT(words,
              ::testing::ElementsAre(0xFFFFFFFFFFFFFFF1, 0xFFFFFFFE00000001,
                                     0x4FFFFFFFB + 10, 2, 2, 0xFFFFFFFFFFFFFFFE,
                                     25, 0xFFFFFFFA));
}

TEST(IntegerSemanticsTest, BitFieldExtract) {
  const std::vector<uint64_t> words = RunBody(R"(
  mov.b32 %r0, 0xF0F0F0F0;
  bfe.u32 %r1, %r0, 4, 8;
  st.global.u32 [%out], %r1;
  bfe.s32 %r2, %r0, 4, 4;
  st.global.u32 [%out+8], %r2;
  bfe.s32 %r3, %r0, 4, 0;
  st.global.u32 [%out+16], %r3;
  bfe.u32 %r4, %r0, 40, 8;
  st.global.u32 [%out+24], %r4;
  bfe.s32 %r5, %r0, 40, 8;
  st.global.u32 [%out+32], %r5;
  bfe.s32 %r6, %r0, 8, 4;
  st.global.u32 [%out+40], %r6;
  mov.b64 %rd0, 0xF000000000000000;
  bfe.u64 %rd1, %rd0, 60, 8;
  st.global.u64 [%out+48], %rd1;
  bfe.s64 %rd2, %rd0, 60, 8;
  st.global.u64 [%out+56], %rd2;
)");
  EXPECT_THAT(words, ::testing::ElementsAre(0x0F, 0xFFFFFFFF, 0, 0, 0xFFFFFFFF,
                                            0, 0xF, 0xFFFFFFFFFFFFFFFF));
}

TEST(IntegerSemanticsTest, BitCountsAndLogic) {
  const std::vector<uint64_t> words = RunBody(R"(
  mov.b32 %r0, 0x00F00001;
  popc.b32 %r1, %r0;
  st.global.u32 [%out], %r1;
  clz.b32 %r2, %r0;
  st.global.u32 [%out+8], %r2;
  brev.b32 %r3, %r0;
  st.global.u32 [%out+16], %r3;
  not.b32 %r4, %r0;
  st.global.u32 [%out+24], %r4;
  cnot.b32 %r5, %r0;
  st.global.u32 [%out+32], %r5;
  mov.b64 %rd0, 0;
  clz.b64 %r6, %rd0;
  st.global.u32 [%out+40], %r6;
  neg.s32 %r7, 0x80000000;
  abs.s32 %r7, %r7;
  st.global.u32 [%out+48], %r7;
  add.sat.s32 %r7, 0x7FFFFFF0, 0x100;
  st.global.u32 [%out+56], %r7;
)");
  EXPECT_THAT(words, ::testing::ElementsAre(5, 8, 0x80000F00, 0xFF0FFFFE, 0, 64,
                                            0x80000000, 0x7FFFFFFF));
}

TEST(IntegerSemanticsTest, NarrowLoadsExtendAsTheirType) {
  Memory memory(64);
  memory.data()[0] = 0x80;
  memory.data()[2] = 0xFE;
  memory.data()[3] = 0xFF;
  const std::string text = absl::StrCat(kHeader, R"(
.visible .entry k(.param .u64 in, .param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd0, [in];
  ld.param.u64 %rd1, [out];
  ld.global.s8 %r0, [%rd0];
  st.global.u32 [%rd1], %r0;
  ld.global.u8 %r1, [%rd0];
  st.global.u32 [%rd1+8], %r1;
  ld.global.s16 %r2, [%rd0+2];
  st.global.u32 [%rd1+16], %r2;
  ld.global.s8 %rd2, [%rd0];
  st.global.u64 [%rd1+24], %rd2;
  st.global.u8 [%rd1+32], %r2;
  st.global.u16 [%rd1+40], %r2;
}
)");
  std::string error;
  std::unique_ptr<PtxModule> module = PtxModule::Parse(text, &error);
  ASSERT_NE(module, nullptr) << error;
  ASSERT_TRUE(module->Find("k")->Run(
      {1, 1, 1}, {1, 1, 1},
      {U64Param(memory.address()), U64Param(memory.address(8))},
      memory.Translator(), &error))
      << error;
  std::vector<uint64_t> words(7);
  std::memcpy(words.data(), memory.data() + 8, 56);
  EXPECT_THAT(words,
              ::testing::ElementsAre(0xFFFFFF80, 0x80, 0xFFFFFFFE,
                                     0xFFFFFFFFFFFFFF80, 0xFE, 0xFFFE, 0));
}

struct ConversionCase {
  std::string body;  // Leaves its result in [%out].
  uint64_t expected;
};

TEST(ConversionSemanticsTest, EveryRoundingModifier) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto to_s32 = [](const char* mode, float value) {
    return absl::StrCat("mov.f32 %f0, ", F32Literal(value), ";\n cvt.", mode,
                        ".s32.f32 %r0, %f0;\n st.global.u32 [%out], %r0;");
  };
  auto to_f16 = [](const char* mode, float value) {
    return absl::StrCat("mov.f32 %f0, ", F32Literal(value), ";\n cvt.", mode,
                        ".f16.f32 %h0, %f0;\n st.global.b16 [%out], %h0;");
  };
  auto round_f32 = [](const char* mode, float value) {
    return absl::StrCat("mov.f32 %f0, ", F32Literal(value), ";\n cvt.", mode,
                        ".f32.f32 %f1, %f0;\n st.global.f32 [%out], %f1;");
  };
  const float above_tie = 1 + 0x1p-11f + 0x1p-20f;  // Between two halves.
  for (const ConversionCase& c : std::vector<ConversionCase>{
           // Float to integer: each integer rounding, saturation, NaN.
           {to_s32("rni", 2.5f), 2},
           {to_s32("rni", 3.5f), 4},
           {to_s32("rni", -2.5f), 0xFFFFFFFE},
           {to_s32("rzi", -2.7f), 0xFFFFFFFE},
           {to_s32("rmi", -2.2f), 0xFFFFFFFD},
           {to_s32("rpi", 2.2f), 3},
           {to_s32("rzi", 1e10f), 0x7FFFFFFF},
           {to_s32("rzi", -1e10f), 0x80000000},
           {to_s32("rni", nan), 0},
           {"mov.f32 %f0, 0fC0B00000;\n cvt.rzi.u32.f32 %r0, %f0;\n"
            " st.global.u32 [%out], %r0;",
            0},
           {"mov.f64 %fd0, 0d43F0000000000000;\n cvt.rzi.u64.f64 %rd0, %fd0;\n"
            " st.global.u64 [%out], %rd0;",
            0xFFFFFFFFFFFFFFFF},
           {"mov.f64 %fd0, 0d43EF3A05A1F40000;\n cvt.rzi.s64.f64 %rd0, %fd0;\n"
            " st.global.u64 [%out], %rd0;",
            0x7FFFFFFFFFFFFFFF},
           // To f16 in each rounding mode, from just above a tie.
           {to_f16("rn", 1 + 0x1p-11f), 0x3C00},
           {to_f16("rn", above_tie), 0x3C01},
           {to_f16("rz", above_tie), 0x3C00},
           {to_f16("rm", above_tie), 0x3C00},
           {to_f16("rp", above_tie), 0x3C01},
           {to_f16("rz", -above_tie), 0xBC00},
           {to_f16("rm", -above_tie), 0xBC01},
           {to_f16("rp", -above_tie), 0xBC00},
           {to_f16("rn", 65520.0f), 0x7C00},
           {to_f16("rz", 65520.0f), 0x7BFF},
           {to_f16("rn", 0x1p-25f), 0},
           {to_f16("rp", 0x1p-30f), 1},
           // f64 to f32, integers to f32.
           {"mov.f64 %fd0, " + F64Literal(1.0 / 3) +
                ";\n cvt.rz.f32.f64 %f0, %fd0;\n st.global.f32 [%out], %f0;",
            0x3EAAAAAA},
           {"mov.f64 %fd0, " + F64Literal(1.0 / 3) +
                ";\n cvt.rp.f32.f64 %f0, %fd0;\n st.global.f32 [%out], %f0;",
            F32Bits(static_cast<float>(1.0 / 3))},
           {"mov.b64 %rd0, 0x1000000000000001;\n cvt.rn.f32.s64 %f0, %rd0;\n"
            " st.global.f32 [%out], %f0;",
            0x5D800000},
           {"mov.b64 %rd0, -1;\n cvt.rz.f32.u64 %f0, %rd0;\n"
            " st.global.f32 [%out], %f0;",
            0x5F7FFFFF},
           {"mov.b64 %rd0, -1;\n cvt.rn.f32.u64 %f0, %rd0;\n"
            " st.global.f32 [%out], %f0;",
            0x5F800000},
           {"mov.b32 %r0, 16777217;\n cvt.rp.f32.s32 %f0, %r0;\n"
            " st.global.f32 [%out], %f0;",
            0x4B800001},
           {"mov.b32 %r0, -16777217;\n cvt.rm.f32.s32 %f0, %r0;\n"
            " st.global.f32 [%out], %f0;",
            0xCB800001},
           {"mov.b64 %rd0, 0x7FFFFFFFFFFFFFFF;\n cvt.rz.f64.s64 %fd0, %rd0;\n"
            " st.global.f64 [%out], %fd0;",
            0x43DFFFFFFFFFFFFF},
           // Rounding to integral values in the same type.
           {round_f32("rni", 2.5f), F32Bits(2.0f)},
           {round_f32("rmi", -0.5f), F32Bits(-1.0f)},
           {round_f32("rpi", -0.5f), F32Bits(-0.0f)},
           {round_f32("rzi", -2.7f), F32Bits(-2.0f)},
           // .sat and .ftz.
           {"mov.f32 %f0, 0f3FC00000;\n cvt.sat.f32.f32 %f1, %f0;\n"
            " st.global.f32 [%out], %f1;",
            F32Bits(1.0f)},
           {"mov.f32 %f0, " + F32Literal(nan) +
                ";\n cvt.sat.f32.f32 %f1, %f0;\n st.global.f32 [%out], %f1;",
            0},
           {"mov.f32 %f0, 0f00000001;\n cvt.ftz.f32.f32 %f1, %f0;\n"
            " st.global.f32 [%out], %f1;",
            0},
           // Between integers: wrap, or saturate with .sat.
           {"mov.b32 %r0, 300;\n cvt.sat.u8.s32 %r1, %r0;\n"
            " st.global.u32 [%out], %r1;",
            255},
           {"mov.b32 %r0, -300;\n cvt.sat.s8.s32 %r1, %r0;\n"
            " st.global.u32 [%out], %r1;",
            0xFFFFFF80},
           {"mov.b32 %r0, 300;\n cvt.u8.s32 %r1, %r0;\n"
            " st.global.u32 [%out], %r1;",
            44},
           {"mov.b32 %r0, 200;\n cvt.s8.u32 %r1, %r0;\n"
            " st.global.u32 [%out], %r1;",
            0xFFFFFFC8},
           {"mov.b32 %r0, -1;\n cvt.s64.s32 %rd0, %r0;\n"
            " st.global.u64 [%out], %rd0;",
            0xFFFFFFFFFFFFFFFF},
           {"mov.b32 %r0, -1;\n cvt.u64.u32 %rd0, %r0;\n"
            " st.global.u64 [%out], %rd0;",
            0xFFFFFFFF},
           // Between float formats.
           {"mov.b16 %h0, 0x3C01;\n cvt.f32.f16 %f0, %h0;\n"
            " st.global.f32 [%out], %f0;",
            F32Bits(1.0009765625f)},
           {"mov.b16 %h0, 0x3F81;\n cvt.f32.bf16 %f0, %h0;\n"
            " st.global.f32 [%out], %f0;",
            0x3F810000},
           {"mov.f32 %f0, 0f3F808000;\n cvt.rn.bf16.f32 %h0, %f0;\n"
            " st.global.b16 [%out], %h0;",
            0x3F80},
           {"mov.f64 %fd0, " + F64Literal(1 + 0x1p-11 + 0x1p-40) +
                ";\n cvt.rn.f16.f64 %h0, %fd0;\n st.global.b16 [%out], %h0;",
            0x3C01},
       }) {
    EXPECT_EQ(Result(c.body), c.expected) << c.body;
  }
}

TEST(FloatSemanticsTest, ComparisonsOrderedAndUnordered) {
  const std::string nan = F32Literal(std::numeric_limits<float>::quiet_NaN());
  auto setp = [&](const std::string& op, const std::string& a,
                  const std::string& b) {
    return absl::StrCat("mov.f32 %f0, ", a, ";\n mov.f32 %f1, ", b, ";\n setp.",
                        op,
                        " %p0, %f0, %f1;\n"
                        " selp.u32 %r0, 1, 0, %p0;\n"
                        " st.global.u32 [%out], %r0;");
  };
  const std::string one = F32Literal(1), zero = F32Literal(0),
                    minus_zero = F32Literal(-0.0f);
  for (const ConversionCase& c : std::vector<ConversionCase>{
           {setp("lt.f32", nan, one), 0},
           {setp("ltu.f32", nan, one), 1},
           {setp("ne.f32", nan, nan), 0},
           {setp("neu.f32", nan, nan), 1},
           {setp("num.f32", one, nan), 0},
           {setp("nan.f32", one, nan), 1},
           {setp("num.f32", one, one), 1},
           {setp("eq.f32", zero, minus_zero), 1},
           {setp("ge.f32", one, one), 1},
           {setp("gtu.f32", zero, one), 0},
           {"mov.b32 %r1, -1;\n setp.lt.s32 %p0, %r1, 0;\n"
            " selp.u32 %r0, 1, 0, %p0;\n st.global.u32 [%out], %r0;",
            1},
           {"mov.b32 %r1, -1;\n setp.lt.u32 %p0, %r1, 0;\n"
            " selp.u32 %r0, 1, 0, %p0;\n st.global.u32 [%out], %r0;",
            0},
           {"mov.b32 %r1, -1;\n setp.hi.u32 %p0, %r1, 5;\n"
            " selp.u32 %r0, 1, 0, %p0;\n st.global.u32 [%out], %r0;",
            1},
           {"mov.pred %p1, 0;\n setp.lt.and.s32 %p0, 1, 2, %p1;\n"
            " selp.u32 %r0, 1, 0, %p0;\n st.global.u32 [%out], %r0;",
            0},
           {"mov.pred %p1, 1;\n setp.gt.xor.s32 %p0, 1, 2, %p1;\n"
            " selp.u32 %r0, 1, 0, %p0;\n st.global.u32 [%out], %r0;",
            1},
           {"mov.f64 %fd0, 0d7FF0000000000000;\n testp.infinite.f64 %p0, "
            "%fd0;\n"
            " selp.u32 %r0, 1, 0, %p0;\n st.global.u32 [%out], %r0;",
            1},
           {"mov.f32 %f0, 0f00000001;\n testp.subnormal.f32 %p0, %f0;\n"
            " testp.finite.f32 %p1, %f0;\n and.pred %p2, %p0, %p1;\n"
            " selp.u32 %r0, 1, 0, %p2;\n st.global.u32 [%out], %r0;",
            1},
       }) {
    EXPECT_EQ(Result(c.body), c.expected) << c.body;
  }
}

TEST(FloatSemanticsTest, MinMaxNegAbsOnNaNsAndZeros) {
  const std::string nan = F32Literal(std::numeric_limits<float>::quiet_NaN());
  const std::vector<uint64_t> words = RunBody(absl::StrCat(
      "mov.f32 %f0, ", nan, ";\n mov.f32 %f1, 0f3F800000;\n",
      " min.f32 %f2, %f0, %f1;\n st.global.f32 [%out], %f2;\n",
      " max.NaN.f32 %f2, %f0, %f1;\n st.global.f32 [%out+8], %f2;\n",
      " mov.f32 %f3, 0f80000000;\n mov.f32 %f4, 0f00000000;\n",
      " max.f32 %f2, %f3, %f4;\n st.global.f32 [%out+16], %f2;\n",
      " min.f32 %f2, %f4, %f3;\n st.global.f32 [%out+24], %f2;\n",
      " abs.f32 %f2, %f3;\n st.global.f32 [%out+32], %f2;\n",
      " neg.f32 %f2, %f4;\n st.global.f32 [%out+40], %f2;\n",
      " min.f32 %f2, %f0, %f0;\n st.global.f32 [%out+48], %f2;\n",
      " max.s32 %r0, -5, 3;\n st.global.u32 [%out+56], %r0;\n"));
  ASSERT_EQ(words.size(), 8);
  EXPECT_EQ(words[0], F32Bits(1.0f));
  EXPECT_TRUE(
      std::isnan(std::bit_cast<float>(static_cast<uint32_t>(words[1]))));
  EXPECT_EQ(words[2], F32Bits(0.0f));
  EXPECT_EQ(words[3], F32Bits(-0.0f));
  EXPECT_EQ(words[4], F32Bits(0.0f));
  EXPECT_EQ(words[5], F32Bits(-0.0f));
  EXPECT_TRUE(
      std::isnan(std::bit_cast<float>(static_cast<uint32_t>(words[6]))));
  EXPECT_EQ(words[7], 3);
}

TEST(FloatSemanticsTest, CopysignTakesTheFirstOperandsSign) {
  // copysign d, a, b: b's magnitude with a's sign, zeros and NaN included.
  const std::vector<uint64_t> words = RunBody(
      "mov.f32 %f0, 0fC0400000;\n mov.f32 %f1, 0f3F800000;\n"  // -3, 1.
      " copysign.f32 %f2, %f0, %f1;\n st.global.f32 [%out], %f2;\n"
      " copysign.f32 %f2, %f1, %f0;\n st.global.f32 [%out+8], %f2;\n"
      " mov.f32 %f3, 0f80000000;\n"  // -0.
      " copysign.f32 %f2, %f3, 0f7FC00000;\n st.global.f32 [%out+16], %f2;\n"
      " mov.f64 %fd0, 0dC000000000000000;\n"             // -2.
      " copysign.f64 %fd1, %fd0, 0d3FF8000000000000;\n"  // 1.5.
      " st.global.f64 [%out+24], %fd1;\n");
  ASSERT_EQ(words.size(), 8);
  EXPECT_EQ(words[0], F32Bits(-1.0f));
  EXPECT_EQ(words[1], F32Bits(3.0f));
  EXPECT_EQ(words[2], 0xFFC00000u);  // A NaN with the sign set.
  EXPECT_EQ(words[3], F64Bits(-1.5));
}

TEST(FloatSemanticsTest, FmaRoundsOnce) {
  // (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24 exactly; a separate multiply rounds
  // the 2^-24 away.
  const std::vector<uint64_t> words = RunBody(R"(
  mov.f32 %f0, 0f3F800800;
  fma.rn.f32 %f1, %f0, %f0, 0fBF800000;
  st.global.f32 [%out], %f1;
  mul.rn.f32 %f2, %f0, %f0;
  add.rn.f32 %f3, %f2, 0fBF800000;
  st.global.f32 [%out+8], %f3;
  mov.b16 %h0, 0x3C01;
  mov.b16 %h1, 0x3BFF;
  mov.b16 %h2, 0x0009;
  fma.rn.f16 %h3, %h0, %h1, %h2;
  st.global.b16 [%out+16], %h3;
  mov.f64 %fd1, 0d3FF0000000400000;
  mad.rn.f64 %fd0, %fd1, %fd1, 0dBFF0000000000000;
  st.global.f64 [%out+24], %fd0;
  mul.rn.f64 %fd2, %fd1, %fd1;
  sub.rn.f64 %fd3, %fd2, 0d3FF0000000000000;
  st.global.f64 [%out+32], %fd3;
)");
  ASSERT_EQ(words.size(), 8);
  EXPECT_EQ(words[0], F32Bits(0x1p-11f + 0x1p-24f));
  EXPECT_EQ(words[1], F32Bits(0x1p-11f));
  // (1 + 2^-10)(1 - 2^-11) + 9 * 2^-24 = 1 + 2^-11 + 2^-24: just above the
  // tie between 1 and 1 + 2^-10, which an f32 fma would round onto.
  EXPECT_EQ(words[2], 0x3C01);
  // (1 + 2^-30)^2 - 1 likewise, in f64.
  EXPECT_EQ(words[3], F64Bits(0x1p-29 + 0x1p-60));
  EXPECT_EQ(words[4], F64Bits(0x1p-29));
}

TEST(FloatSemanticsTest, HalfPrecisionArithmetic) {
  const std::vector<uint64_t> words = RunBody(R"(
  mov.b16 %h0, 0x3C00;
  mov.b16 %h1, 0x1400;
  add.f16 %h2, %h0, %h1;
  st.global.b16 [%out], %h2;
  mul.rn.bf16 %h3, 0x4040, 0x4040;
  st.global.b16 [%out+8], %h3;
  neg.bf16 %h4, %h3;
  st.global.b16 [%out+16], %h4;
  max.f16 %h5, 0x7E00, 0xC000;
  st.global.b16 [%out+24], %h5;
  setp.gt.f16 %p0, 0x3C00, 0xBC00;
  selp.b16 %h6, 0x1111, 0x2222, %p0;
  st.global.b16 [%out+32], %h6;
  ex2.approx.f16 %h7, 0x4000;
  st.global.b16 [%out+40], %h7;
)");
  ASSERT_EQ(words.size(), 8);
  EXPECT_EQ(words[0], 0x3C01);  // 1 + 2^-10.
  EXPECT_EQ(words[1], 0x4110);  // 3 * 3 = 9.
  EXPECT_EQ(words[2], 0xC110);
  EXPECT_EQ(words[3], 0xC000);  // The non-NaN operand.
  EXPECT_EQ(words[4], 0x1111);
  EXPECT_EQ(words[5], 0x4400);  // 2^2 = 4.
}

TEST(FloatSemanticsTest, ApproximateFunctionsAreAccurate) {
  struct Function {
    const char* opcode;
    double (*reference)(double);
    float input;
  };
  for (const Function& f : std::vector<Function>{
           {"sin.approx.f32", [](double x) { return std::sin(x); }, 0.7f},
           {"cos.approx.ftz.f32", [](double x) { return std::cos(x); }, -2.1f},
           {"lg2.approx.f32", [](double x) { return std::log2(x); }, 10.0f},
           {"ex2.approx.ftz.f32", [](double x) { return std::exp2(x); }, 3.3f},
           {"tanh.approx.f32", [](double x) { return std::tanh(x); }, 0.4f},
           {"rsqrt.approx.f32", [](double x) { return 1 / std::sqrt(x); },
            2.0f},
           {"rcp.approx.f32", [](double x) { return 1 / x; }, 3.0f},
           {"sqrt.approx.f32", [](double x) { return std::sqrt(x); }, 2.0f},
           {"sqrt.rn.f32", [](double x) { return std::sqrt(x); }, 2.0f},
           {"rcp.rn.f32", [](double x) { return 1 / x; }, 3.0f},
       }) {
    const uint64_t bits = Result(
        absl::StrCat("mov.f32 %f0, ", F32Literal(f.input), ";\n ", f.opcode,
                     " %f1, %f0;\n st.global.f32 [%out], %f1;"));
    const float actual = std::bit_cast<float>(static_cast<uint32_t>(bits));
    const double expected = f.reference(f.input);
    EXPECT_NEAR(actual, expected, std::fabs(expected) * 0x1p-22) << f.opcode;
  }
  EXPECT_EQ(Result("div.approx.f32 %f0, 0f40400000, 0f40000000;\n"
                   " st.global.f32 [%out], %f0;"),
            F32Bits(1.5f));
  EXPECT_EQ(Result("lg2.approx.f32 %f0, 0f00000000;\n"
                   " st.global.f32 [%out], %f0;"),
            F32Bits(-std::numeric_limits<float>::infinity()));
  EXPECT_EQ(Result("rsqrt.approx.f32 %f0, 0f80000000;\n"
                   " st.global.f32 [%out], %f0;"),
            F32Bits(-std::numeric_limits<float>::infinity()));
}

TEST(FloatSemanticsTest, FtzAndSatModifiers) {
  const std::vector<uint64_t> words = RunBody(R"(
  mov.f32 %f0, 0f00000003;
  add.ftz.f32 %f1, %f0, %f0;
  st.global.f32 [%out], %f1;
  add.f32 %f2, %f0, %f0;
  st.global.f32 [%out+8], %f2;
  mul.sat.f32 %f3, 0f40000000, 0f40000000;
  st.global.f32 [%out+16], %f3;
  sub.sat.f32 %f4, 0f00000000, 0f3F800000;
  st.global.f32 [%out+24], %f4;
)");
  ASSERT_EQ(words.size(), 8);
  EXPECT_EQ(words[0], 0);
  EXPECT_EQ(words[1], 6);
  EXPECT_EQ(words[2], F32Bits(1.0f));
  EXPECT_EQ(words[3], 0);
}

// Directed rounding, against the host's IEEE arithmetic in the same mode.
enum class HostOp { kAdd, kSub, kMul, kDiv, kSqrt, kFma };

template <typename F>
F HostResult(HostOp op, int mode, F a, F b, F c) {
  volatile F x = a, y = b, z = c;
  volatile F result;
  std::fesetround(mode);
  switch (op) {
    case HostOp::kAdd:
      result = x + y;
      break;
    case HostOp::kSub:
      result = x - y;
      break;
    case HostOp::kMul:
      result = x * y;
      break;
    case HostOp::kDiv:
      result = x / y;
      break;
    case HostOp::kSqrt:
      result = std::sqrt(static_cast<F>(x));
      break;
    case HostOp::kFma:
      result =
          std::fma(static_cast<F>(x), static_cast<F>(y), static_cast<F>(z));
      break;
  }
  std::fesetround(FE_TONEAREST);
  return result;
}

template <typename F>
void CheckDirectedRounding(const char* type, bool with_fma) {
  struct Op {
    HostOp op;
    const char* name;
    int sources;
  };
  std::vector<Op> ops = {{HostOp::kAdd, "add", 2},
                         {HostOp::kSub, "sub", 2},
                         {HostOp::kMul, "mul", 2},
                         {HostOp::kDiv, "div", 2},
                         {HostOp::kSqrt, "sqrt", 1}};
  if (with_fma) ops.push_back({HostOp::kFma, "fma", 3});
  struct Mode {
    int host;
    const char* name;
  };
  const std::vector<Mode> modes = {{FE_TOWARDZERO, "rz"},
                                   {FE_DOWNWARD, "rm"},
                                   {FE_UPWARD, "rp"},
                                   {FE_TONEAREST, "rn"}};
  constexpr int kSize = sizeof(F);
  const int results = static_cast<int>(ops.size() * modes.size());
  // Thread i computes every op and mode on a[i], b[i], c[i].
  std::string body;
  int slot = 0;
  for (const Op& op : ops) {
    for (const Mode& mode : modes) {
      const std::string sources = op.sources == 1   ? "%v0"
                                  : op.sources == 2 ? "%v0, %v1"
                                                    : "%v0, %v1, %v2";
      absl::StrAppend(&body, "  ", op.name, ".", mode.name, ".", type, " %v3, ",
                      sources, ";\n  st.global.", type, " [%rd7+", slot * kSize,
                      "], %v3;\n");
      ++slot;
    }
  }
  const std::string text = absl::StrCat(
      kHeader, ".visible .entry k(.param .u64 a, .param .u64 b,\n",
      "    .param .u64 c, .param .u64 out)\n{\n",
      "  .reg .b32 %r<4>;\n  .reg .b64 %rd<8>;\n  .reg .", type, " %v<4>;\n",
      "  mov.u32 %r0, %ctaid.x;\n  mov.u32 %r1, %ntid.x;\n",
      "  mov.u32 %r2, %tid.x;\n  mad.lo.u32 %r3, %r0, %r1, %r2;\n",
      "  mul.wide.u32 %rd0, %r3, ", kSize, ";\n",
      "  ld.param.u64 %rd1, [a];\n  add.u64 %rd1, %rd1, %rd0;\n",
      "  ld.global.", type, " %v0, [%rd1];\n",
      "  ld.param.u64 %rd2, [b];\n  add.u64 %rd2, %rd2, %rd0;\n",
      "  ld.global.", type, " %v1, [%rd2];\n",
      "  ld.param.u64 %rd3, [c];\n  add.u64 %rd3, %rd3, %rd0;\n",
      "  ld.global.", type, " %v2, [%rd3];\n", "  mul.wide.u32 %rd4, %r3, ",
      results * kSize, ";\n",
      "  ld.param.u64 %rd7, [out];\n  add.u64 %rd7, %rd7, %rd4;\n", body,
      "}\n");
  constexpr int kThreads = 64, kBlocks = 32;
  constexpr int kN = kThreads * kBlocks;
  std::mt19937_64 random(99);
  auto value = [&](int i) -> F {
    switch (i % 16) {
      case 0:
        return 0;
      case 1:
        return -0.0;
      case 2:
        return std::numeric_limits<F>::infinity();
      case 3:
        return std::numeric_limits<F>::denorm_min() * 3;
      case 4:
        return std::numeric_limits<F>::max();
      default: {
        const F mantissa = static_cast<F>(
            std::uniform_real_distribution<double>(1, 2)(random));
        const int exponent = static_cast<int>(random() % 40) - 20;
        return std::ldexp(random() % 2 ? mantissa : -mantissa, exponent);
      }
    }
  };
  std::vector<F> a(kN), b(kN), c(kN);
  for (int i = 0; i < kN; ++i) {
    a[i] = value(i);
    b[i] = value(i / 16 + 5 * i);
    c[i] = value(3 * i + 7);
  }
  Memory memory(kN * kSize * (3 + results));
  std::memcpy(memory.data(), a.data(), kN * kSize);
  std::memcpy(memory.data() + kN * kSize, b.data(), kN * kSize);
  std::memcpy(memory.data() + 2 * kN * kSize, c.data(), kN * kSize);
  std::string error;
  std::unique_ptr<PtxModule> module = PtxModule::Parse(text, &error);
  ASSERT_NE(module, nullptr) << error << "\n" << text;
  ASSERT_TRUE(module->Find("k")->Run(
      {kBlocks, 1, 1}, {kThreads, 1, 1},
      {U64Param(memory.address()), U64Param(memory.address(kN * kSize)),
       U64Param(memory.address(2 * kN * kSize)),
       U64Param(memory.address(3 * kN * kSize))},
      memory.Translator(), &error))
      << error;
  int failures = 0;
  for (int i = 0; i < kN && failures < 20; ++i) {
    int k = 0;
    for (const Op& op : ops) {
      for (const Mode& mode : modes) {
        F actual;
        std::memcpy(&actual, memory.data() + (3 * kN + i * results + k) * kSize,
                    kSize);
        ++k;
        const F expected = HostResult(op.op, mode.host, a[i], b[i], c[i]);
        const bool same = (std::isnan(actual) && std::isnan(expected)) ||
                          std::memcmp(&actual, &expected, kSize) == 0;
        if (!same) {
          ++failures;
          ADD_FAILURE() << op.name << "." << mode.name << "." << type << "("
                        << a[i] << ", " << b[i] << ", " << c[i]
                        << ") = " << actual << ", expected " << expected;
        }
      }
    }
  }
}

TEST(FloatSemanticsTest, DirectedRoundingF32MatchesTheHost) {
  CheckDirectedRounding<float>("f32", /*with_fma=*/true);
}

TEST(FloatSemanticsTest, DirectedRoundingF64MatchesTheHost) {
  CheckDirectedRounding<double>("f64", /*with_fma=*/false);
}

// out[linear id] = tid.x | tid.y << 4 | tid.z << 8 | ctaid.x << 12 |
// ctaid.y << 16 | ctaid.z << 20 (added to what is there), where the linear
// id is built from the special registers too.
constexpr char kIndexKernel[] = R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<20>;
  .reg .b64 %rd<4>;
  mov.u32 %r0, %tid.x;
  mov.u32 %r1, %tid.y;
  mov.u32 %r2, %tid.z;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ctaid.y;
  mov.u32 %r5, %ctaid.z;
  mov.u32 %r6, %ntid.x;
  mov.u32 %r7, %ntid.y;
  mov.u32 %r8, %ntid.z;
  mov.u32 %r9, %nctaid.x;
  mov.u32 %r10, %nctaid.y;
  mad.lo.u32 %r11, %r5, %r10, %r4;
  mad.lo.u32 %r11, %r11, %r9, %r3;
  mad.lo.u32 %r11, %r11, %r8, %r2;
  mad.lo.u32 %r11, %r11, %r7, %r1;
  mad.lo.u32 %r11, %r11, %r6, %r0;
  shl.b32 %r12, %r1, 4;
  or.b32 %r13, %r0, %r12;
  shl.b32 %r12, %r2, 8;
  or.b32 %r13, %r13, %r12;
  shl.b32 %r12, %r3, 12;
  or.b32 %r13, %r13, %r12;
  shl.b32 %r12, %r4, 16;
  or.b32 %r13, %r13, %r12;
  shl.b32 %r12, %r5, 20;
  or.b32 %r13, %r13, %r12;
  ld.param.u64 %rd0, [out];
  mul.wide.u32 %rd1, %r11, 4;
  add.u64 %rd2, %rd0, %rd1;
  ld.global.u32 %r14, [%rd2];
  add.u32 %r15, %r14, %r13;
  st.global.u32 [%rd2], %r15;
}
)";

// Runs kIndexKernel over a (3, 2, 2) grid of (4, 3, 2) blocks and checks
// that every thread wrote its indices, once, where its linear id says.
void RunIndexKernel(const PtxKernel& kernel) {
  const Dim3 grid{3, 2, 2}, block{4, 3, 2};
  const int n = 3 * 2 * 2 * 4 * 3 * 2;
  Memory memory(n * 4);
  std::string error;
  ASSERT_TRUE(kernel.Run(grid, block, {U64Param(memory.address())},
                         memory.Translator(), &error))
      << error;
  std::vector<uint32_t> out(n);
  std::memcpy(out.data(), memory.data(), n * 4);
  int i = 0;
  for (unsigned bz = 0; bz < 2; ++bz) {
    for (unsigned by = 0; by < 2; ++by) {
      for (unsigned bx = 0; bx < 3; ++bx) {
        for (unsigned tz = 0; tz < 2; ++tz) {
          for (unsigned ty = 0; ty < 3; ++ty) {
            for (unsigned tx = 0; tx < 4; ++tx) {
              EXPECT_EQ(out[i++], tx | ty << 4 | tz << 8 | bx << 12 | by << 16 |
                                      bz << 20);
            }
          }
        }
      }
    }
  }
}

TEST(ExecutionTest, EveryThreadOfA3dGridRunsWithItsIndices) {
  std::string error;
  std::unique_ptr<PtxModule> module =
      PtxModule::Parse(absl::StrCat(kHeader, kIndexKernel), &error);
  ASSERT_NE(module, nullptr) << error;
  RunIndexKernel(*module->Find("k"));
}

// A driver may launch one kernel from several host threads at once: Run
// keeps its state per call.
TEST(ExecutionTest, ConcurrentRunsOfOneKernelAreIndependent) {
  std::string error;
  std::unique_ptr<PtxModule> module =
      PtxModule::Parse(absl::StrCat(kHeader, kIndexKernel), &error);
  ASSERT_NE(module, nullptr) << error;
  const PtxKernel& kernel = *module->Find("k");
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&kernel] {
      for (int repeat = 0; repeat < 20; ++repeat) RunIndexKernel(kernel);
    });
  }
  for (std::thread& thread : threads) thread.join();
}

TEST(ExecutionTest, GuardsAndLabels) {
  const std::vector<uint64_t> words = RunBody(R"(
  mov.u32 %r0, 0;
  mov.u32 %r1, 0;
$L_top:
  add.u32 %r0, %r0, 3;
  add.u32 %r1, %r1, 1;
  setp.lt.u32 %p0, %r1, 10;
  @%p0 bra $L_top;
  st.global.u32 [%out], %r0;
  @!%p0 mov.u32 %r2, 11;
  @%p0 mov.u32 %r2, 22;
  st.global.u32 [%out+8], %r2;
  mov.pred %p1, 1;
  @%p1 bra.uni $L_skip;
  st.global.u32 [%out+16], %r2;
$L_skip:
  st.global.u32 [%out+24], 0x77;
  // A guarded-off access is not made: address 0 would fault.
  mov.b64 %rd0, 0;
  @!%p1 st.global.u32 [%rd0], %r0;
  @!%p1 ld.global.u32 %r3, [%rd0];
  // Declarations may come anywhere, several at once.
  .reg .u32 %a, %b<2>;
  mov.u32 %a, 5;
  mov.u32 %b1, 6;
  mad.lo.u32 %b0, %a, %b1, %a;
  st.global.u32 [%out+32], %b0;
)");
  EXPECT_THAT(words, ::testing::ElementsAre(30, 11, 0, 0x77, 35, 0, 0, 0));
}

TEST(ExecutionTest, LiteralForms) {
  const std::vector<uint64_t> words = RunBody(R"(
  mov.u32 %r0, 010;
  st.global.u32 [%out], %r0;
  mov.u32 %r1, 0b101;
  st.global.u32 [%out+8], %r1;
  mov.f32 %f0, 1.5;
  st.global.f32 [%out+16], %f0;
  mov.f32 %f1, 0d3FF8000000000000;
  st.global.f32 [%out+24], %f1;
  mov.s64 %rd0, -5;
  st.global.u64 [%out+32], %rd0;
  mov.f64 %fd0, 2.5e-1;
  st.global.f64 [%out+40], %fd0;
  mov.f32 %f2, -0f3F800000;
  st.global.f32 [%out+48], %f2;
  mov.u32 %r2, 4294967295U;
  st.global.u32 [%out+56], %r2;
)");
  EXPECT_THAT(words, ::testing::ElementsAre(8, 5, F32Bits(1.5f), F32Bits(1.5f),
                                            0xFFFFFFFFFFFFFFFB, F64Bits(0.25),
                                            F32Bits(-1.0f), 0xFFFFFFFF));
}

TEST(ExecutionTest, EndlessLoopHitsTheInstructionBudget) {
  const std::string text = absl::StrCat(kHeader, R"(
.visible .entry spin()
{
$L:
  bra $L;
}
)");
  std::vector<ptx::KernelProgram> kernels;
  std::string error;
  ASSERT_TRUE(ptx::ParseModule(text, &kernels, &error)) << error;
  ASSERT_EQ(kernels.size(), 1);
  Memory memory(8);
  EXPECT_FALSE(ptx::Execute(kernels[0], {1, 1, 1}, {2, 1, 1}, {},
                            memory.Translator(), 1000, &error));
  EXPECT_THAT(error, HasSubstr("more than 1000 instructions"));
  EXPECT_THAT(error, HasSubstr("kernel 'spin'"));
}

TEST(ExecutionTest, MisalignedAccessFails) {
  std::string error;
  const std::string text = absl::StrCat(kHeader, R"(
.visible .entry k(.param .u64 out)
{
  .reg .b64 %rd0;
  ld.param.u64 %rd0, [out];
  st.global.u32 [%rd0+2], 1;
}
)");
  std::unique_ptr<PtxModule> module = PtxModule::Parse(text, &error);
  ASSERT_NE(module, nullptr) << error;
  Memory memory(16);
  EXPECT_FALSE(module->Find("k")->Run({1, 1, 1}, {1, 1, 1},
                                      {U64Param(memory.address())},
                                      memory.Translator(), &error));
  EXPECT_THAT(error, HasSubstr("0x10002 is not aligned to 4 bytes"));
  EXPECT_THAT(error, HasSubstr("line 10 (st.global.u32)"));
}

TEST(ParserTest, ParamsOfEveryTypeAndArrays) {
  const std::string text = absl::StrCat(kHeader, R"(
.entry k(.param .u8 a, .param .f64 b, .param .align 8 .b8 c[12], .param .s16 d)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.s16 %r0, [d];
  ld.param.u32 %r1, [c+8];
  ld.param.u64 %rd0, [b];
  ret;
}
)");
  std::string error;
  std::unique_ptr<PtxModule> module = PtxModule::Parse(text, &error);
  ASSERT_NE(module, nullptr) << error;
  EXPECT_THAT(module->Find("k")->param_sizes(),
              ::testing::ElementsAre(1, 8, 12, 2));
}

TEST(ParserTest, ErrorsNameTheLine) {
  auto parse_body = [](const std::string& body) {
    const std::string text = absl::StrCat(
        kHeader, ".visible .entry k(.param .u64 a)\n{\n",
        "  .reg .b32 %r<4>;\n  .reg .pred %p<2>;\n  .reg .f32 %f<2>;\n", body,
        "\n}\n");
    std::string error;
    EXPECT_EQ(PtxModule::Parse(text, &error), nullptr) << body;
    return error;
  };
  // The body starts on line 10.
  EXPECT_EQ(parse_body("add.cc.u32 %r0, %r1, %r2;"),
            "line 10: unsupported instruction 'add.cc.u32'");
  EXPECT_EQ(parse_body("ld.global.v2.f32 %f0, [%r0];"),
            "line 10: unsupported instruction 'ld.global.v2.f32'");
  EXPECT_EQ(parse_body("cvt.s32.f32 %r0, %f0;"),
            "line 10: unsupported instruction 'cvt.s32.f32'");
  EXPECT_EQ(parse_body("fma.rz.f64 %f0, %f0, %f0, %f0;"),
            "line 10: unsupported instruction 'fma.rz.f64'");
  EXPECT_EQ(parse_body("ld.shared.f32 %f0, [%r0];"),
            "line 10: unsupported instruction 'ld.shared.f32'");
  EXPECT_EQ(parse_body("\nbar.sync 0;"),
            "line 11: unsupported instruction 'bar.sync'");
  EXPECT_EQ(parse_body("add.s32 %r0, %r1;"),
            "line 10: 'add.s32' takes 3 operands, not 2");
  EXPECT_EQ(parse_body("@%r0 bra $L;"), "line 10: %r0 is not a predicate");
  EXPECT_EQ(parse_body("add.s32 %r0, %p0, 1;"),
            "line 10: predicate %p0 where a value is expected");
  EXPECT_EQ(parse_body("setp.lt.f32 %p0|%p1, %f0, %f1;"),
            "line 10: two destination predicates (p|q) are not supported");
  EXPECT_EQ(parse_body("mov.b32 %r0, {%r1, %r2};"),
            "line 10: vector operands are not supported");
  EXPECT_EQ(parse_body("ld.param.u64 %r0, [a+4];"),
            "line 10: reads past the end of parameter 'a'");
  EXPECT_EQ(parse_body("ld.param.u32 %r0, [b];"),
            "line 10: 'b' is not a parameter of the kernel");
  EXPECT_EQ(parse_body("mov.u32 %tid.x, 1;"), "line 10: cannot write %tid.x");
  EXPECT_EQ(parse_body("mov.u32 %r0, %laneid;"),
            "line 10: undeclared register '%laneid'");
  EXPECT_EQ(parse_body("mov.u32 %r0, 1.5;"),
            "line 10: literal 1.5 does not fit the operand");
  EXPECT_EQ(parse_body("L:\nL:"), "line 11: label 'L' is defined twice");
  EXPECT_EQ(parse_body(".reg .b32 %r1;"),
            "line 10: register '%r1' is declared twice");
  EXPECT_EQ(parse_body("{ ret; }"), "line 10: nested blocks are not supported");
  EXPECT_EQ(parse_body(".shared .f32 s[4];"),
            "line 10: unsupported directive '.shared'");
  EXPECT_EQ(parse_body("mov.u32 %r0, 1 # comment"),
            "line 10: unexpected character '#'");
  EXPECT_THAT(parse_body("/* never closed"),
              StartsWith("line 10: unterminated comment"));
}

TEST(ParserTest, TwoKernelsAndComments) {
  const std::string text = absl::StrCat(kHeader, R"(
// A comment.
.visible .entry first() { ret; }
/* A block
   comment. */ .visible .entry second(.param .u32 n) { exit; }
)");
  std::string error;
  std::unique_ptr<PtxModule> module = PtxModule::Parse(text, &error);
  ASSERT_NE(module, nullptr) << error;
  ASSERT_NE(module->Find("first"), nullptr);
  ASSERT_NE(module->Find("second"), nullptr);
  EXPECT_THAT(module->Find("second")->param_sizes(), ::testing::ElementsAre(4));
  EXPECT_EQ(
      PtxModule::Parse(absl::StrCat(text, ".entry first() { ret; }\n"), &error),
      nullptr);
  EXPECT_EQ(error, "line 10: kernel 'first' is defined twice");
}

}  // namespace
}  // namespace fake_cuda
