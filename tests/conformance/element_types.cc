#include "element_types.h"

#include <iterator>

namespace pjrtx::conformance {
namespace {

// Indexed by PJRTX_Buffer_Type value; the header fixes them in this order.
constexpr const char* kNames[] = {
    "INVALID",    "PRED",   "S8",       "S16",           "S32",
    "S64",        "U8",     "U16",      "U32",           "U64",
    "F16",        "F32",    "F64",      "BF16",          "C64",
    "C128",       "F8E5M2", "F8E4M3FN", "F8E4M3B11FNUZ", "F8E5M2FNUZ",
    "F8E4M3FNUZ", "S4",     "U4",       "TOKEN",         "S2",
    "U2",         "F8E4M3", "F8E3M4",   "F8E8M0FNU",     "F4E2M1FN",
    "S1",         "U1",     "F6E2M3FN", "F6E3M2FN"};
static_assert(std::size(kNames) == PJRTX_Buffer_Type_F6E3M2FN + 1,
              "kNames must list every PJRTX_Buffer_Type");

}  // namespace

std::string ElementTypeName(PJRTX_Buffer_Type type) {
  const int index = static_cast<int>(type);
  if (index < 0 || index >= static_cast<int>(std::size(kNames))) {
    return "type " + std::to_string(index);
  }
  return kNames[index];
}

size_t ElementSize(PJRTX_Buffer_Type type) {
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
      return 0;
  }
}

const std::vector<PJRTX_Buffer_Type>& SupportedElementTypes() {
  static const auto* const types = new std::vector<PJRTX_Buffer_Type>{
      PJRTX_Buffer_Type_PRED,     PJRTX_Buffer_Type_S8,
      PJRTX_Buffer_Type_S16,      PJRTX_Buffer_Type_S32,
      PJRTX_Buffer_Type_S64,      PJRTX_Buffer_Type_U8,
      PJRTX_Buffer_Type_U16,      PJRTX_Buffer_Type_U32,
      PJRTX_Buffer_Type_U64,      PJRTX_Buffer_Type_F16,
      PJRTX_Buffer_Type_F32,      PJRTX_Buffer_Type_F64,
      PJRTX_Buffer_Type_BF16,     PJRTX_Buffer_Type_F8E5M2,
      PJRTX_Buffer_Type_F8E4M3FN, PJRTX_Buffer_Type_S2,
      PJRTX_Buffer_Type_S4,       PJRTX_Buffer_Type_U2,
      PJRTX_Buffer_Type_U4,       PJRTX_Buffer_Type_C64,
      PJRTX_Buffer_Type_C128};
  return *types;
}

const std::vector<PJRTX_Buffer_Type>& UnsupportedElementTypes() {
  static const auto* const types = [] {
    auto* list = new std::vector<PJRTX_Buffer_Type>;
    for (int i = PJRTX_Buffer_Type_PRED; i <= PJRTX_Buffer_Type_F6E3M2FN; ++i) {
      const auto type = static_cast<PJRTX_Buffer_Type>(i);
      if (ElementSize(type) == 0) list->push_back(type);
    }
    return list;
  }();
  return *types;
}

int MinorIntroducing(PJRTX_Buffer_Type type) {
  switch (type) {
    case PJRTX_Buffer_Type_S2:
    case PJRTX_Buffer_Type_S4:
    case PJRTX_Buffer_Type_U2:
    case PJRTX_Buffer_Type_U4:
      return 3;
    case PJRTX_Buffer_Type_C64:
    case PJRTX_Buffer_Type_C128:
      return 5;
    default:
      return 1;
  }
}

}  // namespace pjrtx::conformance
