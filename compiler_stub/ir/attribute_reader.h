// Reading typed values out of parsed attributes, with errors that name the
// op, the attribute and what was expected.
#ifndef PJRTX_COMPILER_STUB_IR_ATTRIBUTE_READER_H_
#define PJRTX_COMPILER_STUB_IR_ATTRIBUTE_READER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler_stub/mlir/ast.h"

namespace pjrtx::ir {

// "<location>: <message>" as INVALID_ARGUMENT, the location as
// mlir::LocationText writes it ("L:C" for text, "file:L:C" for artifacts).
absl::Status ErrorAt(const mlir::Location& location, absl::string_view message);
// "<location>: <message>" as UNIMPLEMENTED.
absl::Status UnsupportedAt(const mlir::Location& location,
                           absl::string_view message);

// The attributes of one op, looked up by name.
class AttributeReader {
 public:
  explicit AttributeReader(const mlir::Operation& op) : op_(op) {}

  const mlir::Attribute* Find(absl::string_view name) const;
  bool Has(absl::string_view name) const { return Find(name) != nullptr; }

  // Each reader fails (INVALID_ARGUMENT naming the op and attribute) when
  // the attribute is missing and no default is given, or has another kind.
  absl::StatusOr<int64_t> Integer(
      absl::string_view name,
      std::optional<int64_t> default_value = std::nullopt) const;
  absl::StatusOr<bool> Bool(
      absl::string_view name,
      std::optional<bool> default_value = std::nullopt) const;
  // array<i64: ...>, [1, 2], or dense<[1, 2]> : tensor<2xi64>.
  absl::StatusOr<std::vector<int64_t>> Integers(
      absl::string_view name,
      std::optional<std::vector<int64_t>> default_value = std::nullopt) const;
  // array<i1: true, false> or [true, false] or dense<[true]>.
  absl::StatusOr<std::vector<bool>> Bools(
      absl::string_view name,
      std::optional<std::vector<bool>> default_value = std::nullopt) const;
  // dense<[[l, h], ...]> : tensor<Nx2xi64> (padding).
  absl::StatusOr<std::vector<std::pair<int64_t, int64_t>>> Pairs(
      absl::string_view name,
      std::optional<std::vector<std::pair<int64_t, int64_t>>> default_value =
          std::nullopt) const;
  // #stablehlo<comparison_direction EQ> -> "EQ"; also a bare word.
  absl::StatusOr<std::string> EnumBody(
      absl::string_view name,
      std::optional<std::string> default_value = std::nullopt) const;
  // @f -> "f".
  absl::StatusOr<std::string> Symbol(absl::string_view name) const;

  const mlir::Operation& op() const { return op_; }

 private:
  absl::Status Missing(absl::string_view name,
                       absl::string_view expected) const;
  absl::Status WrongKind(const mlir::Attribute& attribute,
                         absl::string_view name,
                         absl::string_view expected) const;

  const mlir::Operation& op_;
};

// Entries of a dialect attribute such as #stablehlo.gather<...> or
// #stablehlo.dot<...>: integer lists and integers by key.
absl::StatusOr<std::vector<int64_t>> DialectIntegers(
    const mlir::Attribute& attribute, absl::string_view key,
    const mlir::Operation& op);
absl::StatusOr<int64_t> DialectInteger(
    const mlir::Attribute& attribute, absl::string_view key,
    const mlir::Operation& op,
    std::optional<int64_t> default_value = std::nullopt);

}  // namespace pjrtx::ir

#endif  // PJRTX_COMPILER_STUB_IR_ATTRIBUTE_READER_H_
