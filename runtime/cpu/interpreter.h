// Runs a verified program on the CPU, op by op, with the reference kernels.
#ifndef PJRTX_RUNTIME_CPU_INTERPRETER_H_
#define PJRTX_RUNTIME_CPU_INTERPRETER_H_

#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler_stub/ir/program.h"
#include "runtime/cpu/collective_context.h"
#include "runtime/cpu/kernels.h"
#include "runtime/cpu/literal.h"
#include "runtime/cpu/program_cache.h"

namespace pjrtx::cpu {

class StartedCollective;

// A runtime value: a tensor, a tuple of values, or a token.
struct TensorValue {
  ir::ValueType::Kind kind = ir::ValueType::Kind::kTensor;
  Literal tensor;
  std::vector<TensorValue> elements;

  static TensorValue Tensor(Literal literal) {
    return TensorValue{ir::ValueType::Kind::kTensor, std::move(literal), {}};
  }
};

struct InterpreterOptions {
  // f32 dot_general rounds its operands to bf16 and accumulates in f32: one
  // bf16 pass, as a TPU's DEFAULT precision does. Otherwise exact f32.
  bool bf16_f32_dots = false;
  // Plans kept across runs (oneDNN dot primitives), shared by the runs of
  // one executable; must be for this program and outlive the interpreter.
  // Null: the interpreter keeps its own for its lifetime.
  ProgramCache* program_cache = nullptr;
};

// Thread-compatible; one Run at a time per Interpreter. The program must
// outlive the interpreter.
class Interpreter {
 public:
  explicit Interpreter(const ir::Program& program,
                       InterpreterOptions options = {})
      : program_(program), options_(options) {}

  // Runs the entry computation on `arguments` (one per parameter, of the
  // parameter types) and returns its results. `result_memory`, if given,
  // holds one view per entry result (of its shape): ops that produce a
  // result write it there directly, saving a copy; a result computed
  // elsewhere is returned as usual and the caller copies it.
  absl::StatusOr<std::vector<TensorValue>> Run(
      std::vector<TensorValue> arguments,
      std::vector<Literal> result_memory = {});

  // Runs the entry computation and leaves each result in `results[i]` (a
  // view of caller memory of the result's shape): computed there in place
  // where the op allows, copied there otherwise. Keeps its working storage
  // from run to run, so a program of in-place ops on rank-0 values
  // allocates nothing in steady state (the dispatch hot path).
  absl::Status RunInto(absl::Span<const TensorValue> arguments,
                       absl::Span<Literal> results);

  // The launch the next runs belong to, for programs with collectives
  // (null: none; their collectives then fail). Must outlive the runs.
  void set_collectives(CollectiveContext* context) { collectives_ = context; }

 private:
  // Runs `c`'s instructions in `env`, overlapping collectives with the
  // instructions that do not need their results.
  absl::Status RunInstructions(const ir::Computation& c,
                               std::vector<TensorValue>& env);
  // Region `computation` as a function of scalars, reading captured values
  // from `env` (which must outlive it).
  RegionFn RegionFunction(int computation, const std::vector<TensorValue>& env);
  absl::Status FinishCollective(const ir::Instruction& inst,
                                StartedCollective& started,
                                std::vector<TensorValue>& env);

  absl::StatusOr<std::vector<TensorValue>> Call(
      int computation, absl::Span<const TensorValue> arguments,
      absl::Span<const TensorValue> captures);
  // Calls region `computation` from an instruction of a computation whose
  // values are `environment` (which supplies the region's captures).
  absl::StatusOr<std::vector<TensorValue>> CallRegion(
      int computation, absl::Span<const TensorValue> arguments,
      const std::vector<TensorValue>& environment);
  // Runs one instruction on the values of its computation, `environment`:
  // hands it to the Execute* below that runs its kind of op (the ops that
  // need no interpreter state run in interpreter.cc's own helpers).
  absl::Status Execute(const ir::Instruction& instruction,
                       std::vector<TensorValue>& environment);
  // dot_general (through oneDNN where it can), convolution, triangular
  // solve.
  absl::Status ExecuteLinearAlgebra(const ir::Instruction& instruction,
                                    std::vector<TensorValue>& environment);
  // The kernels that apply a region: reduce, reduce_window, sort, map,
  // scatter, select_and_scatter and the fused reduce.
  absl::Status ExecuteWithRegions(const ir::Instruction& instruction,
                                  std::vector<TensorValue>& environment);
  // while, if, case and call.
  absl::Status ExecuteControlFlow(const ir::Instruction& instruction,
                                  std::vector<TensorValue>& environment);
  // replica_id, partition_id and the exchanges, each exchange started and
  // finished at once.
  absl::Status ExecuteCollective(const ir::Instruction& instruction,
                                 std::vector<TensorValue>& environment);
  // A fused elementwise body, into bound caller memory where it may.
  absl::Status ExecuteFusedElementwise(const ir::Instruction& instruction,
                                       std::vector<TensorValue>& environment);

  const ir::Program& program_;
  const InterpreterOptions options_;
  ProgramCache own_cache_;  // Used when options_.program_cache is null.
  int depth_ = 0;
  // The caller memory entry value `value` may be computed in, or null:
  // only entry values Run bound (depth 1), and only when no argument
  // shares the memory (a donated input that a later op still reads must
  // not be overwritten early) or, with `elementwise` (the op reads each
  // operand element only to write the same element of the value), the one
  // argument that shares it exactly is read by nothing after the op
  // (OverwritableArgument).
  const Literal* BoundMemory(int value,
                             const std::vector<TensorValue>& environment,
                             bool elementwise = false);
  // Whether entry parameter `parameter` may be overwritten by the op that
  // defines entry value `value`: nothing after that op reads it, it is not
  // an entry result, and no op makes a value that may share its storage
  // (reshape, bitcast, tuple, control flow) from it.
  bool OverwritableArgument(int parameter, int value);

  // Entry values bound to caller memory (see Run): (value id, memory).
  // A vector, cleared between runs, so its storage is reused.
  std::vector<std::pair<int, Literal>> bound_;
  // The entry computation's values during RunInto, reused likewise.
  std::vector<TensorValue> entry_environment_;
  // Per entry value: the index of the entry instruction that defines it,
  // and of the last that reads it (-1: none; INT_MAX: read in a way that
  // may keep its storage); made on first use.
  std::vector<int> entry_defined_at_;
  std::vector<int> entry_last_read_;
  CollectiveContext* collectives_ = nullptr;
  CollectiveSequence sequence_;
};

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_INTERPRETER_H_
