#include "compiler_stub/ir/element_type.h"

#include <array>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace pjrtx::ir {
namespace {

struct TypeInfo {
  ElementType type;
  const char* mlir;
  int bits;
  size_t storage;
};

constexpr std::array<TypeInfo, 19> kTypes = {{
    {ElementType::kPred, "i1", 1, 1},
    {ElementType::kS2, "si2", 2, 1},
    {ElementType::kS4, "si4", 4, 1},
    {ElementType::kS8, "si8", 8, 1},
    {ElementType::kS16, "si16", 16, 2},
    {ElementType::kS32, "si32", 32, 4},
    {ElementType::kS64, "si64", 64, 8},
    {ElementType::kU2, "ui2", 2, 1},
    {ElementType::kU4, "ui4", 4, 1},
    {ElementType::kU8, "ui8", 8, 1},
    {ElementType::kU16, "ui16", 16, 2},
    {ElementType::kU32, "ui32", 32, 4},
    {ElementType::kU64, "ui64", 64, 8},
    {ElementType::kF16, "f16", 16, 2},
    {ElementType::kBF16, "bf16", 16, 2},
    {ElementType::kF32, "f32", 32, 4},
    {ElementType::kF64, "f64", 64, 8},
    {ElementType::kF8E4M3FN, "f8E4M3FN", 8, 1},
    {ElementType::kF8E5M2, "f8E5M2", 8, 1},
}};

const TypeInfo& Info(ElementType type) {
  return kTypes[static_cast<size_t>(type)];
}

}  // namespace

size_t StorageSize(ElementType type) { return Info(type).storage; }
int BitWidth(ElementType type) { return Info(type).bits; }

bool IsFloat(ElementType type) { return type >= ElementType::kF16; }
bool IsSignedInt(ElementType type) {
  return type >= ElementType::kS2 && type <= ElementType::kS64;
}
bool IsUnsignedInt(ElementType type) {
  return type >= ElementType::kU2 && type <= ElementType::kU64;
}
bool IsInteger(ElementType type) {
  return IsSignedInt(type) || IsUnsignedInt(type);
}

std::optional<ElementType> ElementTypeFromMlir(std::string_view spelling) {
  for (const TypeInfo& info : kTypes) {
    if (spelling == info.mlir) return info.type;
    // Signless integers are signed in StableHLO.
    if (info.mlir[0] == 's' && spelling == info.mlir + 1) return info.type;
  }
  return std::nullopt;
}

std::string ElementTypeToMlir(ElementType type) { return Info(type).mlir; }

int64_t Shape::num_elements() const {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

std::string Shape::ToString() const {
  if (dims.empty())
    return absl::StrCat("tensor<", ElementTypeToMlir(type), ">");
  return absl::StrCat("tensor<", absl::StrJoin(dims, "x"), "x",
                      ElementTypeToMlir(type), ">");
}

}  // namespace pjrtx::ir
