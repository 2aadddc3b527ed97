#include "runtime/cli/corpus_case.h"

#include <cmath>
#include <cstring>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler_stub/ir/float_formats.h"
#include "compiler_stub/ir/lower.h"
#include "compiler_stub/ir/op_lowering.h"
#include "compiler_stub/ir/type_conversion.h"
#include "compiler_stub/mlir/parser.h"
#include "compiler_stub/passes/complex_expansion.h"
#include "support/status_macros.h"

namespace pjrtx::cli {
namespace {

using ir::ElementType;

// Default tolerance of check.expect_almost_eq*: |a - e| <= t * (1 + |e|),
// the StableHLO interpreter's 1e-4, made relative for large magnitudes. A
// check's own `tolerance` attribute replaces t.
constexpr double kDefaultTolerance = 1e-4;

double DecodeFloat(const uint8_t* p, ElementType type) {
  switch (type) {
    case ElementType::kF16: {
      uint16_t bits;
      std::memcpy(&bits, p, 2);
      return ir::HalfToFloat(bits);
    }
    case ElementType::kBF16: {
      uint16_t bits;
      std::memcpy(&bits, p, 2);
      return ir::BFloat16ToFloat(bits);
    }
    case ElementType::kF32: {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    case ElementType::kF64: {
      double d;
      std::memcpy(&d, p, 8);
      return d;
    }
    case ElementType::kF8E4M3FN:
      return ir::Float8E4M3FNToFloat(*p);
    case ElementType::kF8E5M2:
      return ir::Float8E5M2ToFloat(*p);
    default:
      return 0;
  }
}

// Integers (and PRED) as stored: little-endian, sign-extended from the
// storage width for signed types.
int64_t DecodeInt(const uint8_t* p, ElementType type) {
  const size_t size = ir::StorageSize(type);
  uint64_t raw = 0;
  std::memcpy(&raw, p, size);
  if (ir::IsSignedInt(type) && size < 8) {
    const int shift = 64 - 8 * static_cast<int>(size);
    return static_cast<int64_t>(raw << shift) >> shift;
  }
  return static_cast<int64_t>(raw);
}

// Distance in units in the last place between two floats of `type`.
int64_t UlpDistance(const uint8_t* a, const uint8_t* b, ElementType type) {
  const size_t size = ir::StorageSize(type);
  auto ordered = [&](const uint8_t* p) {
    uint64_t raw = 0;
    std::memcpy(&raw, p, size);
    const uint64_t sign = uint64_t{1} << (8 * size - 1);
    // Map sign-magnitude onto a monotonic integer line.
    return (raw & sign) ? -static_cast<int64_t>(raw & (sign - 1))
                        : static_cast<int64_t>(raw);
  };
  const int64_t d = ordered(a) - ordered(b);
  return d < 0 ? -d : d;
}

std::string ValueText(const uint8_t* p, ElementType type) {
  if (ir::IsFloat(type)) {
    std::ostringstream out;
    out.precision(9);
    out << DecodeFloat(p, type);
    return out.str();
  }
  return absl::StrCat(DecodeInt(p, type));
}

}  // namespace

std::vector<CorpusCase> SplitCases(const std::string& file_text) {
  std::vector<CorpusCase> cases;
  CorpusCase current;
  int line_number = 1;
  std::istringstream in(file_text);
  std::string line;
  while (std::getline(in, line)) {
    // MLIR's -split-input-file splits wherever the marker appears on a line.
    if (absl::StrContains(line, "// -----")) {
      cases.push_back(std::move(current));
      current = CorpusCase();
      current.first_line = line_number + 1;
    } else {
      // Keep line numbers of the file: pad with empty lines.
      if (current.text.empty() && current.first_line > 1) {
        current.text.assign(current.first_line - 1, '\n');
      }
      absl::StrAppend(&current.text, line, "\n");
    }
    ++line_number;
  }
  cases.push_back(std::move(current));
  return cases;
}

absl::StatusOr<std::vector<Check>> ReadChecks(const std::string& text) {
  PJRTX_ASSIGN_OR_RETURN(mlir::Module module, mlir::ParseModule(text));
  // The checks as the compiler sees them: one per part of a complex value.
  if (ir::MentionsComplex(module)) {
    PJRTX_RETURN_IF_ERROR(ir::ExpandComplex(module));
  }
  if (module.functions.empty()) {
    return absl::UnimplementedError("the case defines no function to run");
  }
  PJRTX_ASSIGN_OR_RETURN(const mlir::Function* entry,
                         ir::FindEntryFunction(module, ""));
  std::vector<Check> checks;
  for (const mlir::Operation& op : entry->body.blocks.at(0).operations) {
    if (!absl::StartsWith(op.name, "check.")) continue;
    Check check;
    check.line = op.location.line;
    for (const mlir::ValueRef& ref : op.operands) {
      check.values.emplace_back(ref.name, ref.index);
    }
    if (absl::StrContains(op.name, "almost_eq")) {
      check.kind = Check::Kind::kAlmostEq;
      check.tolerance = kDefaultTolerance;
      for (const auto& [name, value] : op.attributes) {
        if (name == "tolerance" &&
            value.kind == mlir::Attribute::Kind::kFloat) {
          check.tolerance = value.float_value;
        }
      }
    } else if (absl::StrContains(op.name, "close")) {
      check.kind = Check::Kind::kClose;
      check.max_ulp_difference = 3;
      for (const auto& [name, value] : op.attributes) {
        if (name == "max_ulp_difference")
          check.max_ulp_difference = value.integer;
      }
    }
    if (op.operand_types.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(op.location.line, ":", op.location.column, ": ", op.name,
                       " has no operand type"));
    }
    PJRTX_ASSIGN_OR_RETURN(ir::ValueType type,
                           ir::ConvertType(op.operand_types[0]));
    check.shape = type.shape;
    if (absl::EndsWith(op.name, "_const")) {
      for (const auto& [name, value] : op.attributes) {
        if (name != "value") continue;
        PJRTX_ASSIGN_OR_RETURN(check.expected,
                               ir::DenseToBytes(value, check.shape));
      }
    } else {
      check.num_outputs = 2;
    }
    checks.push_back(std::move(check));
  }
  return checks;
}

std::string Compare(const Check& check,
                    const std::vector<std::vector<uint8_t>>& outputs) {
  const std::vector<uint8_t>& actual = outputs[0];
  const std::vector<uint8_t>& expected =
      check.num_outputs == 1 ? check.expected : outputs[1];
  const ElementType type = check.shape.type;
  const size_t size = ir::StorageSize(type);
  if (actual.size() != expected.size()) {
    return absl::StrCat("line ", check.line, ": got ", actual.size(),
                        " bytes, expected ", expected.size());
  }
  for (size_t i = 0; i * size < actual.size(); ++i) {
    const uint8_t* a = actual.data() + i * size;
    const uint8_t* e = expected.data() + i * size;
    bool same;
    if (!ir::IsFloat(type)) {
      same = DecodeInt(a, type) == DecodeInt(e, type);
    } else {
      const double x = DecodeFloat(a, type), y = DecodeFloat(e, type);
      if (std::isnan(x) || std::isnan(y)) {
        same = std::isnan(x) && std::isnan(y);
      } else if (check.kind == Check::Kind::kAlmostEq) {
        same = x == y || std::abs(x - y) <= check.tolerance * (1 + std::abs(y));
      } else if (check.kind == Check::Kind::kClose) {
        same = UlpDistance(a, e, type) <= check.max_ulp_difference;
      } else {
        same = x == y;
      }
    }
    if (!same) {
      return absl::StrCat("line ", check.line, ": element ", i, " is ",
                          ValueText(a, type), ", expected ",
                          ValueText(e, type));
    }
  }
  return "";
}

}  // namespace pjrtx::cli
