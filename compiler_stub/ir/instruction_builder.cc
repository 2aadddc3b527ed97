#include "compiler_stub/ir/instruction_builder.h"

#include <cstring>
#include <utility>

namespace pjrtx::ir {

InstructionBuilder::InstructionBuilder(OpState& state)
    : state_(state),
      computation_(
          state.context.lowerer.computation(state.context.computation)),
      dims_(state.result(0).dims) {}

InstructionBuilder::Value InstructionBuilder::Operand(int index) const {
  return Value{state_.operands[index].id, state_.shape(index).type};
}

InstructionBuilder::Value InstructionBuilder::Append(Instruction instruction,
                                                     ElementType type) {
  instruction.name = state_.op.name;
  instruction.location = state_.op.location;
  if (instruction.result_types.empty()) {
    instruction.result_types = {ValueType::Tensor(Shape{type, dims_})};
  }
  const int id = computation_.num_values++;
  instruction.results = {id};
  computation_.instructions.push_back(std::move(instruction));
  return Value{id, type};
}

InstructionBuilder::Value InstructionBuilder::Scalar(std::vector<uint8_t> bytes,
                                                     ElementType type) {
  Instruction constant;
  constant.opcode = OpCode::kConstant;
  constant.attributes.constant = std::move(bytes);
  constant.result_types = {ValueType::Tensor(Shape{type, {}})};
  const Value scalar = Append(std::move(constant), type);
  if (dims_.empty()) return scalar;
  // A scalar broadcast, as programs write it: fusion reads it as a scalar.
  Instruction broadcast;
  broadcast.opcode = OpCode::kBroadcastInDim;
  broadcast.operands = {scalar.id};
  broadcast.operand_types = {ValueType::Tensor(Shape{type, {}})};
  return Append(std::move(broadcast), type);
}

InstructionBuilder::Value InstructionBuilder::Constant(double value,
                                                       ElementType type) {
  std::vector<uint8_t> bytes(StorageSize(type));
  if (type == ElementType::kF64) {
    std::memcpy(bytes.data(), &value, sizeof(value));
  } else if (type == ElementType::kF32) {
    const float narrow = static_cast<float>(value);
    std::memcpy(bytes.data(), &narrow, sizeof(narrow));
  } else {
    return IntegerConstant(static_cast<int64_t>(value), type);
  }
  return Scalar(std::move(bytes), type);
}

InstructionBuilder::Value InstructionBuilder::IntegerConstant(
    int64_t value, ElementType type) {
  std::vector<uint8_t> bytes(StorageSize(type));
  const uint64_t bits = static_cast<uint64_t>(value);
  for (size_t k = 0; k < bytes.size(); ++k) {
    bytes[k] = static_cast<uint8_t>(bits >> (8 * k));
  }
  return Scalar(std::move(bytes), type);
}

InstructionBuilder::Value InstructionBuilder::Unary(UnaryOp op, Value x) {
  Instruction unary;
  unary.opcode = OpCode::kUnary;
  unary.attributes.unary = op;
  unary.operands = {x.id};
  unary.operand_types = {ValueType::Tensor(Shape{x.type, dims_})};
  return Append(std::move(unary), x.type);
}

InstructionBuilder::Value InstructionBuilder::Binary(BinaryOp op, Value a,
                                                     Value b) {
  Instruction binary;
  binary.opcode = OpCode::kBinary;
  binary.attributes.binary = op;
  binary.operands = {a.id, b.id};
  binary.operand_types = {ValueType::Tensor(Shape{a.type, dims_}),
                          ValueType::Tensor(Shape{b.type, dims_})};
  return Append(std::move(binary), a.type);
}

InstructionBuilder::Value InstructionBuilder::Compare(
    ComparisonDirection direction, Value a, Value b) {
  Instruction compare;
  compare.opcode = OpCode::kCompare;
  compare.attributes.comparison = direction;
  compare.attributes.comparison_type = ComparisonType::kNoType;
  compare.operands = {a.id, b.id};
  compare.operand_types = {ValueType::Tensor(Shape{a.type, dims_}),
                           ValueType::Tensor(Shape{b.type, dims_})};
  return Append(std::move(compare), ElementType::kPred);
}

InstructionBuilder::Value InstructionBuilder::Select(Value predicate,
                                                     Value on_true,
                                                     Value on_false) {
  Instruction select;
  select.opcode = OpCode::kSelect;
  select.operands = {predicate.id, on_true.id, on_false.id};
  select.operand_types = {ValueType::Tensor(Shape{ElementType::kPred, dims_}),
                          ValueType::Tensor(Shape{on_true.type, dims_}),
                          ValueType::Tensor(Shape{on_false.type, dims_})};
  return Append(std::move(select), on_true.type);
}

InstructionBuilder::Value InstructionBuilder::Convert(Value x, ElementType to) {
  if (x.type == to) return x;
  Instruction convert;
  convert.opcode = OpCode::kConvert;
  convert.operands = {x.id};
  convert.operand_types = {ValueType::Tensor(Shape{x.type, dims_})};
  return Append(std::move(convert), to);
}

absl::Status InstructionBuilder::Finish(Value result) {
  state_.composed = {
      ScopedValue{result.id, ValueType::Tensor(Shape{result.type, dims_})}};
  return absl::OkStatus();
}

}  // namespace pjrtx::ir
