#include "option_flag.h"

#include <charconv>
#include <cstdint>
#include <optional>
#include <system_error>
#include <vector>

namespace pjrtx::conformance {
namespace {

// std::from_chars accepts neither a leading '+' nor whitespace, and the
// whole text must be consumed: "12x" or "" is an error, never 12 or 0.
std::optional<int64_t> ParseInt64(std::string_view text) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

std::optional<float> ParseFloat(std::string_view text) {
  float value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

std::optional<bool> ParseBool(std::string_view text) {
  if (text == "true" || text == "1") return true;
  if (text == "false" || text == "0") return false;
  return std::nullopt;
}

std::optional<std::vector<int64_t>> ParseInt64List(std::string_view text) {
  std::vector<int64_t> values;
  if (text.empty()) return values;
  while (true) {
    size_t comma = text.find(',');
    std::optional<int64_t> value = ParseInt64(text.substr(0, comma));
    if (!value.has_value()) return std::nullopt;
    values.push_back(*value);
    if (comma == std::string_view::npos) return values;
    text.remove_prefix(comma + 1);
  }
}

}  // namespace

bool ParseOptionFlag(std::string_view text, const NamedValueList& schema,
                     NamedValueList* options, std::string* error) {
  size_t equals = text.find('=');
  if (equals == std::string_view::npos || equals == 0) {
    *error = "--option expects name=value, got \"" + std::string(text) + "\"";
    return false;
  }
  std::string_view name = text.substr(0, equals);
  std::string_view value = text.substr(equals + 1);
  const OwnedNamedValue* declared = schema.Find(name);
  if (declared == nullptr) {
    options->SetString(name, value);
    return true;
  }
  bool parsed = true;
  switch (declared->type) {
    case PJRTX_NamedValue_kString:
      options->SetString(name, value);
      break;
    case PJRTX_NamedValue_kInt64:
      if (auto v = ParseInt64(value)) {
        options->SetInt64(name, *v);
      } else {
        parsed = false;
      }
      break;
    case PJRTX_NamedValue_kInt64List:
      if (auto v = ParseInt64List(value)) {
        options->SetInt64List(name, *std::move(v));
      } else {
        parsed = false;
      }
      break;
    case PJRTX_NamedValue_kFloat:
      if (auto v = ParseFloat(value)) {
        options->SetFloat(name, *v);
      } else {
        parsed = false;
      }
      break;
    case PJRTX_NamedValue_kBool:
      if (auto v = ParseBool(value)) {
        options->SetBool(name, *v);
      } else {
        parsed = false;
      }
      break;
    default:
      *error = "option \"" + std::string(name) +
               "\" has a type the suite does not know (" +
               std::to_string(static_cast<int>(declared->type)) +
               ") in the plugin's option schema";
      return false;
  }
  if (!parsed) {
    std::string expected(NamedValueTypeName(declared->type));
    if (declared->type == PJRTX_NamedValue_kBool) {
      expected += " (true, false, 1 or 0)";
    } else if (declared->type == PJRTX_NamedValue_kInt64List) {
      expected += " (comma separated, e.g. 1,2,3)";
    }
    *error = "option \"" + std::string(name) + "\": value \"" +
             std::string(value) + "\" is not a valid " + expected +
             ", the type the plugin's option schema gives it";
  }
  return parsed;
}

}  // namespace pjrtx::conformance
