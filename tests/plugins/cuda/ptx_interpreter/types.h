// PTX fundamental types and how their values sit in the interpreter's
// registers.
//
// Every register, whatever its declared type, is one 64-bit slot. A value
// of type T occupies the low sizeof(T) bytes; writes sign-extend signed
// integers and zero-extend everything else to 64 bits, and reads take the
// low bytes. So a .b32 register loaded with ld.s8 reads back sign-extended
// as .s32, as PTX defines for a register wider than the memory type.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_TYPES_H_
#define PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_TYPES_H_

#include <bit>
#include <concepts>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

#include "tests/plugins/cuda/ptx_interpreter/soft_float.h"

namespace fake_cuda::ptx {

static_assert(std::endian::native == std::endian::little,
              "registers and memory are read as little-endian");

using Slot = uint64_t;

enum class Type : uint8_t {
  kNone,  // Not a typed value (an address, a label).
  kPred,
  kB8,
  kB16,
  kB32,
  kB64,
  kU8,
  kU16,
  kU32,
  kU64,
  kS8,
  kS16,
  kS32,
  kS64,
  kF16,
  kBF16,
  kF32,
  kF64,
};

// "u32" -> kU32; nullopt for anything else (including f16x2 and friends).
std::optional<Type> TypeFromName(std::string_view name);
// Bytes of a value (1 for .pred, 0 for kNone).
int SizeOf(Type type);
bool IsSigned(Type type);          // .sN
bool IsBitsOrUnsigned(Type type);  // .bN, .uN
bool IsInteger(Type type);         // .bN, .uN, .sN
bool IsFloat(Type type);           // .f16, .bf16, .f32, .f64

// C++ types for the PTX types: .bN and .uN as uintN_t, .sN as intN_t,
// .f16 and .bf16 as Half and BFloat16, .pred as bool.
template <typename T>
concept IntegerValue = std::integral<T> && !std::same_as<T, bool>;
template <typename T>
concept HalfValue = std::same_as<T, Half> || std::same_as<T, BFloat16>;
template <typename T>
concept FloatValue =
    std::same_as<T, float> || std::same_as<T, double> || HalfValue<T>;

template <typename T>
inline T FromSlot(Slot slot) {
  if constexpr (std::same_as<T, bool>) {
    return slot != 0;
  } else if constexpr (std::integral<T>) {
    return static_cast<T>(slot);
  } else if constexpr (std::same_as<T, float>) {
    return std::bit_cast<float>(static_cast<uint32_t>(slot));
  } else if constexpr (std::same_as<T, double>) {
    return std::bit_cast<double>(slot);
  } else {
    return T{static_cast<uint16_t>(slot)};
  }
}

template <typename T>
inline Slot ToSlot(T value) {
  if constexpr (std::same_as<T, bool>) {
    return value ? 1 : 0;
  } else if constexpr (std::signed_integral<T>) {
    return static_cast<Slot>(static_cast<int64_t>(value));
  } else if constexpr (std::integral<T>) {
    return static_cast<Slot>(value);
  } else if constexpr (std::same_as<T, float>) {
    return std::bit_cast<uint32_t>(value);
  } else if constexpr (std::same_as<T, double>) {
    return std::bit_cast<uint64_t>(value);
  } else {
    return value.bits;
  }
}

template <typename T>
struct TypeTag {
  using type = T;
};

// Calls visitor(TypeTag<C++ type of `type`>()) and returns its result;
// `fallback` for kNone.
template <typename Result, typename Visitor>
Result VisitType(Type type, Result fallback, Visitor&& visitor) {
  switch (type) {
    case Type::kNone:
      return fallback;
    case Type::kPred:
      return visitor(TypeTag<bool>());
    case Type::kB8:
    case Type::kU8:
      return visitor(TypeTag<uint8_t>());
    case Type::kB16:
    case Type::kU16:
      return visitor(TypeTag<uint16_t>());
    case Type::kB32:
    case Type::kU32:
      return visitor(TypeTag<uint32_t>());
    case Type::kB64:
    case Type::kU64:
      return visitor(TypeTag<uint64_t>());
    case Type::kS8:
      return visitor(TypeTag<int8_t>());
    case Type::kS16:
      return visitor(TypeTag<int16_t>());
    case Type::kS32:
      return visitor(TypeTag<int32_t>());
    case Type::kS64:
      return visitor(TypeTag<int64_t>());
    case Type::kF16:
      return visitor(TypeTag<Half>());
    case Type::kBF16:
      return visitor(TypeTag<BFloat16>());
    case Type::kF32:
      return visitor(TypeTag<float>());
    case Type::kF64:
      return visitor(TypeTag<double>());
  }
  return fallback;
}

}  // namespace fake_cuda::ptx

#endif  // PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_TYPES_H_
