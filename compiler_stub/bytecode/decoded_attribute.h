// An attribute of a bytecode file once decoded, before it is mapped onto
// the syntax tree: what the file says, with VHLO's attribute kinds kept
// apart (an enum, a boolean, a tensor), because the mapping to StableHLO
// depends on the op and the attribute name (a tensor becomes array<i64> for
// some attributes and stays dense<...> for others, an integer channel_id
// becomes #stablehlo.channel_handle, ...).
#ifndef PJRTX_COMPILER_STUB_BYTECODE_DECODED_ATTRIBUTE_H_
#define PJRTX_COMPILER_STUB_BYTECODE_DECODED_ATTRIBUTE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "compiler_stub/mlir/ast.h"

namespace pjrtx::bytecode {

struct DecodedAttribute {
  enum class Kind {
    kArray,       // elements
    kBool,        // integer (0 or 1)
    kEnum,        // enum_name ("comparison_direction"), text (case "EQ")
    kDictionary,  // entries
    kFloat,       // type (scalar), real
    kInteger,     // type (scalar), integer (sign- or zero-extended)
    kString,      // text
    kTensor,      // type (tensor), data (raw little-endian, i1 one byte)
    kType,        // type
    kUnit,
    kSymbolRef,   // text (without '@'), elements (nested FlatSymbolRefs)
    kDenseArray,  // type (element scalar), data (raw), integer (count)
    kOutputOperandAlias,  // integers: output tuple indices; integer: operand
                          // index; integers2: operand tuple indices
    kTypeExtensions,      // integers: bounds (INT64_MIN for '?')
    kResultAccuracy,      // real (atol), real2 (rtol), integer (ulps),
                          // text (mode case)
    kStruct,              // enum_name: the StableHLO mnemonic ("axis_ref"),
                          // entries: its fields (Shardy-style mesh
                          // attributes of collectives)
    kLocation,            // location: the source position it names
    kOpaque,              // text: "<dialect> attribute <code>" kept whole
  };
  Kind kind = Kind::kUnit;
  std::string enum_name;
  std::string text;
  int64_t integer = 0;
  double real = 0;
  double real2 = 0;
  mlir::Type type;
  std::vector<DecodedAttribute> elements;
  std::vector<std::pair<std::string, DecodedAttribute>> entries;
  std::vector<uint8_t> data;
  std::vector<int64_t> integers;
  std::vector<int64_t> integers2;
  // kLocation: the first file position found through name and call-site
  // locations (the callee before the caller) and fused ones (in order);
  // line 0 when there is none (an unknown location, a file without a line).
  mlir::Location location;
  // Which dialect encoded it: "vhlo", "builtin", "sdy", ...
  std::string dialect;
  // Nodes and bytes held, nested values included: the table bounds the sum
  // so that attributes sharing entries cannot expand exponentially.
  uint64_t weight = 1;
};

}  // namespace pjrtx::bytecode

#endif  // PJRTX_COMPILER_STUB_BYTECODE_DECODED_ATTRIBUTE_H_
