#include "runtime/core/base/element_type.h"

#include <array>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace pjrtx {
namespace {

constexpr std::array<const char*, 34> kTypeNames = {
    "INVALID",    "PRED",   "S8",       "S16",           "S32",
    "S64",        "U8",     "U16",      "U32",           "U64",
    "F16",        "F32",    "F64",      "BF16",          "C64",
    "C128",       "F8E5M2", "F8E4M3FN", "F8E4M3B11FNUZ", "F8E5M2FNUZ",
    "F8E4M3FNUZ", "S4",     "U4",       "TOKEN",         "S2",
    "U2",         "F8E4M3", "F8E3M4",   "F8E8M0FNU",     "F4E2M1FN",
    "S1",         "U1",     "F6E2M3FN", "F6E3M2FN"};

constexpr char kSupportedList[] =
    "PRED, S2, S4, S8, S16, S32, S64, U2, U4, U8, U16, U32, U64, F16, BF16, "
    "F32, F64, C64, C128, F8E5M2, F8E4M3FN";

}  // namespace

std::string ElementTypeName(PJRTX_Buffer_Type type) {
  int index = static_cast<int>(type);
  if (index >= 0 && index < static_cast<int>(kTypeNames.size())) {
    return kTypeNames[index];
  }
  return absl::StrCat("type ", index);
}

absl::StatusOr<size_t> SupportedElementSize(PJRTX_Buffer_Type type) {
  switch (type) {
    case PJRTX_Buffer_Type_PRED:
    case PJRTX_Buffer_Type_S2:
    case PJRTX_Buffer_Type_S4:
    case PJRTX_Buffer_Type_U2:
    case PJRTX_Buffer_Type_U4:
    case PJRTX_Buffer_Type_S8:
    case PJRTX_Buffer_Type_U8:
    case PJRTX_Buffer_Type_F8E5M2:
    case PJRTX_Buffer_Type_F8E4M3FN:
      return 1;
    case PJRTX_Buffer_Type_S16:
    case PJRTX_Buffer_Type_U16:
    case PJRTX_Buffer_Type_F16:
    case PJRTX_Buffer_Type_BF16:
      return 2;
    case PJRTX_Buffer_Type_S32:
    case PJRTX_Buffer_Type_U32:
    case PJRTX_Buffer_Type_F32:
      return 4;
    case PJRTX_Buffer_Type_S64:
    case PJRTX_Buffer_Type_U64:
    case PJRTX_Buffer_Type_F64:
    case PJRTX_Buffer_Type_C64:
      return 8;
    case PJRTX_Buffer_Type_C128:
      return 16;
    default:
      return absl::UnimplementedError(absl::StrCat(
          "Element type ", ElementTypeName(type),
          " is not supported; supported types are ", kSupportedList));
  }
}

absl::StatusOr<int64_t> ElementCount(absl::Span<const int64_t> dims) {
  int64_t count = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Dimension ", i, " is ", dims[i],
                       "; dimensions must be non-negative"));
    }
    if (dims[i] != 0 && count > INT64_MAX / dims[i]) {
      return absl::OutOfRangeError(
          absl::StrCat("Array of dimensions [", absl::StrJoin(dims, ","),
                       "] has more than 2^63 elements"));
    }
    count *= dims[i];
  }
  return count;
}

}  // namespace pjrtx
