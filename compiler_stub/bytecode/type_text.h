// Builds syntax-tree types as the text parser would (kind, element
// spelling, dims) together with their MLIR spelling, which the tree keeps
// for messages.
#ifndef PJRTX_COMPILER_STUB_BYTECODE_TYPE_TEXT_H_
#define PJRTX_COMPILER_STUB_BYTECODE_TYPE_TEXT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "compiler_stub/mlir/ast.h"

namespace pjrtx::bytecode {

mlir::Type ScalarType(std::string element);
// Dims use -1 for a dynamic size.
mlir::Type TensorType(std::vector<int64_t> dims, std::string element,
                      std::string encoding = "");
mlir::Type TokenType();
mlir::Type TupleType(std::vector<mlir::Type> elements);
mlir::Type FunctionType(std::vector<mlir::Type> inputs,
                        std::vector<mlir::Type> results);
// A type kept as text only (unranked tensors, quantized types, ...).
mlir::Type OtherType(std::string text);

// The spelling of `type` ("tensor<2x?xf32>", "(f32) -> i1", ...).
std::string TypeText(const mlir::Type& type);

}  // namespace pjrtx::bytecode

#endif  // PJRTX_COMPILER_STUB_BYTECODE_TYPE_TEXT_H_
