#include "compiler_stub/ir/attribute_reader.h"

#include <cstdlib>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "compiler_stub/mlir/location_text.h"

namespace pjrtx::ir {
namespace {

using mlir::Attribute;

// Integers written in a dense<...> literal.
absl::StatusOr<std::vector<int64_t>> DenseIntegers(const Attribute& a) {
  std::vector<int64_t> values;
  for (const std::string& text : a.dense.values) {
    int64_t v;
    if (text == "true" || text == "false") {
      v = text == "true";
    } else if (!absl::SimpleAtoi(text, &v)) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", text, "' is not an integer"));
    }
    values.push_back(v);
  }
  if (a.dense.is_hex) {
    return absl::InvalidArgumentError("hex integer lists are not supported");
  }
  return values;
}

}  // namespace

absl::Status ErrorAt(const mlir::Location& location,
                     absl::string_view message) {
  return absl::InvalidArgumentError(
      absl::StrCat(mlir::LocationText(location), ": ", message));
}

absl::Status UnsupportedAt(const mlir::Location& location,
                           absl::string_view message) {
  return absl::UnimplementedError(
      absl::StrCat(mlir::LocationText(location), ": ", message));
}

const Attribute* AttributeReader::Find(absl::string_view name) const {
  for (const auto& [key, value] : op_.attributes) {
    if (key == name) return &value;
  }
  return nullptr;
}

absl::Status AttributeReader::Missing(absl::string_view name,
                                      absl::string_view expected) const {
  return ErrorAt(op_.location, absl::StrCat(op_.name, " needs attribute '",
                                            name, "' (", expected, ")"));
}

absl::Status AttributeReader::WrongKind(const Attribute& attribute,
                                        absl::string_view name,
                                        absl::string_view expected) const {
  return ErrorAt(
      attribute.location.line > 0 ? attribute.location : op_.location,
      absl::StrCat(op_.name, " attribute '", name, "' is '", attribute.text,
                   "', expected ", expected));
}

absl::StatusOr<int64_t> AttributeReader::Integer(
    absl::string_view name, std::optional<int64_t> default_value) const {
  const Attribute* a = Find(name);
  if (a == nullptr) {
    if (default_value) return *default_value;
    return Missing(name, "an integer");
  }
  if (a->kind == Attribute::Kind::kInteger) return a->integer;
  if (a->kind == Attribute::Kind::kDenseElements &&
      a->dense.values.size() == 1) {
    auto values = DenseIntegers(*a);
    if (values.ok()) return (*values)[0];
  }
  return WrongKind(*a, name, "an integer");
}

absl::StatusOr<bool> AttributeReader::Bool(
    absl::string_view name, std::optional<bool> default_value) const {
  const Attribute* a = Find(name);
  if (a == nullptr) {
    if (default_value) return *default_value;
    return Missing(name, "true or false");
  }
  if (a->kind == Attribute::Kind::kBool) return a->bool_value;
  if (a->kind == Attribute::Kind::kUnit) return true;
  return WrongKind(*a, name, "true or false");
}

absl::StatusOr<std::vector<int64_t>> AttributeReader::Integers(
    absl::string_view name,
    std::optional<std::vector<int64_t>> default_value) const {
  const Attribute* a = Find(name);
  if (a == nullptr) {
    if (default_value) return *default_value;
    return Missing(name, "a list of integers");
  }
  switch (a->kind) {
    case Attribute::Kind::kDenseArray:
      if (!a->floats.empty()) break;
      return a->integers;
    case Attribute::Kind::kArray: {
      std::vector<int64_t> values;
      for (const Attribute& e : a->elements) {
        if (e.kind != Attribute::Kind::kInteger) {
          return WrongKind(*a, name, "a list of integers");
        }
        values.push_back(e.integer);
      }
      return values;
    }
    case Attribute::Kind::kDenseElements: {
      auto values = DenseIntegers(*a);
      if (!values.ok()) break;
      // A splat fills the declared shape.
      if (a->dense.splat && !a->type.dims.empty()) {
        int64_t n = 1;
        for (int64_t d : a->type.dims) n *= d;
        if (n < 0 || n > (1 << 20)) break;
        return std::vector<int64_t>(n, (*values)[0]);
      }
      return values;
    }
    default:
      break;
  }
  return WrongKind(*a, name, "a list of integers");
}

