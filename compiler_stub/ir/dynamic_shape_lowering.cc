// Dynamic-shape ops whose shape operands are constants are their static
// forms: dynamic_iota, dynamic_broadcast_in_dim and dynamic_reshape are
// iota, broadcast_in_dim and reshape once their output shape is checked
// against the (static) result type; dynamic_pad, dynamic_gather,
// dynamic_conv and real_dynamic_slice are pad, gather, convolution and
// slice with the constant operands turned into the attributes those take.
// Programs here have static shapes, so a shape operand computed at run time
// is UNIMPLEMENTED.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler_stub/ir/op_lowering.h"

namespace pjrtx::ir {
namespace {

// The values of operand `index` when an integer constant of this
// computation defines it.
std::optional<std::vector<int64_t>> ConstantIntegers(const OpState& s,
                                                     size_t index) {
  const ScopedValue& value = s.operands[index];
  const Shape& shape = value.type.shape;
  if (value.type.kind != ValueType::Kind::kTensor || !IsInteger(shape.type)) {
    return std::nullopt;
  }
  const Computation& computation =
      s.context.lowerer.computation(s.context.computation);
  for (const Instruction& instruction : computation.instructions) {
    if (instruction.opcode != OpCode::kConstant ||
        instruction.results.size() != 1 || instruction.results[0] != value.id) {
      continue;
    }
    const size_t size = StorageSize(shape.type);
    const std::vector<uint8_t>& bytes = instruction.attributes.constant;
    std::vector<int64_t> values;
    for (size_t at = 0; at + size <= bytes.size(); at += size) {
      uint64_t bits = 0;
      for (size_t k = 0; k < size; ++k) {
        bits |= static_cast<uint64_t>(bytes[at + k]) << (8 * k);
      }
      // Sign-extend signed types; storage is little-endian two's complement.
      const int width = static_cast<int>(size * 8);
      if (IsSignedInt(shape.type) && width < 64 && (bits >> (width - 1)) & 1) {
        bits |= ~uint64_t{0} << width;
      }
      values.push_back(static_cast<int64_t>(bits));
    }
    return values;
  }
  return std::nullopt;
}

mlir::Attribute IntegerArray(std::vector<int64_t> values) {
  mlir::Attribute attribute;
  attribute.kind = mlir::Attribute::Kind::kDenseArray;
  attribute.integers = std::move(values);
  return attribute;
}

struct Rewrite {
  const char* dynamic_name;
  const char* static_name;
  // Operands that must be constants, by index, and what they become: an
  // attribute of that name, or (empty name) a check against the result's
  // dimensions.
  std::vector<std::pair<size_t, std::string>> constants;
  size_t operands;  // How many the dynamic op takes.
};

const Rewrite* Find(const std::string& name) {
  static const auto* rewrites = new std::vector<Rewrite>{
      {"stablehlo.dynamic_iota", "stablehlo.iota", {{0, ""}}, 1},
      {"stablehlo.dynamic_broadcast_in_dim",
       "stablehlo.broadcast_in_dim",
       {{1, ""}},
       2},
      {"stablehlo.dynamic_reshape", "stablehlo.reshape", {{1, ""}}, 2},
      {"stablehlo.dynamic_pad",
       "stablehlo.pad",
       {{2, "edge_padding_low"},
        {3, "edge_padding_high"},
        {4, "interior_padding"}},
       5},
      {"stablehlo.dynamic_gather", "stablehlo.gather", {{2, "slice_sizes"}}, 3},
      {"stablehlo.dynamic_conv", "stablehlo.convolution", {{2, "padding"}}, 3},
      {"stablehlo.real_dynamic_slice",
       "stablehlo.slice",
       {{1, "start_indices"}, {2, "limit_indices"}, {3, "strides"}},
       4},
  };
  for (const Rewrite& rewrite : *rewrites) {
    if (name == rewrite.dynamic_name) return &rewrite;
  }
  return nullptr;
}

}  // namespace

bool HasStaticForm(const std::string& name) { return Find(name) != nullptr; }

absl::StatusOr<mlir::Operation> StaticForm(const OpState& s) {
  const Rewrite& rewrite = *Find(s.op.name);
  if (absl::Status status = s.RequireOperands(rewrite.operands); !status.ok()) {
    return status;
  }
  if (absl::Status status = s.RequireResults(1); !status.ok()) return status;
  if (absl::Status status = s.RequireTensors(); !status.ok()) return status;
  mlir::Operation static_op = s.op;
  static_op.name = rewrite.static_name;
  std::vector<bool> dropped(s.operands.size(), false);
  for (const auto& [index, attribute] : rewrite.constants) {
    std::optional<std::vector<int64_t>> values = ConstantIntegers(s, index);
    if (!values) {
      return UnsupportedAt(
          s.op.location,
          absl::StrCat("op ", s.op.name, " needs operand ", index,
                       " to be an integer constant: shapes are static here"));
    }
    dropped[index] = true;
    if (!attribute.empty()) {
      std::erase_if(static_op.attributes, [&](const auto& entry) {
        return entry.first == attribute;
      });
      static_op.attributes.emplace_back(attribute, IntegerArray(*values));
      continue;
    }
    const std::vector<int64_t>& dims = s.result(0).dims;
    if (*values != dims) {
      return s.Error(
          absl::StrCat("the output shape [", absl::StrJoin(*values, ","),
                       "] differs from the result type's dimensions [",
                       absl::StrJoin(dims, ","), "]"));
    }
  }
  static_op.operands.clear();
  static_op.operand_types.clear();
  for (size_t i = 0; i < s.op.operands.size(); ++i) {
    if (dropped[i]) continue;
    static_op.operands.push_back(s.op.operands[i]);
    if (i < s.op.operand_types.size()) {
      static_op.operand_types.push_back(s.op.operand_types[i]);
    }
  }
  return static_op;
}

}  // namespace pjrtx::ir
