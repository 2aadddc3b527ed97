#include "runtime/core/base/value.h"

#include <cstdlib>
#include <set>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace pjrtx {

const char* ValueTypeName(const AttributeValue& value) {
  static constexpr const char* kNames[] = {"string", "int64", "int64 list",
                                           "float", "bool"};
  return kNames[value.index()];
}

std::string ValueToString(const AttributeValue& value) {
  struct Printer {
    std::string operator()(const std::string& v) const { return v; }
    std::string operator()(int64_t v) const { return absl::StrCat(v); }
    std::string operator()(const std::vector<int64_t>& v) const {
      return absl::StrCat("[", absl::StrJoin(v, ","), "]");
    }
    std::string operator()(float v) const { return absl::StrCat(v); }
    std::string operator()(bool v) const { return v ? "true" : "false"; }
  };
  return std::visit(Printer{}, value);
}

absl::StatusOr<OptionSet> OptionSet::Validate(
    absl::Span<const OptionSpec> schema, absl::Span<const Attribute> given,
    absl::string_view kind) {
  // "Client create option ..." at the start of a message.
  std::string capitalized(kind);
  if (!capitalized.empty()) capitalized[0] = absl::ascii_toupper(kind[0]);
  OptionSet set;
  for (const OptionSpec& spec : schema) {
    set.values_[spec.name] = spec.default_value;
  }
  for (const Attribute& option : given) {
    auto it = set.values_.find(option.name);
    if (it == set.values_.end()) {
      std::vector<std::string> known;
      for (const OptionSpec& spec : schema) {
        known.push_back(absl::StrCat(spec.name, " (",
                                     ValueTypeName(spec.default_value), ")"));
      }
      return absl::InvalidArgumentError(absl::StrCat(
          "Unknown ", kind, " option '", option.name, "'; known options: ",
          known.empty() ? "none" : absl::StrJoin(known, ", ")));
    }
    if (it->second.index() != option.value.index()) {
      return absl::InvalidArgumentError(absl::StrCat(
          capitalized, " option '", option.name, "' must be of type ",
          ValueTypeName(it->second), ", got ", ValueTypeName(option.value),
          " (", ValueToString(option.value), ")"));
    }
    if (!set.given_.insert(option.name).second) {
      return absl::InvalidArgumentError(absl::StrCat(
          capitalized, " option '", option.name, "' is given twice"));
    }
    it->second = option.value;
  }
  return set;
}

bool OptionSet::WasGiven(absl::string_view name) const {
  return given_.find(name) != given_.end();
}

const AttributeValue& OptionSet::Get(absl::string_view name) const {
  auto it = values_.find(name);
  if (it == values_.end())
    std::abort();  // A plugin asked for an option
                   // missing from its own schema.
  return it->second;
}

const std::string& OptionSet::GetString(absl::string_view name) const {
  return std::get<std::string>(Get(name));
}
int64_t OptionSet::GetInt64(absl::string_view name) const {
  return std::get<int64_t>(Get(name));
}
const std::vector<int64_t>& OptionSet::GetInt64List(
    absl::string_view name) const {
  return std::get<std::vector<int64_t>>(Get(name));
}
float OptionSet::GetFloat(absl::string_view name) const {
  return std::get<float>(Get(name));
}
bool OptionSet::GetBool(absl::string_view name) const {
  return std::get<bool>(Get(name));
}

}  // namespace pjrtx
