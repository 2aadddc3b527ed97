#include "runtime/cli/npy_element_type.h"

#include "absl/strings/str_cat.h"
#include "runtime/cli/npy_file.h"

namespace pjrtx::cli {

absl::StatusOr<std::string> NpyCodeOf(PJRTX_Buffer_Type type) {
  switch (type) {
    case PJRTX_Buffer_Type_PRED:
      return "b1";
    case PJRTX_Buffer_Type_S8:
      return "i1";
    case PJRTX_Buffer_Type_S16:
      return "i2";
    case PJRTX_Buffer_Type_S32:
      return "i4";
    case PJRTX_Buffer_Type_S64:
      return "i8";
    case PJRTX_Buffer_Type_U8:
      return "u1";
    case PJRTX_Buffer_Type_U16:
      return "u2";
    case PJRTX_Buffer_Type_U32:
      return "u4";
    case PJRTX_Buffer_Type_U64:
      return "u8";
    case PJRTX_Buffer_Type_F16:
      return "f2";
    case PJRTX_Buffer_Type_F32:
      return "f4";
    case PJRTX_Buffer_Type_F64:
      return "f8";
    case PJRTX_Buffer_Type_C64:
      return "c8";
    case PJRTX_Buffer_Type_C128:
      return "c16";
    case PJRTX_Buffer_Type_BF16:
      return "V2";
    case PJRTX_Buffer_Type_F8E5M2:
    case PJRTX_Buffer_Type_F8E4M3FN:
    case PJRTX_Buffer_Type_F8E4M3B11FNUZ:
    case PJRTX_Buffer_Type_F8E5M2FNUZ:
    case PJRTX_Buffer_Type_F8E4M3FNUZ:
    case PJRTX_Buffer_Type_F8E4M3:
    case PJRTX_Buffer_Type_F8E3M4:
    case PJRTX_Buffer_Type_F8E8M0FNU:
      return "V1";
    default:
      return absl::UnimplementedError(
          absl::StrCat("element type ", static_cast<int>(type),
                       " has no .npy form here (booleans, integers of 8 to "
                       "64 bits and floats of 8 to 64 bits and complex "
                       "numbers do)"));
  }
}

bool NpyCodeFits(const std::string& code, PJRTX_Buffer_Type type) {
  absl::StatusOr<std::string> own = NpyCodeOf(type);
  if (!own.ok()) return false;
  return code == *own || code == absl::StrCat("V", NpyItemSize(*own));
}

}  // namespace pjrtx::cli
