#include "compiler_stub/ir/type_conversion.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler_stub/ir/attribute_reader.h"
#include "support/status_macros.h"

namespace pjrtx::ir {

std::string ValueType::ToString() const {
  switch (kind) {
    case Kind::kTensor:
      return shape.ToString();
    case Kind::kToken:
      return "!stablehlo.token";
    case Kind::kTuple: {
      std::vector<std::string> parts;
      for (const ValueType& e : elements) parts.push_back(e.ToString());
      return absl::StrCat("tuple<", absl::StrJoin(parts, ", "), ">");
    }
  }
  return "?";
}

std::string TypesToString(const std::vector<ValueType>& types) {
  std::vector<std::string> parts;
  for (const ValueType& t : types) parts.push_back(t.ToString());
  return absl::StrCat("(", absl::StrJoin(parts, ", "), ")");
}

absl::StatusOr<ElementType> ConvertElementType(const std::string& spelling,
                                               const mlir::Location& location) {
  std::optional<ElementType> type = ElementTypeFromMlir(spelling);
  if (!type) {
    return UnsupportedAt(location,
                         absl::StrCat("element type ", spelling,
                                      " is not supported; supported: i1, "
                                      "si/ui 2/4/8/16/32/64, f16, bf16, f32, "
                                      "f64, f8E4M3FN, f8E5M2"));
  }
  return *type;
}

absl::StatusOr<ValueType> ConvertType(const mlir::Type& type) {
  switch (type.kind) {
    case mlir::Type::Kind::kTensor: {
      for (int64_t d : type.dims) {
        if (d < 0) {
          return UnsupportedAt(
              type.location,
              absl::StrCat("dynamic shape ", type.text, " is not supported"));
        }
      }
      if (!type.encoding.empty()) {
        return UnsupportedAt(type.location,
                             absl::StrCat("tensor encoding in ", type.text,
                                          " is not supported"));
      }
      PJRTX_ASSIGN_OR_RETURN(ElementType element,
                             ConvertElementType(type.element, type.location));
      ValueType result = ValueType::Tensor(Shape{element, type.dims});
      // Bound the size so that a typo cannot make the runtime allocate
      // petabytes.
      int64_t n = 1;
      for (int64_t d : type.dims) {
        if (d != 0 && n > (int64_t{1} << 40) / d) {
          return ErrorAt(type.location,
                         absl::StrCat("tensor type ", type.text,
                                      " has more than 2^40 elements"));
        }
        n *= d;
      }
      return result;
    }
    case mlir::Type::Kind::kToken:
      return ValueType{ValueType::Kind::kToken, {}, {}};
    case mlir::Type::Kind::kTuple: {
      ValueType result{ValueType::Kind::kTuple, {}, {}};
      for (const mlir::Type& e : type.elements) {
        PJRTX_ASSIGN_OR_RETURN(ValueType element, ConvertType(e));
        result.elements.push_back(element);
      }
      return result;
    }
    default:
      return UnsupportedAt(
          type.location, absl::StrCat("type ", type.text, " is not supported"));
  }
}

}  // namespace pjrtx::ir
