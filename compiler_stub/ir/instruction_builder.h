// Builds an op out of others: for ops the compiler lowers as a composition
// of elementwise instructions (the chlo ops), each step is appended to the
// op's computation with the op's name and position, so that fusion and
// every target treat it as any other elementwise instruction, and errors
// at run time still name the op.
#ifndef PJRTX_COMPILER_STUB_IR_INSTRUCTION_BUILDER_H_
#define PJRTX_COMPILER_STUB_IR_INSTRUCTION_BUILDER_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "compiler_stub/ir/op_lowering.h"

namespace pjrtx::ir {

class InstructionBuilder {
 public:
  // A value of the op's result dimensions.
  struct Value {
    int id = -1;
    ElementType type = ElementType::kF32;
  };

  // Every value built has the dimensions of the op's result 0.
  explicit InstructionBuilder(OpState& state);

  // The op's operand `index` (of the result's dimensions).
  Value Operand(int index) const;
  // `value` everywhere, as `type` (f32, f64, an integer type or i1).
  Value Constant(double value, ElementType type);
  Value IntegerConstant(int64_t value, ElementType type);
  Value Unary(UnaryOp op, Value x);
  Value Binary(BinaryOp op, Value a, Value b);
  // i1; compared by element type.
  Value Compare(ComparisonDirection direction, Value a, Value b);
  Value Select(Value predicate, Value on_true, Value on_false);
  Value Convert(Value x, ElementType to);

  // Makes `result` the op's result (LowerOperation checks its type).
  absl::Status Finish(Value result);

 private:
  Value Append(Instruction instruction, ElementType type);
  Value Scalar(std::vector<uint8_t> bytes, ElementType type);

  OpState& state_;
  Computation& computation_;
  std::vector<int64_t> dims_;
};

}  // namespace pjrtx::ir

#endif  // PJRTX_COMPILER_STUB_IR_INSTRUCTION_BUILDER_H_
