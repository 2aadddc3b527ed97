// Decoded attributes -> syntax-tree attributes, as the text parser would
// build them from the StableHLO generic form: the generic conversion of
// VhloLegalizeToStablehlo.cpp (convertGeneric) and the shapes special
// attributes take (array<i64: ...>, #stablehlo.channel_handle<...>, ...).
#ifndef PJRTX_COMPILER_STUB_BYTECODE_ATTRIBUTE_CONVERSION_H_
#define PJRTX_COMPILER_STUB_BYTECODE_ATTRIBUTE_CONVERSION_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler_stub/bytecode/decoded_attribute.h"
#include "compiler_stub/mlir/ast.h"

namespace pjrtx::bytecode {

// The generic mapping: arrays, booleans, enums (#stablehlo<name CASE>, the
// custom call API version as `N : i32`), dictionaries, numbers, strings,
// tensors (dense<...>: integers as decimal values, floats and complex as
// exact bytes), types, symbol references.
absl::StatusOr<mlir::Attribute> ConvertAttribute(const DecodedAttribute& value);

// The elements of an integer tensor (splats expanded), or an error.
absl::StatusOr<std::vector<int64_t>> TensorIntegers(
    const DecodedAttribute& value);
// Whether `value` is an integer (or boolean) tensor of >= 1 elements all
// equal to `splat`.
bool IsSplatTensor(const DecodedAttribute& value, int64_t splat);

// array<i64: ...> (or array<i1: ...> when `element` is "i1") of a tensor.
absl::StatusOr<mlir::Attribute> DenseArrayOf(const DecodedAttribute& value,
                                             const std::string& element);
// [1, 2] as kArray of i64 integers, as #stablehlo.gather<...> fields hold.
mlir::Attribute IntegerList(const std::vector<int64_t>& values);
mlir::Attribute IntegerOf(int64_t value, const std::string& type);
mlir::Attribute StablehloStruct(
    std::string mnemonic,
    std::vector<std::pair<std::string, mlir::Attribute>> entries);

}  // namespace pjrtx::bytecode

#endif  // PJRTX_COMPILER_STUB_BYTECODE_ATTRIBUTE_CONVERSION_H_
