#include "tests/plugins/cuda/ptx_interpreter/types.h"

#include <optional>
#include <string_view>

namespace fake_cuda::ptx {

std::optional<Type> TypeFromName(std::string_view name) {
  struct Entry {
    std::string_view name;
    Type type;
  };
  static constexpr Entry kTypes[] = {
      {"pred", Type::kPred}, {"b8", Type::kB8},   {"b16", Type::kB16},
      {"b32", Type::kB32},   {"b64", Type::kB64}, {"u8", Type::kU8},
      {"u16", Type::kU16},   {"u32", Type::kU32}, {"u64", Type::kU64},
      {"s8", Type::kS8},     {"s16", Type::kS16}, {"s32", Type::kS32},
      {"s64", Type::kS64},   {"f16", Type::kF16}, {"bf16", Type::kBF16},
      {"f32", Type::kF32},   {"f64", Type::kF64},
  };
  for (const Entry& entry : kTypes) {
    if (entry.name == name) return entry.type;
  }
  return std::nullopt;
}

int SizeOf(Type type) {
  switch (type) {
    case Type::kNone:
      return 0;
    case Type::kPred:
    case Type::kB8:
    case Type::kU8:
    case Type::kS8:
      return 1;
    case Type::kB16:
    case Type::kU16:
    case Type::kS16:
    case Type::kF16:
    case Type::kBF16:
      return 2;
    case Type::kB32:
    case Type::kU32:
    case Type::kS32:
    case Type::kF32:
      return 4;
    case Type::kB64:
    case Type::kU64:
    case Type::kS64:
    case Type::kF64:
      return 8;
  }
  return 0;
}

bool IsSigned(Type type) {
  return type == Type::kS8 || type == Type::kS16 || type == Type::kS32 ||
         type == Type::kS64;
}

bool IsBitsOrUnsigned(Type type) {
  switch (type) {
    case Type::kB8:
    case Type::kB16:
    case Type::kB32:
    case Type::kB64:
    case Type::kU8:
    case Type::kU16:
    case Type::kU32:
    case Type::kU64:
      return true;
    default:
      return false;
  }
}

bool IsInteger(Type type) { return IsSigned(type) || IsBitsOrUnsigned(type); }

bool IsFloat(Type type) {
  return type == Type::kF16 || type == Type::kBF16 || type == Type::kF32 ||
         type == Type::kF64;
}

}  // namespace fake_cuda::ptx
