// Runs a verified program on the CPU, op by op, with the reference kernels.
#ifndef PJRTX_RUNTIME_CPU_INTERPRETER_H_
#define PJRTX_RUNTIME_CPU_INTERPRETER_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler_stub/ir/program.h"
#include "runtime/cpu/literal.h"

namespace pjrtx::cpu {

// A runtime value: a tensor, a tuple of values, or a token.
struct Value {
  ir::ValueType::Kind kind = ir::ValueType::Kind::kTensor;
  Literal tensor;
  std::vector<Value> elements;

  static Value Tensor(Literal literal) {
    return Value{ir::ValueType::Kind::kTensor, std::move(literal), {}};
  }
};

// Thread-compatible; one Run at a time per Interpreter. The program must
// outlive the interpreter.
class Interpreter {
 public:
  explicit Interpreter(const ir::Program& program) : program_(program) {}

  // Runs the entry computation on `arguments` (one per parameter, of the
  // parameter types) and returns its results.
  absl::StatusOr<std::vector<Value>> Run(std::vector<Value> arguments);

 private:
  absl::StatusOr<std::vector<Value>> Call(int computation,
                                          absl::Span<const Value> arguments,
                                          absl::Span<const Value> captures);
  // Calls region `computation` from an instruction of a computation whose
  // values are `environment` (which supplies the region's captures).
  absl::StatusOr<std::vector<Value>> CallRegion(
      int computation, absl::Span<const Value> arguments,
      const std::vector<Value>& environment);
  absl::Status Execute(const ir::Instruction& instruction,
                       std::vector<Value>& environment);

  const ir::Program& program_;
  int depth_ = 0;
};

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_INTERPRETER_H_
