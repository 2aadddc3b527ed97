#include "compiler_stub/bytecode/type_text.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace pjrtx::bytecode {

mlir::Type ScalarType(std::string element) {
  mlir::Type type;
  type.kind = mlir::Type::Kind::kScalar;
  type.element = std::move(element);
  type.text = type.element;
  return type;
}

mlir::Type TensorType(std::vector<int64_t> dims, std::string element,
                      std::string encoding) {
  mlir::Type type;
  type.kind = mlir::Type::Kind::kTensor;
  type.dims = std::move(dims);
  type.element = std::move(element);
  type.encoding = std::move(encoding);
  type.text = TypeText(type);
  return type;
}

mlir::Type TokenType() {
  mlir::Type type;
  type.kind = mlir::Type::Kind::kToken;
  type.text = "!stablehlo.token";
  return type;
}

mlir::Type TupleType(std::vector<mlir::Type> elements) {
  mlir::Type type;
  type.kind = mlir::Type::Kind::kTuple;
  type.elements = std::move(elements);
  type.text = TypeText(type);
  return type;
}

mlir::Type FunctionType(std::vector<mlir::Type> inputs,
                        std::vector<mlir::Type> results) {
  mlir::Type type;
  type.kind = mlir::Type::Kind::kFunction;
  type.elements = std::move(inputs);
  type.results = std::move(results);
  type.text = TypeText(type);
  return type;
}

mlir::Type OtherType(std::string text) {
  mlir::Type type;
  type.kind = mlir::Type::Kind::kOther;
  type.text = std::move(text);
  return type;
}

std::string TypeText(const mlir::Type& type) {
  auto list = [](const std::vector<mlir::Type>& types) {
    std::vector<std::string> texts;
    for (const mlir::Type& t : types) texts.push_back(TypeText(t));
    return absl::StrJoin(texts, ", ");
  };
  switch (type.kind) {
    case mlir::Type::Kind::kScalar:
      return type.element;
    case mlir::Type::Kind::kTensor: {
      std::string text = "tensor<";
      for (int64_t dim : type.dims) {
        absl::StrAppend(&text, dim < 0 ? "?" : absl::StrCat(dim), "x");
      }
      absl::StrAppend(&text, type.element);
      if (!type.encoding.empty()) absl::StrAppend(&text, ", ", type.encoding);
      return absl::StrCat(text, ">");
    }
    case mlir::Type::Kind::kToken:
      return "!stablehlo.token";
    case mlir::Type::Kind::kTuple:
      return absl::StrCat("tuple<", list(type.elements), ">");
    case mlir::Type::Kind::kFunction: {
      std::string results = list(type.results);
      if (type.results.size() != 1 ||
          type.results[0].kind == mlir::Type::Kind::kFunction) {
        results = absl::StrCat("(", results, ")");
      }
      return absl::StrCat("(", list(type.elements), ") -> ", results);
    }
    case mlir::Type::Kind::kOther:
      break;
  }
  return type.text;
}

}  // namespace pjrtx::bytecode
