#include "tests/compiler_stub/bytecode/ast_equivalence.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler_stub/ir/op_lowering.h"
#include "compiler_stub/ir/type_conversion.h"

namespace pjrtx::bytecode_testing {
namespace {

using NamedAttributes = std::vector<std::pair<std::string, mlir::Attribute>>;

std::string WithoutSpaces(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r') out += c;
  }
  return out;
}

std::string Describe(const mlir::Attribute& a) {
  return a.text.empty() ? std::string("<attribute>") : a.text.substr(0, 120);
}

// The bytes of a dense constant, when the compiler can compute them.
bool DenseBytes(const mlir::Attribute& a, std::vector<uint8_t>* bytes) {
  absl::StatusOr<ir::ValueType> type = ir::ConvertType(a.type);
  if (!type.ok() || type->kind != ir::ValueType::Kind::kTensor) return false;
  absl::StatusOr<std::vector<uint8_t>> converted =
      ir::DenseToBytes(a, type->shape);
  if (!converted.ok()) return false;
  *bytes = *std::move(converted);
  return true;
}

bool SameFloat(double a, double b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return std::memcmp(&a, &b, sizeof(a)) == 0 || a == b;
}

// Floats of a narrower type compare in that type: the text's 0.001 : f32
// is the f32 nearest 0.001, which bytecode stores.
bool SameTypedFloat(double a, double b, const mlir::Type& type) {
  if (type.element == "f32") {
    return SameFloat(static_cast<float>(a), static_cast<float>(b));
  }
  if (type.element == "f16" || type.element == "bf16") {
    return SameFloat(a, b) ||
           std::fabs(a - b) <= std::fabs(a) * (1.0 / 256) + 1e-8;
  }
  return SameFloat(a, b);
}

// Attributes equal to the value an absent one means: StableHLO's printer
// leaves them out, hand-written text may spell them.
bool IsDefaultAttribute(const std::string& name, const mlir::Attribute& a) {
  using Kind = mlir::Attribute::Kind;
  if (name == "api_version") {
    return a.kind == Kind::kInteger && a.integer == 1;
  }
  if (name == "has_side_effect" || name == "indices_are_sorted" ||
      name == "unique_indices" || name == "is_stable" || name == "lower" ||
      name == "is_host_transfer") {
    return a.kind == Kind::kBool && !a.bool_value;
  }
  if (name == "backend_config") {
    return (a.kind == Kind::kString && a.string_value.empty()) ||
           (a.kind == Kind::kDictionary && a.entries.empty());
  }
  if (name == "compare_type") {
    return a.kind == Kind::kDialect && a.body == "NOTYPE";
  }
  if (name == "result_accuracy") {
    if (a.kind != Kind::kDialect) return false;
    for (const auto& [key, value] : a.entries) {
      if (key == "mode" && value.body != "DEFAULT") return false;
      if ((key == "atol" || key == "rtol") && value.float_value != 0) {
        return false;
      }
      if (key == "ulps" && value.integer != 0) return false;
    }
    return true;
  }
  return false;
}

// complex<f32> / complex<f64> constants as bytes: hex as is, values
// "(re, im)" parsed (a single value fills the shape).
bool ComplexBytes(const mlir::Attribute& a, std::vector<uint8_t>* bytes) {
  const std::string& element = a.type.element;
  const bool f32 = element == "complex<f32>";
  if (!f32 && element != "complex<f64>") return false;
  int64_t n = 1;
  for (int64_t dim : a.type.dims) {
    if (dim < 0) return false;
    n *= dim;
  }
  const size_t size = f32 ? 8 : 16;
  bytes->clear();
  if (a.dense.is_hex) {
    if (a.dense.hex_bytes.size() == size * n) {
      *bytes = a.dense.hex_bytes;
      return true;
    }
    if (a.dense.hex_bytes.size() != size) return false;
    for (int64_t i = 0; i < n; ++i) {
      bytes->insert(bytes->end(), a.dense.hex_bytes.begin(),
                    a.dense.hex_bytes.end());
    }
    return true;
  }
  const bool splat = a.dense.values.size() == 1 && n != 1;
  if (!splat && static_cast<int64_t>(a.dense.values.size()) != n) {
    return false;
  }
  for (int64_t i = 0; i < n; ++i) {
    const std::string& text = a.dense.values[splat ? 0 : i];
    const size_t open = text.find('(');
    const size_t comma = text.find(',');
    const size_t close = text.find(')');
    if (open == std::string::npos || comma == std::string::npos ||
        close == std::string::npos) {
      return false;
    }
    for (const std::string& part :
         {text.substr(open + 1, comma - open - 1),
          text.substr(comma + 1, close - comma - 1)}) {
      std::string t;
      for (char c : part) {
        if (c != ' ') t += c;
      }
      // 0x... spells the bits; anything else is a decimal value.
      const bool is_bits = t.size() > 2 && t[0] == '0' && t[1] == 'x';
      const uint64_t bits = is_bits ? std::strtoull(t.c_str(), nullptr, 16) : 0;
      const double value = is_bits ? 0 : std::strtod(t.c_str(), nullptr);
      if (f32) {
        uint32_t narrow = static_cast<uint32_t>(bits);
        if (!is_bits) {
          const float f = static_cast<float>(value);
          std::memcpy(&narrow, &f, 4);
        }
        const uint8_t* p = reinterpret_cast<const uint8_t*>(&narrow);
        bytes->insert(bytes->end(), p, p + 4);
      } else {
        uint64_t wide = bits;
        if (!is_bits) std::memcpy(&wide, &value, 8);
        const uint8_t* p = reinterpret_cast<const uint8_t*>(&wide);
        bytes->insert(bytes->end(), p, p + 8);
      }
    }
  }
  return true;
}

std::string DenseDifference(const mlir::Attribute& a,
                            const mlir::Attribute& b) {
  std::vector<uint8_t> a_bytes;
  std::vector<uint8_t> b_bytes;
  if (DenseBytes(a, &a_bytes) && DenseBytes(b, &b_bytes)) {
    if (a_bytes != b_bytes) {
      for (size_t i = 0; i < std::min(a_bytes.size(), b_bytes.size()); ++i) {
        if (a_bytes[i] != b_bytes[i]) {
          return absl::StrCat("dense constants differ at byte ", i);
        }
      }
      return "dense constants differ in size";
    }
    return "";
  }
  // Complex constants: the compiler expands them before lowering, so their
  // bytes are computed here.
  if (ComplexBytes(a, &a_bytes) && ComplexBytes(b, &b_bytes)) {
    return a_bytes == b_bytes ? "" : "complex dense constants differ";
  }
  // Other types the compiler does not lower: compare as written when both
  // are written alike.
  if (a.dense.is_hex != b.dense.is_hex) {
    return "dense constants not comparable (hex vs values, unsupported type)";
  }
  if (a.dense.is_hex ? a.dense.hex_bytes != b.dense.hex_bytes
                     : a.dense.values != b.dense.values) {
    return "dense constants differ";
  }
  return "";
}

std::string NamedDifference(const NamedAttributes& a, const NamedAttributes& b,
                            bool absent_is_empty_list,
                            bool absent_is_default = false);

std::string AttributeDifferenceImpl(const mlir::Attribute& a,
                                    const mlir::Attribute& b) {
  using Kind = mlir::Attribute::Kind;
  if (a.kind != b.kind) {
    return absl::StrCat("attribute kinds differ: ", Describe(a), " vs ",
                        Describe(b));
  }
  switch (a.kind) {
    case Kind::kUnit:
      return "";
    case Kind::kBool:
      return a.bool_value == b.bool_value ? "" : "booleans differ";
    case Kind::kInteger:
      if (a.integer != b.integer) {
        return absl::StrCat("integers differ: ", a.integer, " vs ", b.integer);
      }
      return TypeDifference(a.type, b.type);
    case Kind::kFloat:
      if (!SameTypedFloat(a.float_value, b.float_value, a.type)) {
        return absl::StrCat("floats differ: ", a.float_value, " vs ",
                            b.float_value);
      }
      return TypeDifference(a.type, b.type);
    case Kind::kString:
    case Kind::kSymbolRef:
      return a.string_value == b.string_value
                 ? ""
                 : absl::StrCat("strings differ: \"",
                                a.string_value.substr(0, 80), "\" vs \"",
                                b.string_value.substr(0, 80), "\"");
    case Kind::kType:
      return TypeDifference(a.type, b.type);
    case Kind::kArray:
      if (a.elements.size() != b.elements.size()) {
        return absl::StrCat("array lengths differ: ", a.elements.size(), " vs ",
                            b.elements.size());
      }
      for (size_t i = 0; i < a.elements.size(); ++i) {
        std::string d = AttributeDifferenceImpl(a.elements[i], b.elements[i]);
        if (!d.empty()) return absl::StrCat("[", i, "]: ", d);
      }
      return "";
    case Kind::kDenseArray:
      if (a.integers != b.integers) {
        return absl::StrCat("dense arrays differ: [",
                            absl::StrJoin(a.integers, ","), "] vs [",
                            absl::StrJoin(b.integers, ","), "]");
      }
      if (a.floats.size() != b.floats.size()) return "dense arrays differ";
      for (size_t i = 0; i < a.floats.size(); ++i) {
        if (!SameFloat(a.floats[i], b.floats[i])) return "dense arrays differ";
      }
      return TypeDifference(a.type, b.type);
    case Kind::kDenseElements: {
      std::string d = TypeDifference(a.type, b.type);
      if (!d.empty()) return d;
      return DenseDifference(a, b);
    }
    case Kind::kDictionary:
      return NamedDifference(a.entries, b.entries, false);
    case Kind::kDialect:
      if (a.dialect != b.dialect || a.mnemonic != b.mnemonic) {
        return absl::StrCat("dialect attributes differ: #", a.dialect, ".",
                            a.mnemonic, " vs #", b.dialect, ".", b.mnemonic);
      }
      if (WithoutSpaces(a.body) != WithoutSpaces(b.body)) {
        return absl::StrCat("dialect attribute bodies differ: ", a.body, " vs ",
                            b.body);
      }
      return NamedDifference(a.entries, b.entries, true);
  }
  return "unknown attribute kind";
}

// Fields of dialect attributes that printers leave out when empty or 0
// (e.g. index_vector_dim = 0 of #stablehlo.gather).
bool IsEmptyList(const mlir::Attribute& a) {
  return (a.kind == mlir::Attribute::Kind::kArray && a.elements.empty()) ||
         (a.kind == mlir::Attribute::Kind::kInteger && a.integer == 0) ||
         (a.kind == mlir::Attribute::Kind::kDenseArray && a.integers.empty() &&
          a.floats.empty());
}

std::string NamedDifference(const NamedAttributes& a, const NamedAttributes& b,
                            bool absent_is_empty_list, bool absent_is_default) {
  std::map<std::string, const mlir::Attribute*> a_map;
  std::map<std::string, const mlir::Attribute*> b_map;
  for (const auto& [name, value] : a) a_map[name] = &value;
  for (const auto& [name, value] : b) b_map[name] = &value;
  for (const auto& [name, value] : a_map) {
    auto found = b_map.find(name);
    if (found == b_map.end()) {
      if (absent_is_empty_list && IsEmptyList(*value)) continue;
      if (absent_is_default && IsDefaultAttribute(name, *value)) continue;
      return absl::StrCat("attribute '", name, "' only in the first (",
                          Describe(*value), ")");
    }
    std::string d = AttributeDifferenceImpl(*value, *found->second);
    if (!d.empty()) return absl::StrCat("attribute '", name, "': ", d);
  }
  for (const auto& [name, value] : b_map) {
    if (a_map.count(name)) continue;
    if (absent_is_empty_list && IsEmptyList(*value)) continue;
    if (absent_is_default && IsDefaultAttribute(name, *value)) continue;
    return absl::StrCat("attribute '", name, "' only in the second (",
                        Describe(*value), ")");
  }
  return "";
}

// Value identity: both trees number definitions in the same walk order.
class FunctionComparer {
 public:
  std::string Compare(const mlir::Function& a, const mlir::Function& b) {
    if (a.name != b.name) {
      return absl::StrCat("names differ: @", a.name, " vs @", b.name);
    }
    auto visibility = [](const std::string& v) {
      return v == "public" ? std::string() : v;
    };
    if (visibility(a.visibility) != visibility(b.visibility)) {
      return absl::StrCat("visibility differs: '", a.visibility, "' vs '",
                          b.visibility, "'");
    }
    if (a.arguments.size() != b.arguments.size()) {
      return absl::StrCat("argument counts differ: ", a.arguments.size(),
                          " vs ", b.arguments.size());
    }
    for (size_t i = 0; i < a.arguments.size(); ++i) {
      std::string d = TypeDifference(a.arguments[i].type, b.arguments[i].type);
      if (d.empty()) {
        d = NamedDifference(a.arguments[i].attributes,
                            b.arguments[i].attributes, false);
      }
      if (!d.empty()) return absl::StrCat("argument ", i, ": ", d);
    }
    if (a.result_types.size() != b.result_types.size()) {
      return absl::StrCat("result counts differ: ", a.result_types.size(),
                          " vs ", b.result_types.size());
    }
    for (size_t i = 0; i < a.result_types.size(); ++i) {
      std::string d = TypeDifference(a.result_types[i], b.result_types[i]);
      if (d.empty()) {
        static const NamedAttributes kNone;
        d = NamedDifference(
            i < a.result_attributes.size() ? a.result_attributes[i] : kNone,
            i < b.result_attributes.size() ? b.result_attributes[i] : kNone,
            false);
      }
      if (!d.empty()) return absl::StrCat("result ", i, ": ", d);
    }
    std::string d = NamedDifference(a.attributes, b.attributes, false);
    if (!d.empty()) return absl::StrCat("function attributes: ", d);
    return CompareRegion(a.body, b.body, "body");
  }