absl::StatusOr<std::vector<bool>> AttributeReader::Bools(
    absl::string_view name,
    std::optional<std::vector<bool>> default_value) const {
  const Attribute* a = Find(name);
  if (a == nullptr) {
    if (default_value) return *default_value;
    return Missing(name, "a list of booleans");
  }
  std::vector<bool> values;
  if (a->kind == Attribute::Kind::kDenseArray) {
    for (int64_t v : a->integers) values.push_back(v != 0);
    return values;
  }
  if (a->kind == Attribute::Kind::kArray) {
    for (const Attribute& e : a->elements) {
      if (e.kind != Attribute::Kind::kBool) {
        return WrongKind(*a, name, "a list of booleans");
      }
      values.push_back(e.bool_value);
    }
    return values;
  }
  if (a->kind == Attribute::Kind::kDenseElements) {
    for (const std::string& text : a->dense.values) {
      if (text != "true" && text != "false") {
        return WrongKind(*a, name, "a list of booleans");
      }
      values.push_back(text == "true");
    }
    return values;
  }
  return WrongKind(*a, name, "a list of booleans");
}

absl::StatusOr<std::vector<std::pair<int64_t, int64_t>>> AttributeReader::Pairs(
    absl::string_view name,
    std::optional<std::vector<std::pair<int64_t, int64_t>>> default_value)
    const {
  const Attribute* a = Find(name);
  if (a == nullptr) {
    if (default_value) return *default_value;
    return Missing(name, "an Nx2 list of integers");
  }
  absl::StatusOr<std::vector<int64_t>> flat = Integers(name);
  if (!flat.ok() || flat->size() % 2 != 0) {
    return WrongKind(*a, name, "an Nx2 list of integers");
  }
  std::vector<std::pair<int64_t, int64_t>> pairs;
  for (size_t i = 0; i < flat->size(); i += 2) {
    pairs.emplace_back((*flat)[i], (*flat)[i + 1]);
  }
  return pairs;
}

absl::StatusOr<std::string> AttributeReader::EnumBody(
    absl::string_view name, std::optional<std::string> default_value) const {
  const Attribute* a = Find(name);
  if (a == nullptr) {
    if (default_value) return *default_value;
    return Missing(name, "an enum value");
  }
  if (a->kind == Attribute::Kind::kDialect && !a->body.empty()) return a->body;
  if (a->kind == Attribute::Kind::kString) return a->string_value;
  return WrongKind(*a, name, "an enum value such as #stablehlo<... X>");
}

absl::StatusOr<std::string> AttributeReader::Symbol(
    absl::string_view name) const {
  const Attribute* a = Find(name);
  if (a == nullptr) return Missing(name, "a symbol @name");
  if (a->kind == Attribute::Kind::kSymbolRef) return a->string_value;
  return WrongKind(*a, name, "a symbol @name");
}

absl::StatusOr<std::vector<int64_t>> DialectIntegers(
    const Attribute& attribute, absl::string_view key,
    const mlir::Operation& op) {
  for (const auto& [name, value] : attribute.entries) {
    if (name != key) continue;
    if (value.kind == Attribute::Kind::kInteger)
      return std::vector<int64_t>{value.integer};
    std::vector<int64_t> values;
    if (value.kind == Attribute::Kind::kDenseArray) return value.integers;
    if (value.kind != Attribute::Kind::kArray) break;
    for (const Attribute& e : value.elements) {
      if (e.kind != Attribute::Kind::kInteger) {
        return ErrorAt(value.location, absl::StrCat(op.name, " field '", key,
                                                    "' must list integers"));
      }
      values.push_back(e.integer);
    }
    return values;
  }
  return std::vector<int64_t>{};
}

absl::StatusOr<int64_t> DialectInteger(const Attribute& attribute,
                                       absl::string_view key,
                                       const mlir::Operation& op,
                                       std::optional<int64_t> default_value) {
  for (const auto& [name, value] : attribute.entries) {
    if (name == key && value.kind == Attribute::Kind::kInteger) {
      return value.integer;
    }
  }
  if (default_value) return *default_value;
  return ErrorAt(
      attribute.location.line > 0 ? attribute.location : op.location,
      absl::StrCat(op.name, " needs field '", key, "' in ", attribute.text));
}

}  // namespace pjrtx::ir
