#include "compiler_stub/mlir/stablehlo_struct_defaults.h"

#include <string_view>

#include "compiler_stub/mlir/custom_op_helpers.h"

namespace pjrtx::mlir {
namespace {

// The integer fields of each struct printed by printStruct. (Its other
// users, #stablehlo.dot, have list fields only.)
struct IntegerFields {
  std::string_view mnemonic;
  std::string_view fields[1];
};

constexpr IntegerFields kIntegerFields[] = {
    {"gather", {"index_vector_dim"}},
    {"scatter", {"index_vector_dim"}},
};

bool HasEntry(const Attribute& attribute, std::string_view name) {
  for (const auto& [key, value] : attribute.entries) {
    if (key == name) return true;
  }
  return false;
}

}  // namespace

void AddOmittedStructFields(Attribute& attribute, const Location& location) {
  if (attribute.kind != Attribute::Kind::kDialect ||
      attribute.dialect != "stablehlo") {
    return;
  }
  for (const IntegerFields& known : kIntegerFields) {
    if (known.mnemonic != attribute.mnemonic) continue;
    for (std::string_view field : known.fields) {
      if (HasEntry(attribute, field)) continue;
      attribute.entries.emplace_back(
          std::string(field), MakeIntegerAttribute(0, "i64", location, "0"));
    }
  }
}

}  // namespace pjrtx::mlir
