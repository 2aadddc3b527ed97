// Element types of StableHLO programs, as the compiler and the CPU engine
// see them.
#ifndef PJRTX_COMPILER_STUB_IR_ELEMENT_TYPE_H_
#define PJRTX_COMPILER_STUB_IR_ELEMENT_TYPE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pjrtx::ir {

enum class ElementType : uint8_t {
  kPred,  // i1
  kS2,
  kS4,
  kS8,
  kS16,
  kS32,
  kS64,
  kU2,
  kU4,
  kU8,
  kU16,
  kU32,
  kU64,
  kF16,
  kBF16,
  kF32,
  kF64,
  kF8E4M3FN,
  kF8E5M2,
};

// Bytes one element occupies in memory: 1 for PRED, the 2- and 4-bit
// integers (stored unpacked, one per byte, sign- or zero-extended) and the
// FP8 types; 2 for F16/BF16 (raw bits); and so on.
size_t StorageSize(ElementType type);
// Width in bits of the value (2 for kS2, 16 for kBF16, 1 for kPred).
int BitWidth(ElementType type);
bool IsFloat(ElementType type);
bool IsSignedInt(ElementType type);
bool IsUnsignedInt(ElementType type);  // kPred excluded.
bool IsInteger(ElementType type);      // Signed or unsigned; kPred excluded.

// MLIR spelling: "i1", "si4" (also accepts "i4"), "ui8", "f32", "bf16",
// "f8E4M3FN", ... Signless "iN" means signed. nullopt if unsupported.
std::optional<ElementType> ElementTypeFromMlir(std::string_view spelling);
std::string ElementTypeToMlir(ElementType type);  // "i1", "si8", "ui8", ...

// A tensor's element type and static dimensions.
struct Shape {
  ElementType type = ElementType::kF32;
  std::vector<int64_t> dims;

  int64_t num_elements() const;
  size_t size_bytes() const { return num_elements() * StorageSize(type); }
  int rank() const { return static_cast<int>(dims.size()); }
  bool operator==(const Shape& other) const = default;
  std::string ToString() const;  // "tensor<2x3xf32>"
};

}  // namespace pjrtx::ir

#endif  // PJRTX_COMPILER_STUB_IR_ELEMENT_TYPE_H_
