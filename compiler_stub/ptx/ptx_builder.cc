#include "compiler_stub/ptx/ptx_builder.h"

#include <bit>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace pjrtx::ptx {
namespace {

struct ClassInfo {
  const char* prefix;
  const char* type;
};

// nvcc's register prefixes, so that the text reads like its output.
constexpr std::array<ClassInfo, 6> kClasses = {{
    {"%p", ".pred"},
    {"%rs", ".b16"},
    {"%r", ".b32"},
    {"%rd", ".b64"},
    {"%f", ".f32"},
    {"%fd", ".f64"},
}};

}  // namespace

std::optional<RegisterClass> RegisterClassFor(ir::ElementType type) {
  switch (type) {
    case ir::ElementType::kPred:
      return RegisterClass::kPred;
    case ir::ElementType::kF16:
    case ir::ElementType::kBF16:
      return RegisterClass::kB16;
    case ir::ElementType::kF32:
      return RegisterClass::kF32;
    case ir::ElementType::kF64:
      return RegisterClass::kF64;
    case ir::ElementType::kF8E4M3FN:
    case ir::ElementType::kF8E5M2:
      return std::nullopt;
    default:
      return ir::BitWidth(type) == 64 ? RegisterClass::kB64
                                      : RegisterClass::kB32;
  }
}

std::string HexImmediate(uint64_t bits, int digits) {
  std::string text = "0x" + std::string(digits, '0');
  for (int i = 0; i < digits; ++i, bits >>= 4) {
    text[text.size() - 1 - i] = "0123456789ABCDEF"[bits & 0xF];
  }
  return text;
}

std::string F32Immediate(float value) {
  return "0f" + HexImmediate(std::bit_cast<uint32_t>(value), 8).substr(2);
}

std::string F64Immediate(double value) {
  return "0d" + HexImmediate(std::bit_cast<uint64_t>(value), 16).substr(2);
}

std::string PtxBuilder::NewRegister(RegisterClass register_class) {
  const int index = static_cast<int>(register_class);
  return absl::StrCat(kClasses[index].prefix, counts_[index]++);
}

void PtxBuilder::Emit(absl::string_view opcode,
                      std::initializer_list<absl::string_view> operands) {
  absl::StrAppend(&code_, "  ", opcode, operands.size() == 0 ? "" : " ",
                  absl::StrJoin(operands, ", "), ";\n");
}

void PtxBuilder::Emit(absl::string_view opcode,
                      const std::vector<std::string>& operands) {
  absl::StrAppend(&code_, "  ", opcode, operands.empty() ? "" : " ",
                  absl::StrJoin(operands, ", "), ";\n");
}

void PtxBuilder::EmitLabel(absl::string_view label) {
  absl::StrAppend(&code_, label, ":\n");
}

std::string PtxBuilder::RegisterDeclarations() const {
  std::string declarations;
  for (size_t i = 0; i < kClasses.size(); ++i) {
    if (counts_[i] == 0) continue;
    absl::StrAppend(&declarations, "  .reg ", kClasses[i].type, " ",
                    kClasses[i].prefix, "<", counts_[i], ">;\n");
  }
  return declarations;
}

}  // namespace pjrtx::ptx
