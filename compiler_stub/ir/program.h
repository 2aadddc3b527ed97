// A verified StableHLO program: what the compiler hands to a target.
//
// Values are numbered per computation (a function body or a region); every
// instruction names its operands and results by number and carries its
// result types and typed attributes. Everything here has been checked
// (types, shapes, attribute ranges), so targets need not re-validate.
#ifndef PJRTX_COMPILER_STUB_IR_PROGRAM_H_
#define PJRTX_COMPILER_STUB_IR_PROGRAM_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "compiler_stub/ir/element_type.h"
#include "compiler_stub/ir/op_attributes.h"
#include "compiler_stub/mlir/location.h"

namespace pjrtx::ir {

struct ValueType {
  enum class Kind { kTensor, kTuple, kToken };
  Kind kind = Kind::kTensor;
  Shape shape;                      // kTensor.
  std::vector<ValueType> elements;  // kTuple.

  static ValueType Tensor(Shape shape) {
    return ValueType{Kind::kTensor, std::move(shape), {}};
  }
  bool operator==(const ValueType& other) const = default;
  std::string ToString() const;
};

enum class OpCode {
  kConstant,
  kIota,
  kUnary,
  kBinary,
  kCompare,
  kSelect,
  kClamp,
  kFma,  // a * b + c rounded once (stablehlo.fma, StableHLO 1.24)
  kConvert,
  kBitcastConvert,
  kReducePrecision,
  kBroadcastInDim,
  kReshape,
  kTranspose,
  kSlice,
  kDynamicSlice,
  kDynamicUpdateSlice,
  kConcatenate,
  kPad,
  kReverse,
  kDotGeneral,
  kConvolution,
  kTriangularSolve,
  kReduce,
  kReduceWindow,
  kSelectAndScatter,
  kSort,
  kMap,
  kGather,
  kScatter,
  kWhile,
  kIf,
  kCase,
  kCall,
  kTuple,
  kGetTupleElement,
  kOptimizationBarrier,
  kGetDimensionSize,
  kAfterAll,
  // Elementwise ops (and the scalar broadcasts and constants feeding them)
  // fused into one pass over memory; see FusedBody.
  kFusedElementwise,
  // A single-input reduce whose input an elementwise prologue computes as
  // the reduction reads it, so the input is never materialized:
  // attributes.fused is the prologue (one output, of shape
  // attributes.fused_shape); operands are the prologue's inputs, then the
  // init value; dims and the region are the reduce's.
  kFusedReduce,
  // Collectives and the ids of the running process (see CollectiveSpec).
  // Each runs over the processes of the launch: num_replicas x
  // num_partitions runs of the program, one per device.
  kReplicaId,
  kPartitionId,
  kAllReduce,            // operands -> results; regions[0] combines.
  kAllGather,            // operands -> results; dimension: all_gather_dim.
  kReduceScatter,        // operand -> result; dimension: scatter_dimension.
  kAllToAll,             // operands -> results; see CollectiveSpec.
  kCollectivePermute,    // operand -> result.
  kCollectiveBroadcast,  // operand(s) -> result(s); see has_dynamic_root.
  kCollectiveReduce,     // operand -> result at the group's first process.
  kSend,                 // tensors..., token -> token.
  kRecv,                 // token -> tensors..., token.
};

// Collective opcodes that exchange data with the other processes of the
// launch.
inline bool IsExchangeOp(OpCode opcode) {
  switch (opcode) {
    case OpCode::kAllReduce:
    case OpCode::kAllGather:
    case OpCode::kReduceScatter:
    case OpCode::kAllToAll:
    case OpCode::kCollectivePermute:
    case OpCode::kCollectiveBroadcast:
    case OpCode::kCollectiveReduce:
    case OpCode::kSend:
    case OpCode::kRecv:
      return true;
    default:
      return false;
  }
}

// Those, and the ones that read the running process's ids: a program with
// any of them runs as one process of a launch.
inline bool IsCollectiveOp(OpCode opcode) {
  return IsExchangeOp(opcode) || opcode == OpCode::kReplicaId ||
         opcode == OpCode::kPartitionId;
}

// How a collective instruction picks the processes it runs among (the
// StableHLO spec's process groups) and what it moves.
struct CollectiveSpec {
  // replica_groups rows with the -1 padding of ragged rows removed.
  std::vector<std::vector<int64_t>> replica_groups;
  // collective_permute: (source, target) pairs.
  std::vector<std::pair<int64_t, int64_t>> source_target_pairs;
  // channel_handle; 0 when absent.
  int64_t channel_id = 0;
  int64_t channel_type = 0;
  bool use_global_device_ids = false;
  bool is_host_transfer = false;  // kSend, kRecv.
  // kCollectiveBroadcast: the last operand (tensor<Nxi32>) gives, per data
  // operand, the index in the group of the process it comes from.
  bool has_dynamic_root = false;
  // kAllToAll.
  int64_t split_dimension = 0;
  int64_t concat_dimension = 0;
  int64_t split_count = 0;
};

// The body of a kFusedElementwise instruction: a straight-line program
// over registers, each one element of the fused shape. Registers
// [0, num_inputs) are the instruction's operands (a rank-0 operand is the
// same value at every element); then each step defines one register.
struct FusedStep {
  OpCode opcode = OpCode::kUnary;  // kUnary, kBinary, kCompare, kSelect,
                                   // kClamp or kConvert.
  UnaryOp unary = UnaryOp::kAbs;
  BinaryOp binary = BinaryOp::kAdd;
  ComparisonDirection comparison = ComparisonDirection::kEq;
  ComparisonType comparison_type = ComparisonType::kNoType;
  std::vector<int> inputs;               // Registers.
  ElementType type = ElementType::kF32;  // Of the register defined.
};

struct FusedBody {
  int num_inputs = 0;
  std::vector<FusedStep> steps;
  // Registers that are the instruction's results, in order.
  std::vector<int> outputs;
};

// The attributes of one instruction; each opcode reads the fields its
// comment in lower.cc names.
struct OpAttributes {
  // kConstant: the value in Literal storage layout (see runtime/cpu).
  std::vector<uint8_t> constant;
  UnaryOp unary = UnaryOp::kAbs;
  BinaryOp binary = BinaryOp::kAdd;
  ComparisonDirection comparison = ComparisonDirection::kEq;
  ComparisonType comparison_type = ComparisonType::kNoType;
  // kIota, kConcatenate, kSort, kGetTupleElement, kGetDimensionSize.
  int64_t dimension = 0;
  // kBroadcastInDim (broadcast_dimensions), kTranspose (permutation),
  // kReduce and kReverse (dimensions), kMap (dimensions), kDynamicSlice
  // (slice_sizes), kGather (slice_sizes).
  std::vector<int64_t> dims;
  std::vector<int64_t> start, limit, strides;  // kSlice.
  std::vector<int64_t> low, high, interior;    // kPad.
  int exponent_bits = 0, mantissa_bits = 0;    // kReducePrecision.
  bool is_stable = false;                      // kSort.
  DotDimensions dot;
  ConvolutionDimensions convolution;
  ConvolutionWindow convolution_window;
  int64_t feature_group_count = 1, batch_group_count = 1;
  WindowSpec window;  // kReduceWindow, kSelectAndScatter.
  GatherDimensions gather;
  ScatterDimensions scatter;
  TriangularSolveOptions triangular_solve;
  int callee = -1;            // kCall: index into Program::computations.
  FusedBody fused;            // kFusedElementwise, kFusedReduce.
  Shape fused_shape;          // kFusedReduce: what the prologue computes.
  CollectiveSpec collective;  // Collective opcodes.
};

struct Instruction {
  OpCode opcode = OpCode::kConstant;
  std::string name;  // The op's name, e.g. "stablehlo.add", for messages.
  std::vector<int> operands;
  std::vector<ValueType> operand_types;
  std::vector<int> results;
  std::vector<ValueType> result_types;
  OpAttributes attributes;
  // Regions, as indices into Program::computations: reduce/sort/map bodies,
  // while (cond, body), if (true, false), case branches, select_and_scatter
  // (select, scatter), scatter update.
  std::vector<int> regions;
  // Where the op is written: its line and column in MLIR text, or the
  // source position an artifact's location names (file included).
  mlir::Location location;
};

struct Computation {
  std::string name;  // Function name, or "<op> region" for regions.
  std::vector<int> parameters;
  std::vector<ValueType> parameter_types;
  // Values of the enclosing computation a region uses directly (regions
  // may read values defined outside them); the caller passes them after
  // the explicit arguments, and `capture_parameters` receives them.
  std::vector<int> captures;
  std::vector<int> capture_parameters;
  std::vector<Instruction> instructions;
  std::vector<int> results;
  std::vector<ValueType> result_types;
  int num_values = 0;
};

// Program::parameter_aliases of a parameter whose memory no result takes.
inline constexpr int64_t kNotDonated = -1;

struct Program {
  std::vector<Computation> computations;
  std::map<std::string, int> functions;  // Function name -> computation.
  int entry = 0;
  int64_t num_replicas = 1;
  int64_t num_partitions = 1;
  std::string module_name;
  // Whether any computation has a collective or send/recv instruction: runs
  // then meet the other processes of their launch.
  bool has_collectives = false;
  // The entry's parameters and results that are complex buffers (C64 for
  // f32 parts, C128 for f64), which its computation sees as [..., 2]
  // tensors of their parts (complex_expansion.h); empty when none are.
  std::vector<bool> complex_parameters;
  std::vector<bool> complex_results;
  // Per entry parameter: the result a run that is handed the argument's
  // memory writes there, or kNotDonated (input_output_alias.h).
  std::vector<int64_t> parameter_aliases;
};

}  // namespace pjrtx::ir

#endif  // PJRTX_COMPILER_STUB_IR_PROGRAM_H_