 private:
  struct Side {
    std::map<std::pair<std::string, int>, int> ids;
  };

  void Define(Side& side, const std::string& name, int index) {
    side.ids[{name, index}] = next_id_;
  }

  std::string CompareRegion(const mlir::Region& a, const mlir::Region& b,
                            const std::string& path) {
    if (a.blocks.size() != b.blocks.size()) {
      return absl::StrCat(path, ": block counts differ: ", a.blocks.size(),
                          " vs ", b.blocks.size());
    }
    for (size_t i = 0; i < a.blocks.size(); ++i) {
      const mlir::Block& x = a.blocks[i];
      const mlir::Block& y = b.blocks[i];
      const std::string where = absl::StrCat(path, " block ", i);
      if (x.arguments.size() != y.arguments.size()) {
        return absl::StrCat(where,
                            ": argument counts differ: ", x.arguments.size(),
                            " vs ", y.arguments.size());
      }
      for (size_t j = 0; j < x.arguments.size(); ++j) {
        std::string d =
            TypeDifference(x.arguments[j].type, y.arguments[j].type);
        if (!d.empty()) return absl::StrCat(where, " argument ", j, ": ", d);
        Define(a_, x.arguments[j].name, 0);
        Define(b_, y.arguments[j].name, 0);
        ++next_id_;
      }
      if (x.operations.size() != y.operations.size()) {
        return absl::StrCat(where, ": op counts differ: ", x.operations.size(),
                            " vs ", y.operations.size());
      }
      for (size_t j = 0; j < x.operations.size(); ++j) {
        std::string d = CompareOp(x.operations[j], y.operations[j],
                                  absl::StrCat(where, " op ", j));
        if (!d.empty()) return d;
      }
    }
    return "";
  }

