// Typed values exchanged with a plugin: options, attributes.
#ifndef PJRTX_RUNTIME_CLIENT_NAMED_VALUE_H_
#define PJRTX_RUNTIME_CLIENT_NAMED_VALUE_H_

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "pjrtx/pjrtx_c_api.h"

namespace pjrtx::client {

// Alternatives in PJRTX_NamedValue_Type order.
using Value =
    std::variant<std::string, int64_t, std::vector<int64_t>, float, bool>;

struct NamedValue {
  std::string name;
  Value value;
};

// Copies a plugin's array.
std::vector<NamedValue> ReadNamedValues(const PJRTX_NamedValue* values,
                                        size_t count);
// "v", "[1,2]", "true", ...
std::string ValueToString(const Value& value);
// "string", "int64", "int64 list", "float", "bool".
const char* ValueTypeName(const Value& value);

// A PJRTX_NamedValue array pointing into `values` (which must outlive it).
std::vector<PJRTX_NamedValue> ToCNamedValues(
    const std::vector<NamedValue>& values);

}  // namespace pjrtx::client

#endif  // PJRTX_RUNTIME_CLIENT_NAMED_VALUE_H_
