// The attributes of one VHLO op -> the attributes of its StableHLO op, as
// VhloLegalizeToStablehlo.cpp converts them: defaults removed (VHLO spells
// every attribute out), flattened structures imploded
// (#stablehlo.gather<...>, #stablehlo.conv<...>, #stablehlo.dot<...>,
// #stablehlo.channel_handle<...>, #stablehlo.dot_algorithm<...>), tensors
// that StableHLO keeps as dense arrays turned into array<i64: ...>, symbol
// names into @refs, and the rest by the generic mapping.
#ifndef PJRTX_COMPILER_STUB_BYTECODE_OP_ATTRIBUTES_H_
#define PJRTX_COMPILER_STUB_BYTECODE_OP_ATTRIBUTES_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler_stub/bytecode/decoded_attribute.h"
#include "compiler_stub/mlir/ast.h"

namespace pjrtx::bytecode {

using DecodedAttributes =
    std::vector<std::pair<std::string, const DecodedAttribute*>>;
using NamedAttributes = std::vector<std::pair<std::string, mlir::Attribute>>;

// `stablehlo_name` is the op's StableHLO name ("stablehlo.gather");
// `attributes` its inherent VHLO attributes by name.
absl::StatusOr<NamedAttributes> ConvertOpAttributes(
    const std::string& stablehlo_name, const DecodedAttributes& attributes);

}  // namespace pjrtx::bytecode

#endif  // PJRTX_COMPILER_STUB_BYTECODE_OP_ATTRIBUTES_H_
