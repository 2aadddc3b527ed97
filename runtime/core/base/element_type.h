// Facts about PJRTX_Buffer_Type values.
#ifndef PJRTX_RUNTIME_CORE_BASE_ELEMENT_TYPE_H_
#define PJRTX_RUNTIME_CORE_BASE_ELEMENT_TYPE_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pjrtx/pjrtx_c_api.h"

namespace pjrtx {

// The type's name as PJRT spells it ("F32", "BF16", ...), or "type <n>" for
// a value outside the enum.
std::string ElementTypeName(PJRTX_Buffer_Type type);

// Bytes per element of a type supported in ABI 0.1, or UNIMPLEMENTED naming
// the type and listing the supported ones.
absl::StatusOr<size_t> SupportedElementSize(PJRTX_Buffer_Type type);

// Number of elements of an array; INVALID_ARGUMENT naming a negative
// dimension, OUT_OF_RANGE on overflow.
absl::StatusOr<int64_t> ElementCount(absl::Span<const int64_t> dims);

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_CORE_BASE_ELEMENT_TYPE_H_
