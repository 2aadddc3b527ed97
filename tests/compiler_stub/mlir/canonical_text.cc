#include "tests/compiler_stub/mlir/canonical_text.h"

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

namespace pjrtx::mlir::testing {
namespace {

using NamedAttributes = std::vector<std::pair<std::string, Attribute>>;

template <typename T, typename F>
std::string Join(const std::vector<T>& items, F&& print) {
  std::string text;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) text += ", ";
    text += print(items[i]);
  }
  return text;
}

std::string TypeList(const std::vector<Type>& types) {
  return Join(types, [](const Type& t) { return CanonicalText(t); });
}

std::string Entries(const NamedAttributes& entries) {
  return Join(entries, [](const std::pair<std::string, Attribute>& entry) {
    return entry.first + " = " + CanonicalText(entry.second);
  });
}

std::string Number(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.17g", value);
  return buffer;
}

std::string PrintRegion(const Region& region, const std::string& indent);

std::string PrintOperation(const Operation& op, const std::string& indent) {
  std::string text = indent;
  if (op.num_results > 0) {
    text += "%" + op.result_name + ":" + std::to_string(op.num_results) + " = ";
  }
  text += "\"" + op.name + "\"(" +
          Join(op.operands,
               [](const ValueRef& ref) {
                 return "%" + ref.name + "#" + std::to_string(ref.index);
               }) +
          ")";
  NamedAttributes sorted = op.attributes;
  std::stable_sort(
      sorted.begin(), sorted.end(),
      [](const auto& a, const auto& b) { return a.first < b.first; });
  if (!sorted.empty()) text += " {" + Entries(sorted) + "}";
  text += " : (" + TypeList(op.operand_types) + ") -> (" +
          TypeList(op.result_types) + ")\n";
  for (const Region& region : op.regions) {
    text += PrintRegion(region, indent + "  ");
  }
  return text;
}

std::string PrintRegion(const Region& region, const std::string& indent) {
  std::string text = indent + "{\n";
  for (size_t b = 0; b < region.blocks.size(); ++b) {
    const Block& block = region.blocks[b];
    // The entry block's label means nothing.
    text +=
        indent + "^" + (b == 0 ? std::string("entry") : block.label) + "(" +
        Join(block.arguments,
             [](const BlockArgument& argument) {
               return "%" + argument.name + ": " + CanonicalText(argument.type);
             }) +
        "):\n";
    for (const Operation& op : block.operations) {
      text += PrintOperation(op, indent + "  ");
    }
  }
  return text + indent + "}\n";
}

}  // namespace

std::string CanonicalText(const Type& type) {
  switch (type.kind) {
    case Type::Kind::kTensor: {
      std::string text = "tensor<";
      for (int64_t dim : type.dims) {
        text += (dim < 0 ? std::string("?") : std::to_string(dim)) + "x";
      }
      text += type.element;
      if (!type.encoding.empty()) text += ", " + type.encoding;
      return text + ">";
    }
    case Type::Kind::kScalar:
      return type.element;
    case Type::Kind::kTuple:
      return "tuple<" + TypeList(type.elements) + ">";
    case Type::Kind::kToken:
      return "!stablehlo.token";
    case Type::Kind::kFunction:
      return "(" + TypeList(type.elements) + ") -> (" + TypeList(type.results) +
             ")";
    case Type::Kind::kOther:
      break;
  }
  return "other<" + type.text + ">";
}

std::string CanonicalText(const Attribute& attribute) {
  const std::string typed = " : " + CanonicalText(attribute.type);
  switch (attribute.kind) {
    case Attribute::Kind::kUnit:
      return "unit";
    case Attribute::Kind::kBool:
      return attribute.bool_value ? "true" : "false";
    case Attribute::Kind::kInteger:
      return std::to_string(attribute.integer) + typed;
    case Attribute::Kind::kFloat:
      return Number(attribute.float_value) + typed;
    case Attribute::Kind::kString:
      return "\"" + attribute.string_value + "\"";
    case Attribute::Kind::kType:
      return "type " + CanonicalText(attribute.type);
    case Attribute::Kind::kSymbolRef:
      return "@" + attribute.string_value;
    case Attribute::Kind::kArray:
      return "[" +
             Join(attribute.elements,
                  [](const Attribute& a) { return CanonicalText(a); }) +
             "]";
    case Attribute::Kind::kDenseArray: {
      std::string text = "array<" + CanonicalText(attribute.type) + ":";
      for (int64_t v : attribute.integers) text += " " + std::to_string(v);
      for (double v : attribute.floats) text += " " + Number(v);
      return text + ">";
    }
    case Attribute::Kind::kDenseElements: {
      const DenseElements& dense = attribute.dense;
      std::string text = "dense<";
      if (dense.is_hex) {
        text += "hex";
        for (uint8_t byte : dense.hex_bytes) text += " " + std::to_string(byte);
      } else {
        text += dense.splat ? "splat " : "";
        text += Join(dense.values, [](const std::string& v) { return v; });
        text += " shape [";
        for (int64_t d : dense.written_shape) text += std::to_string(d) + ",";
        text += "]";
      }
      return text + ">" + typed;
    }
    case Attribute::Kind::kDictionary:
      return "{" + Entries(attribute.entries) + "}";
    case Attribute::Kind::kDialect:
      return "#" + attribute.dialect + "." + attribute.mnemonic + "<" +
             Entries(attribute.entries) + " | " + attribute.body + ">";
  }
  return "?";
}

std::string CanonicalText(const Operation& op) {
  return PrintOperation(op, "");
}

std::string CanonicalText(const Module& module) {
  std::string text =
      "module @" + module.name + " {" + Entries(module.attributes) + "}\n";
  for (const Function& function : module.functions) {
    text += "func " + function.visibility + " @" + function.name + "(" +
            Join(function.arguments,
                 [](const FunctionArgument& argument) {
                   return "%" + argument.name + ": " +
                          CanonicalText(argument.type) + " {" +
                          Entries(argument.attributes) + "}";
                 }) +
            ") -> (";
    for (size_t i = 0; i < function.result_types.size(); ++i) {
      if (i > 0) text += ", ";
      text += CanonicalText(function.result_types[i]);
      if (i < function.result_attributes.size()) {
        text += " {" + Entries(function.result_attributes[i]) + "}";
      }
    }
    text += ") {" + Entries(function.attributes) + "}\n";
    text += PrintRegion(function.body, "  ");
  }
  for (const Operation& op : module.other_operations) {
    text += PrintOperation(op, "");
  }
  return text;
}

}  // namespace pjrtx::mlir::testing
