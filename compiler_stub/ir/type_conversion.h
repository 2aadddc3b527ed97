// Parsed types -> program types.
#ifndef PJRTX_COMPILER_STUB_IR_TYPE_CONVERSION_H_
#define PJRTX_COMPILER_STUB_IR_TYPE_CONVERSION_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler_stub/ir/program.h"
#include "compiler_stub/mlir/ast.h"

namespace pjrtx::ir {

// Static tensors, tuples and tokens. A dynamic dimension or an element type
// this compiler does not support (complex, quantized, other FP8 formats) is
// UNIMPLEMENTED naming it, with the type's location.
absl::StatusOr<ValueType> ConvertType(const mlir::Type& type);
// The element type of a scalar spelling such as "f32" in an attribute.
absl::StatusOr<ElementType> ConvertElementType(const std::string& spelling,
                                               const mlir::Location& location);
std::string TypesToString(const std::vector<ValueType>& types);

}  // namespace pjrtx::ir

#endif  // PJRTX_COMPILER_STUB_IR_TYPE_CONVERSION_H_