  int Id(const Side& side, const mlir::ValueRef& ref) const {
    auto found = side.ids.find({ref.name, ref.index});
    return found == side.ids.end() ? -1 : found->second;
  }

  std::string CompareOp(const mlir::Operation& a, const mlir::Operation& b,
                        const std::string& path) {
    const std::string where = absl::StrCat(path, " (", a.name, ")");
    if (a.name != b.name) {
      return absl::StrCat(path, ": op names differ: ", a.name, " vs ", b.name);
    }
    if (a.operands.size() != b.operands.size()) {
      return absl::StrCat(where, ": operand counts differ: ", a.operands.size(),
                          " vs ", b.operands.size());
    }
    for (size_t i = 0; i < a.operands.size(); ++i) {
      const int x = Id(a_, a.operands[i]);
      const int y = Id(b_, b.operands[i]);
      if (x != y || x < 0) {
        return absl::StrCat(where, ": operand ", i,
                            " refers to different values");
      }
      if (i < a.operand_types.size() && i < b.operand_types.size()) {
        std::string d = TypeDifference(a.operand_types[i], b.operand_types[i]);
        if (!d.empty()) return absl::StrCat(where, " operand ", i, ": ", d);
      }
    }
    if (a.result_types.size() != b.result_types.size()) {
      return absl::StrCat(where,
                          ": result counts differ: ", a.result_types.size(),
                          " vs ", b.result_types.size());
    }
    for (size_t i = 0; i < a.result_types.size(); ++i) {
      std::string d = TypeDifference(a.result_types[i], b.result_types[i]);
      if (!d.empty()) return absl::StrCat(where, " result ", i, ": ", d);
    }
    std::string d = NamedDifference(a.attributes, b.attributes, false,
                                    /*absent_is_default=*/true);
    if (!d.empty()) return absl::StrCat(where, ": ", d);
    if (a.regions.size() != b.regions.size()) {
      return absl::StrCat(where, ": region counts differ: ", a.regions.size(),
                          " vs ", b.regions.size());
    }
    for (size_t i = 0; i < a.regions.size(); ++i) {
      d = CompareRegion(a.regions[i], b.regions[i],
                        absl::StrCat(where, " region ", i));
      if (!d.empty()) return d;
    }
    // Results are visible after the op (and its regions).
    for (size_t i = 0; i < a.result_types.size(); ++i) {
      Define(a_, a.result_name, static_cast<int>(i));
      Define(b_, b.result_name, static_cast<int>(i));
      ++next_id_;
    }
    return "";
  }

