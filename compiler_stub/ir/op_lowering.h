// Lowering and verification of single operations.
#ifndef PJRTX_COMPILER_STUB_IR_OP_LOWERING_H_
#define PJRTX_COMPILER_STUB_IR_OP_LOWERING_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler_stub/ir/attribute_reader.h"
#include "compiler_stub/ir/program.h"
#include "compiler_stub/mlir/ast.h"

namespace pjrtx::ir {

struct ScopedValue {
  int id = 0;
  ValueType type;
};

// Names visible where an op is lowered.
class ValueScope {
 public:
  virtual ~ValueScope() = default;
  virtual absl::StatusOr<ScopedValue> Lookup(const mlir::ValueRef& ref) = 0;
};

// Lowers the regions of an op into new computations.
class RegionLowerer {
 public:
  virtual ~RegionLowerer() = default;
  // Returns the index of the new computation.
  virtual absl::StatusOr<int> LowerRegion(const mlir::Region& region,
                                          const std::string& name,
                                          ValueScope& enclosing) = 0;
  virtual const Program& program() const = 0;
  virtual Computation& computation(int index) = 0;
};

struct OpContext {
  const mlir::Operation& op;
  ValueScope& scope;
  RegionLowerer& lowerer;
  int computation;  // Where the op goes.
  // Non-null in the entry function of a test program: check ops append
  // their values here instead of being rejected.
  std::vector<ScopedValue>* check_outputs;
};

// Verifies `context.op`, appends its instruction to the computation and
// returns its results.
absl::StatusOr<std::vector<ScopedValue>> LowerOperation(OpContext& context);

// What a rule for one op sees and fills in.
struct OpState {
  OpContext& context;
  const mlir::Operation& op;
  AttributeReader attributes;
  std::vector<ScopedValue> operands;
  std::vector<ValueType> result_types;
  Instruction instruction;
  // Set by rules that lower the op as several instructions of their own
  // (InstructionBuilder, LowerFromTemplate): its results, in place of
  // `instruction`'s.
  std::optional<std::vector<ScopedValue>> composed;

  // Helpers for rules: an INVALID_ARGUMENT at the op naming it.
  absl::Status Error(absl::string_view message) const;
  // The i-th operand's tensor shape (operands are checked to be tensors by
  // RequireTensors).
  const Shape& shape(int i) const { return operands[i].type.shape; }
  const Shape& result(int i) const { return result_types[i].shape; }
  absl::Status RequireOperands(size_t count) const;
  absl::Status RequireResults(size_t count) const;
  absl::Status RequireTensors() const;
  // The declared result must equal `inferred`.
  absl::Status ExpectResult(int index, const Shape& inferred) const;
  // Lowers region `index`, requiring `params` scalar (rank-0) arguments of
  // the given element types and, when `returns` is non-empty, scalar
  // results of those types.
  absl::StatusOr<int> ScalarRegion(size_t index,
                                   const std::vector<ElementType>& params,
                                   const std::vector<ElementType>& returns);
  absl::StatusOr<int> Region(size_t index, const std::string& name);
};

// INVALID_ARGUMENT naming `what` unless `dims` are distinct and in
// [0, rank).
absl::Status CheckDims(const OpState& s, const std::string& what,
                       const std::vector<int64_t>& dims, int64_t rank);

// Whether `name` is a dynamic-shape op (dynamic_iota, dynamic_reshape, ...)
// that is a static op once its shape operands are constants; StaticForm
// gives that op (the constants dropped from its operands, turned into its
// attributes or checked against the result type), or UNIMPLEMENTED when
// a shape operand is not a constant.
bool HasStaticForm(const std::string& name);
absl::StatusOr<mlir::Operation> StaticForm(const OpState& state);

// Rules by family; each returns false when it does not know the op.
bool LowerElementwiseOp(OpState& state, absl::Status* status);
bool LowerShapeOp(OpState& state, absl::Status* status);
bool LowerRegionOp(OpState& state, absl::Status* status);
// triangular_solve.
bool LowerLinearAlgebraOp(OpState& state, absl::Status* status);
// chlo ops, as compositions of elementwise instructions; UNIMPLEMENTED for
// the chlo ops it does not know.
bool LowerChloOp(OpState& state, absl::Status* status);
// chlo.ragged_dot with a ragged free lhs dimension (ragged_dot_lowering.cc).
absl::Status LowerRaggedDot(OpState& state);
// chlo.scan (scan_lowering.cc).
absl::Status LowerScan(OpState& state);
// stablehlo.rng_bit_generator, with XLA:CPU's bits
// (rng_bit_generator_lowering.cc).
absl::Status LowerRngBitGenerator(OpState& state);
// Collectives, send/recv, replica_id and partition_id.
bool LowerCollectiveOp(OpState& state, absl::Status* status);

// Converts a dense<...> literal to Literal storage bytes of `shape`.
absl::StatusOr<std::vector<uint8_t>> DenseToBytes(
    const mlir::Attribute& attribute, const Shape& shape);

}  // namespace pjrtx::ir

#endif  // PJRTX_COMPILER_STUB_IR_OP_LOWERING_H_
