// Element types of PJRTX_Buffer_Type as the suite needs them: names for
// messages and test names, and the sizes of the types version 0.1 supports.

#ifndef PJRTX_TESTS_CONFORMANCE_ELEMENT_TYPES_H_
#define PJRTX_TESTS_CONFORMANCE_ELEMENT_TYPES_H_

#include <cstddef>
#include <string>
#include <vector>

#include "pjrtx/pjrtx_c_api.h"

namespace pjrtx::conformance {

// The enumerator's name without its prefix ("F32", "C64"), or "type <n>".
std::string ElementTypeName(PJRTX_Buffer_Type type);

// Bytes per element of a type supported in 0.1; 0 for any other type.
size_t ElementSize(PJRTX_Buffer_Type type);

// The types every plugin supports in 0.1 (pjrtx_c_api.h, "Element types").
const std::vector<PJRTX_Buffer_Type>& SupportedElementTypes();

// Every other valid type, which a 0.1 plugin answers with UNIMPLEMENTED.
const std::vector<PJRTX_Buffer_Type>& UnsupportedElementTypes();

// The ABI minor version from which plugins must support `type` (the
// sub-byte integers, stored one per byte, came with 0.3).
int MinorIntroducing(PJRTX_Buffer_Type type);

}  // namespace pjrtx::conformance

#endif  // PJRTX_TESTS_CONFORMANCE_ELEMENT_TYPES_H_
