// Typed values: plugin attributes, create options and their schema.
#ifndef PJRTX_RUNTIME_CORE_BASE_VALUE_H_
#define PJRTX_RUNTIME_CORE_BASE_VALUE_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace pjrtx {

// The alternatives are in the order of PJRTX_NamedValue_Type, so index()
// is the ABI type code.
using AttributeValue =
    std::variant<std::string, int64_t, std::vector<int64_t>, float, bool>;

// "string", "int64", "int64 list", "float" or "bool".
const char* ValueTypeName(const AttributeValue& value);
std::string ValueToString(const AttributeValue& value);

struct Attribute {
  std::string name;
  AttributeValue value;
};

// One client create option a plugin accepts.
struct OptionSpec {
  std::string name;
  AttributeValue default_value;  // Also fixes the option's type.
  std::string description;
};

// Create options after validation: every option of the schema, with the
// given value or its default.
class OptionSet {
 public:
  // Checks `given` against `schema`: an unknown name or a value of another
  // type than the schema's is INVALID_ARGUMENT naming the option (and, for
  // an unknown one, the known options). A name given twice is an error.
  // `kind` names the options in errors ("client create", "compile").
  static absl::StatusOr<OptionSet> Validate(
      absl::Span<const OptionSpec> schema, absl::Span<const Attribute> given,
      absl::string_view kind = "client create");

  // Whether option `name` was given, not defaulted.
  bool WasGiven(absl::string_view name) const;

  // Typed accessors; the option must be in the schema with that type.
  const std::string& GetString(absl::string_view name) const;
  int64_t GetInt64(absl::string_view name) const;
  const std::vector<int64_t>& GetInt64List(absl::string_view name) const;
  float GetFloat(absl::string_view name) const;
  bool GetBool(absl::string_view name) const;

 private:
  const AttributeValue& Get(absl::string_view name) const;
  std::map<std::string, AttributeValue, std::less<>> values_;
  std::set<std::string, std::less<>> given_;
};

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_CORE_BASE_VALUE_H_
