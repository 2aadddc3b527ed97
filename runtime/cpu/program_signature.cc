#include "runtime/cpu/program_signature.h"

#include <cstddef>

#include "absl/strings/str_cat.h"

namespace pjrtx::cpu {

PJRTX_Buffer_Type ToBufferType(ir::ElementType type) {
  switch (type) {
    case ir::ElementType::kPred:
      return PJRTX_Buffer_Type_PRED;
    case ir::ElementType::kS2:
      return PJRTX_Buffer_Type_S2;
    case ir::ElementType::kS4:
      return PJRTX_Buffer_Type_S4;
    case ir::ElementType::kS8:
      return PJRTX_Buffer_Type_S8;
    case ir::ElementType::kS16:
      return PJRTX_Buffer_Type_S16;
    case ir::ElementType::kS32:
      return PJRTX_Buffer_Type_S32;
    case ir::ElementType::kS64:
      return PJRTX_Buffer_Type_S64;
    case ir::ElementType::kU2:
      return PJRTX_Buffer_Type_U2;
    case ir::ElementType::kU4:
      return PJRTX_Buffer_Type_U4;
    case ir::ElementType::kU8:
      return PJRTX_Buffer_Type_U8;
    case ir::ElementType::kU16:
      return PJRTX_Buffer_Type_U16;
    case ir::ElementType::kU32:
      return PJRTX_Buffer_Type_U32;
    case ir::ElementType::kU64:
      return PJRTX_Buffer_Type_U64;
    case ir::ElementType::kF16:
      return PJRTX_Buffer_Type_F16;
    case ir::ElementType::kBF16:
      return PJRTX_Buffer_Type_BF16;
    case ir::ElementType::kF32:
      return PJRTX_Buffer_Type_F32;
    case ir::ElementType::kF64:
      return PJRTX_Buffer_Type_F64;
    case ir::ElementType::kF8E4M3FN:
      return PJRTX_Buffer_Type_F8E4M3FN;
    case ir::ElementType::kF8E5M2:
      return PJRTX_Buffer_Type_F8E5M2;
  }
  return PJRTX_Buffer_Type_INVALID;
}

absl::StatusOr<std::vector<ArraySignature>> Signatures(
    const std::vector<ir::ValueType>& types, const std::vector<bool>& complex,
    const char* what) {
  std::vector<ArraySignature> signatures;
  for (size_t i = 0; i < types.size(); ++i) {
    if (types[i].kind != ir::ValueType::Kind::kTensor) {
      return absl::UnimplementedError(
          absl::StrCat("Entry ", what, " ", i, " is ", types[i].ToString(),
                       "; entry functions take and return tensors only"));
    }
    const ir::Shape& shape = types[i].shape;
    if (i < complex.size() && complex[i]) {
      // Interleaved parts; the expansion made them [..., 2] of f32 or f64.
      if (shape.dims.empty() || shape.dims.back() != 2 ||
          (shape.type != ir::ElementType::kF32 &&
           shape.type != ir::ElementType::kF64)) {
        return absl::InternalError(
            absl::StrCat("Entry ", what, " ", i, " is a complex value held as ",
                         types[i].ToString(), ", expected [..., 2] parts"));
      }
      signatures.push_back(
          {shape.type == ir::ElementType::kF32 ? PJRTX_Buffer_Type_C64
                                               : PJRTX_Buffer_Type_C128,
           std::vector<int64_t>(shape.dims.begin(), shape.dims.end() - 1)});
      continue;
    }
    signatures.push_back({ToBufferType(shape.type), shape.dims});
  }
  return signatures;
}

}  // namespace pjrtx::cpu