  Side a_;
  Side b_;
  int next_id_ = 0;
};

}  // namespace

std::string TypeDifference(const mlir::Type& a, const mlir::Type& b) {
  using Kind = mlir::Type::Kind;
  auto text = [](const mlir::Type& t) {
    return t.text.empty() ? std::string("<type>") : t.text;
  };
  if (a.kind != b.kind) {
    return absl::StrCat("types differ: ", text(a), " vs ", text(b));
  }
  if (a.kind == Kind::kOther) {
    return WithoutSpaces(a.text) == WithoutSpaces(b.text)
               ? ""
               : absl::StrCat("types differ: ", text(a), " vs ", text(b));
  }
  if (a.element != b.element || a.dims != b.dims ||
      WithoutSpaces(a.encoding) != WithoutSpaces(b.encoding) ||
      a.elements.size() != b.elements.size() ||
      a.results.size() != b.results.size()) {
    return absl::StrCat("types differ: ", text(a), " vs ", text(b));
  }
  for (size_t i = 0; i < a.elements.size(); ++i) {
    std::string d = TypeDifference(a.elements[i], b.elements[i]);
    if (!d.empty()) return d;
  }
  for (size_t i = 0; i < a.results.size(); ++i) {
    std::string d = TypeDifference(a.results[i], b.results[i]);
    if (!d.empty()) return d;
  }
  return "";
}

std::string AttributeDifference(const mlir::Attribute& a,
                                const mlir::Attribute& b) {
  return AttributeDifferenceImpl(a, b);
}

std::string FirstDifference(const mlir::Function& a, const mlir::Function& b) {
  return FunctionComparer().Compare(a, b);
}

}  // namespace pjrtx::bytecode_testing
