#include "runtime/cpu/interpreter.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "compiler_stub/mlir/location_text.h"
#include "runtime/cpu/collective_ops.h"
#include "runtime/cpu/fused_elementwise.h"
#include "runtime/cpu/fused_reduce.h"
#include "runtime/cpu/kernels.h"
#include "runtime/cpu/simple_reduce.h"
#include "support/status_macros.h"

namespace pjrtx::cpu {
namespace {

using ir::Instruction;
using ir::OpCode;

// Deep enough for real programs, shallow enough to fail before the stack.
constexpr int kMaxCallDepth = 256;

std::vector<Literal> Tensors(const std::vector<TensorValue>& values,
                             absl::Span<const int> ids) {
  std::vector<Literal> tensors;
  tensors.reserve(ids.size());
  for (int id : ids) tensors.push_back(values[id].tensor);
  return tensors;
}

std::vector<TensorValue> Values(const std::vector<TensorValue>& env,
                                absl::Span<const int> ids) {
  std::vector<TensorValue> values;
  values.reserve(ids.size());
  for (int id : ids) values.push_back(env[id]);
  return values;
}

absl::Status NotInLaunch(const Instruction& inst) {
  return absl::FailedPreconditionError(absl::StrCat(
      inst.name, " at ", mlir::LocationText(inst.location),
      " needs the launch it runs in (run the program through an executable "
      "of a client)"));
}

// Whether `reader` reads a result of `writer`.
bool Reads(const Instruction& reader, const Instruction& writer) {
  for (int operand : reader.operands) {
    for (int result : writer.results) {
      if (operand == result) return true;
    }
  }
  return false;
}

int64_t ScalarIndex(const Literal& literal) {
  return ir::IsUnsignedInt(literal.type())
             ? static_cast<int64_t>(literal.GetUInt(0))
             : literal.GetInt(0);
}

absl::Status NoKernel(const Instruction& inst) {
  return absl::InternalError(absl::StrCat("no kernel for ", inst.name));
}

// An instruction's operands and results in the values of its computation.
class InstructionValues {
 public:
  InstructionValues(const Instruction& inst, std::vector<TensorValue>& env)
      : inst_(inst), env_(env) {}

  const Literal& operand(size_t i) const {
    return env_[inst_.operands[i]].tensor;
  }
  std::vector<Literal> operands() const {
    return Tensors(env_, inst_.operands);
  }
  const Shape& result_shape(size_t i) const {
    return inst_.result_types[i].shape;
  }
  // Built only by the ops that need every result's shape: region bodies
  // run one instruction per element, where a vector per step adds up.
  std::vector<Shape> result_shapes() const {
    std::vector<Shape> shapes;
    shapes.reserve(inst_.result_types.size());
    for (const ir::ValueType& t : inst_.result_types) shapes.push_back(t.shape);
    return shapes;
  }

  void Set(size_t i, Literal literal) {
    env_[inst_.results[i]] = TensorValue::Tensor(std::move(literal));
  }
  void SetAll(std::vector<Literal> literals) {
    for (size_t i = 0; i < literals.size(); ++i) Set(i, std::move(literals[i]));
  }
  void SetValues(std::vector<TensorValue> values) {
    for (size_t i = 0; i < values.size(); ++i) {
      env_[inst_.results[i]] = std::move(values[i]);
    }
  }

 private:
  const Instruction& inst_;
  std::vector<TensorValue>& env_;
};

// Ops computed element by element from their operands (or from nothing).
absl::Status ExecuteElementwise(const Instruction& inst,
                                std::vector<TensorValue>& env) {
  InstructionValues io(inst, env);
  const ir::OpAttributes& a = inst.attributes;
  switch (inst.opcode) {
    case OpCode::kConstant: {
      // A view of the program's own bytes: kernels never write their
      // inputs, and the program outlives the run, so a constant costs
      // nothing per run (a copy of a 512x512 splat was a millisecond).
      const Shape& shape = io.result_shape(0);
      if (!a.constant.empty() && a.constant.size() == shape.size_bytes()) {
        io.Set(0,
               Literal::View(shape, const_cast<uint8_t*>(a.constant.data())));
        return absl::OkStatus();
      }
      Literal literal(shape);
      // An empty constant has no bytes (and memcpy takes no NULL source).
      if (!a.constant.empty()) {
        std::memcpy(literal.data(), a.constant.data(),
                    std::min(a.constant.size(), literal.size_bytes()));
      }
      io.Set(0, std::move(literal));
      return absl::OkStatus();
    }
    case OpCode::kIota:
      io.Set(0, Iota(io.result_shape(0), a.dimension));
      return absl::OkStatus();
    case OpCode::kUnary: {
      PJRTX_ASSIGN_OR_RETURN(Literal out,
                             Unary(a.unary, io.operand(0), io.result_shape(0)));
      io.Set(0, std::move(out));
      return absl::OkStatus();
    }
    case OpCode::kBinary: {
      PJRTX_ASSIGN_OR_RETURN(
          Literal out,
          Binary(a.binary, io.operand(0), io.operand(1), io.result_shape(0)));
      io.Set(0, std::move(out));
      return absl::OkStatus();
    }
    case OpCode::kCompare:
      io.Set(0, Compare(a.comparison, a.comparison_type, io.operand(0),
                        io.operand(1)));
      return absl::OkStatus();
    case OpCode::kSelect:
      io.Set(0, Select(io.operand(0), io.operand(1), io.operand(2)));
      return absl::OkStatus();
    case OpCode::kClamp:
      io.Set(0, Clamp(io.operand(0), io.operand(1), io.operand(2)));
      return absl::OkStatus();
    case OpCode::kFma:
      io.Set(0, Fma(io.operand(0), io.operand(1), io.operand(2)));
      return absl::OkStatus();
    case OpCode::kConvert:
      io.Set(0, Convert(io.operand(0), io.result_shape(0).type));
      return absl::OkStatus();
    case OpCode::kBitcastConvert: {
      PJRTX_ASSIGN_OR_RETURN(Literal out,
                             BitcastConvert(io.operand(0), io.result_shape(0)));
      io.Set(0, std::move(out));
      return absl::OkStatus();
    }
    case OpCode::kReducePrecision:
      io.Set(0,
             ReducePrecision(io.operand(0), a.exponent_bits, a.mantissa_bits));
      return absl::OkStatus();
    default:
      return NoKernel(inst);
  }
}

// Ops that move or pick elements without computing new ones.
absl::Status ExecuteDataMovement(const Instruction& inst,
                                 std::vector<TensorValue>& env) {
  InstructionValues io(inst, env);
  const ir::OpAttributes& a = inst.attributes;
  switch (inst.opcode) {
    case OpCode::kBroadcastInDim:
      io.Set(0, BroadcastInDim(io.operand(0), io.result_shape(0), a.dims));
      return absl::OkStatus();
    case OpCode::kReshape:
      io.Set(0, Reshape(io.operand(0), io.result_shape(0)));
      return absl::OkStatus();
    case OpCode::kTranspose:
      io.Set(0, Transpose(io.operand(0), a.dims, io.result_shape(0)));
      return absl::OkStatus();
    case OpCode::kSlice:
      io.Set(0, Slice(io.operand(0), a.start, a.limit, a.strides,
                      io.result_shape(0)));
      return absl::OkStatus();
    case OpCode::kDynamicSlice:
    case OpCode::kDynamicUpdateSlice: {
      const size_t first = inst.opcode == OpCode::kDynamicSlice ? 1 : 2;
      std::vector<int64_t> starts;
      for (size_t i = first; i < inst.operands.size(); ++i) {
        starts.push_back(ScalarIndex(io.operand(i)));
      }
      if (inst.opcode == OpCode::kDynamicSlice) {
        io.Set(0,
               DynamicSlice(io.operand(0), starts, a.dims, io.result_shape(0)));
      } else {
        io.Set(0, DynamicUpdateSlice(io.operand(0), io.operand(1), starts));
      }
      return absl::OkStatus();
    }
    case OpCode::kConcatenate:
      io.Set(0, Concatenate(io.operands(), a.dimension, io.result_shape(0)));
      return absl::OkStatus();
    case OpCode::kPad:
      io.Set(0, Pad(io.operand(0), io.operand(1), a.low, a.high, a.interior,
                    io.result_shape(0)));
      return absl::OkStatus();
    case OpCode::kReverse:
      io.Set(0, Reverse(io.operand(0), a.dims));
      return absl::OkStatus();
    case OpCode::kGather:
      io.Set(0, Gather(io.operand(0), io.operand(1), a.gather, a.dims,
                       io.result_shape(0)));
      return absl::OkStatus();
    case OpCode::kGetDimensionSize: {
      Literal size(io.result_shape(0));
      size.SetInt(0, io.operand(0).dims()[a.dimension]);
      io.Set(0, std::move(size));
      return absl::OkStatus();
    }
    default:
      return NoKernel(inst);
  }
}

// Tuples and tokens: values that carry no data of their own.
absl::Status ExecuteTuplesAndTokens(const Instruction& inst,
                                    std::vector<TensorValue>& env) {
  switch (inst.opcode) {
    case OpCode::kTuple: {
      TensorValue tuple{ir::ValueType::Kind::kTuple, {}, {}};
      for (int id : inst.operands) tuple.elements.push_back(env[id]);
      env[inst.results[0]] = std::move(tuple);
      return absl::OkStatus();
    }
    case OpCode::kGetTupleElement:
      env[inst.results[0]] =
          env[inst.operands[0]].elements[inst.attributes.dimension];
      return absl::OkStatus();
    case OpCode::kOptimizationBarrier:
      for (size_t i = 0; i < inst.operands.size(); ++i) {
        env[inst.results[i]] = env[inst.operands[i]];
      }
      return absl::OkStatus();
    case OpCode::kAfterAll:
      env[inst.results[0]] = TensorValue{ir::ValueType::Kind::kToken, {}, {}};
      return absl::OkStatus();
    default:
      return NoKernel(inst);
  }
}

}  // namespace

absl::StatusOr<std::vector<TensorValue>> Interpreter::Run(
    std::vector<TensorValue> arguments, std::vector<Literal> result_memory) {
  const ir::Computation& entry = program_.computations[program_.entry];
  if (arguments.size() != entry.parameters.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("@", entry.name, " takes ", entry.parameters.size(),
                     " argument(s), got ", arguments.size()));
  }
  depth_ = 0;
  sequence_.Reset();
  bound_.clear();
  for (size_t i = 0; i < result_memory.size() && i < entry.results.size();
       ++i) {
    bound_.emplace_back(entry.results[i], std::move(result_memory[i]));
  }
  return Call(program_.entry, arguments, {});
}

absl::Status Interpreter::RunInto(absl::Span<const TensorValue> arguments,
                                  absl::Span<Literal> results) {
  const ir::Computation& entry = program_.computations[program_.entry];
  if (arguments.size() != entry.parameters.size() ||
      results.size() != entry.results.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "@", entry.name, " takes ", entry.parameters.size(),
        " argument(s) and returns ", entry.results.size(), ", got ",
        arguments.size(), " argument(s) and room for ", results.size()));
  }
  bound_.clear();
  for (size_t i = 0; i < results.size(); ++i) {
    bound_.emplace_back(entry.results[i], results[i]);
  }
  entry_environment_.clear();
  entry_environment_.resize(entry.num_values);
  for (size_t i = 0; i < entry.parameters.size(); ++i) {
    entry_environment_[entry.parameters[i]] = arguments[i];
  }
  depth_ = 1;
  sequence_.Reset();
  absl::Status status = RunInstructions(entry, entry_environment_);
  depth_ = 0;
  if (status.ok()) {
    for (size_t i = 0; i < results.size(); ++i) {
      const Literal& value = entry_environment_[entry.results[i]].tensor;
      // A donated input may alias the result memory; memmove stays correct.
      if (value.size_bytes() > 0 && value.data() != results[i].data()) {
        std::memmove(results[i].data(), value.data(), value.size_bytes());
      }
    }
  }
  // Intermediates go now rather than at the next run; the storage of the
  // vectors stays.
  entry_environment_.clear();
  bound_.clear();
  return status;
}

const Literal* Interpreter::BoundMemory(
    int value, const std::vector<TensorValue>& environment, bool elementwise) {
  if (depth_ != 1) return nullptr;
  const Literal* memory = nullptr;
  for (const auto& [id, literal] : bound_) {
    if (id == value) memory = &literal;
  }
  if (memory == nullptr) return nullptr;
  for (int p : program_.computations[program_.entry].parameters) {
    const Literal& t = environment[p].tensor;
    if (memory->data() < t.data() + t.size_bytes() &&
        t.data() < memory->data() + memory->size_bytes()) {
      // A donated input's memory, taken over exactly by an elementwise op
      // that is its last reader: each element is read before it is
      // written, so the result goes there without a copy.
      const bool exact =
          t.data() == memory->data() && t.size_bytes() == memory->size_bytes();
      if (!elementwise || !exact || !OverwritableArgument(p, value)) {
        return nullptr;
      }
    }
  }
  return memory;
}

bool Interpreter::OverwritableArgument(int parameter, int value) {
  const ir::Computation& entry = program_.computations[program_.entry];
  if (entry_defined_at_.empty()) {
    entry_defined_at_.assign(entry.num_values, -1);
    entry_last_read_.assign(entry.num_values, -1);
    for (int i = 0; i < static_cast<int>(entry.instructions.size()); ++i) {
      const Instruction& inst = entry.instructions[i];
      for (int r : inst.results) entry_defined_at_[r] = i;
      // Ops whose results may share an operand's storage, or that hand it
      // to other computations: the operand's storage may be read after
      // them through another name.
      bool keeps = !inst.regions.empty();
      switch (inst.opcode) {
        case OpCode::kReshape:
        case OpCode::kBitcastConvert:
        case OpCode::kTuple:
        case OpCode::kGetTupleElement:
        case OpCode::kOptimizationBarrier:
        case OpCode::kCall:
          keeps = true;
          break;
        default:
          break;
      }
      for (int o : inst.operands) {
        entry_last_read_[o] =
            keeps ? INT_MAX : std::max(entry_last_read_[o], i);
      }
      for (int region : inst.regions) {
        for (int v : program_.computations[region].captures) {
          entry_last_read_[v] = INT_MAX;
        }
      }
    }
    for (int r : entry.results) entry_last_read_[r] = INT_MAX;
  }
  if (parameter < 0 || value < 0 ||
      parameter >= static_cast<int>(entry_last_read_.size()) ||
      value >= static_cast<int>(entry_defined_at_.size())) {
    return false;
  }
  const int defined_at = entry_defined_at_[value];
  return defined_at >= 0 && entry_last_read_[parameter] <= defined_at;
}

absl::StatusOr<std::vector<TensorValue>> Interpreter::CallRegion(
    int computation, absl::Span<const TensorValue> arguments,
    const std::vector<TensorValue>& environment) {
  const ir::Computation& c = program_.computations[computation];
  std::vector<TensorValue> captures;
  captures.reserve(c.captures.size());
  for (int id : c.captures) captures.push_back(environment[id]);
  return Call(computation, arguments, captures);
}

absl::StatusOr<std::vector<TensorValue>> Interpreter::Call(
    int computation, absl::Span<const TensorValue> arguments,
    absl::Span<const TensorValue> captures) {
  const ir::Computation& c = program_.computations[computation];
  if (++depth_ > kMaxCallDepth) {
    --depth_;
    return absl::ResourceExhaustedError(absl::StrCat(
        "calls nested deeper than ", kMaxCallDepth, " in @", c.name));
  }
  std::vector<TensorValue> environment(c.num_values);
  for (size_t i = 0; i < c.parameters.size(); ++i) {
    environment[c.parameters[i]] = arguments[i];
  }
  for (size_t i = 0; i < c.capture_parameters.size(); ++i) {
    environment[c.capture_parameters[i]] = captures[i];
  }
  absl::Status status = RunInstructions(c, environment);
  if (!status.ok()) {
    --depth_;
    return status;
  }
  std::vector<TensorValue> results;
  results.reserve(c.results.size());
  for (int id : c.results) results.push_back(environment[id]);
  --depth_;
  return results;
}

RegionFn Interpreter::RegionFunction(int computation,
                                     const std::vector<TensorValue>& env) {
  return [this, computation, &env](absl::Span<const Literal> args)
             -> absl::StatusOr<std::vector<Literal>> {
    std::vector<TensorValue> values;
    values.reserve(args.size());
    for (const Literal& l : args) values.push_back(TensorValue::Tensor(l));
    PJRTX_ASSIGN_OR_RETURN(std::vector<TensorValue> out,
                           CallRegion(computation, values, env));
    std::vector<Literal> literals;
    for (TensorValue& v : out) literals.push_back(std::move(v.tensor));
    return literals;
  };
}

absl::Status Interpreter::RunInstructions(const ir::Computation& c,
                                          std::vector<TensorValue>& env) {
  if (collectives_ == nullptr || !program_.has_collectives) {
    for (const Instruction& instruction : c.instructions) {
      PJRTX_RETURN_IF_ERROR(Execute(instruction, env));
    }
    return absl::OkStatus();
  }
  // Collectives started and not finished, in program order. Each finishes
  // when an instruction reads its results (or may: an instruction with
  // regions may read any value), or at the end of the computation, so the
  // instructions in between run while the exchange is in flight. Dropping
  // one unfinished (on an error) withdraws this process from it.
  std::vector<std::pair<const Instruction*, std::unique_ptr<StartedCollective>>>
      pending;
  auto finish_reads = [&](const Instruction* reader) -> absl::Status {
    for (size_t i = 0; i < pending.size();) {
      if (reader != nullptr && reader->regions.empty() &&
          !Reads(*reader, *pending[i].first)) {
        ++i;
        continue;
      }
      absl::Status status =
          FinishCollective(*pending[i].first, *pending[i].second, env);
      pending.erase(pending.begin() + i);
      if (!status.ok()) return status;
    }
    return absl::OkStatus();
  };
  for (const Instruction& instruction : c.instructions) {
    PJRTX_RETURN_IF_ERROR(finish_reads(&instruction));
    if (ir::IsExchangeOp(instruction.opcode)) {
      PJRTX_ASSIGN_OR_RETURN(
          std::unique_ptr<StartedCollective> started,
          StartCollective(instruction, Values(env, instruction.operands),
                          *collectives_, sequence_));
      pending.emplace_back(&instruction, std::move(started));
      continue;
    }
    PJRTX_RETURN_IF_ERROR(Execute(instruction, env));
  }
  return finish_reads(nullptr);
}

absl::Status Interpreter::FinishCollective(const Instruction& inst,
                                           StartedCollective& started,
                                           std::vector<TensorValue>& env) {
  Combiner combine;
  if (!inst.regions.empty()) {
    const ir::Computation& body = program_.computations[inst.regions[0]];
    // The usual bodies (one add, max, ...) run as one fused pass over
    // every contribution; any other body runs element by element.
    if (body.instructions.size() == 1 &&
        body.instructions[0].opcode == OpCode::kBinary &&
        body.instructions[0].operands == body.parameters &&
        body.results == body.instructions[0].results) {
      combine.binary = body.instructions[0].attributes.binary;
    } else {
      combine.pair = [region = RegionFunction(inst.regions[0], env)](
                         const Literal& a,
                         const Literal& b) -> absl::StatusOr<Literal> {
        return Map({a, b}, region, a.shape());
      };
    }
  }
  absl::StatusOr<std::vector<TensorValue>> results =
      started.Finish(collectives_->process(), combine);
  if (!results.ok()) {
    return absl::Status(results.status().code(),
                        absl::StrCat(mlir::LocationText(inst.location), ": ",
                                     results.status().message()));
  }
  for (size_t i = 0; i < inst.results.size(); ++i) {
    env[inst.results[i]] = std::move((*results)[i]);
  }
  return absl::OkStatus();
}

absl::Status Interpreter::Execute(const Instruction& inst,
                                  std::vector<TensorValue>& env) {
  switch (inst.opcode) {
    case OpCode::kConstant:
    case OpCode::kIota:
    case OpCode::kUnary:
    case OpCode::kBinary:
    case OpCode::kCompare:
    case OpCode::kSelect:
    case OpCode::kClamp:
    case OpCode::kFma:
    case OpCode::kConvert:
    case OpCode::kBitcastConvert:
    case OpCode::kReducePrecision:
      return ExecuteElementwise(inst, env);
    case OpCode::kBroadcastInDim:
    case OpCode::kReshape:
    case OpCode::kTranspose:
    case OpCode::kSlice:
    case OpCode::kDynamicSlice:
    case OpCode::kDynamicUpdateSlice:
    case OpCode::kConcatenate:
    case OpCode::kPad:
    case OpCode::kReverse:
    case OpCode::kGather:
    case OpCode::kGetDimensionSize:
      return ExecuteDataMovement(inst, env);
    case OpCode::kDotGeneral:
    case OpCode::kConvolution:
    case OpCode::kTriangularSolve:
      return ExecuteLinearAlgebra(inst, env);
    case OpCode::kReduce:
    case OpCode::kReduceWindow:
    case OpCode::kSelectAndScatter:
    case OpCode::kSort:
    case OpCode::kMap:
    case OpCode::kScatter:
    case OpCode::kFusedReduce:
      return ExecuteWithRegions(inst, env);
    case OpCode::kWhile:
    case OpCode::kIf:
    case OpCode::kCase:
    case OpCode::kCall:
      return ExecuteControlFlow(inst, env);
    case OpCode::kTuple:
    case OpCode::kGetTupleElement:
    case OpCode::kOptimizationBarrier:
    case OpCode::kAfterAll:
      return ExecuteTuplesAndTokens(inst, env);
    case OpCode::kReplicaId:
    case OpCode::kPartitionId:
    case OpCode::kAllReduce:
    case OpCode::kAllGather:
    case OpCode::kReduceScatter:
    case OpCode::kAllToAll:
    case OpCode::kCollectivePermute:
    case OpCode::kCollectiveBroadcast:
    case OpCode::kCollectiveReduce:
    case OpCode::kSend:
    case OpCode::kRecv:
      return ExecuteCollective(inst, env);
    case OpCode::kFusedElementwise:
      return ExecuteFusedElementwise(inst, env);
  }
  return NoKernel(inst);
}

absl::Status Interpreter::ExecuteLinearAlgebra(const Instruction& inst,
                                               std::vector<TensorValue>& env) {
  InstructionValues io(inst, env);
  const ir::OpAttributes& a = inst.attributes;
  switch (inst.opcode) {
    case OpCode::kDotGeneral: {
      ProgramCache& cache = options_.program_cache != nullptr
                                ? *options_.program_cache
                                : own_cache_;
      if (const OneDnnDot* plan = cache.DotPlan(inst, options_.bf16_f32_dots)) {
        // Straight into the caller's memory when Run bound this result,
        // unless an argument shares it: a donated input that the matmul, or
        // a later op, still reads.
        const Literal* bound = BoundMemory(inst.results[0], env);
        Literal out = bound != nullptr
                          ? *bound
                          : Literal::ForOverwrite(io.result_shape(0));
        PJRTX_RETURN_IF_ERROR(
            plan->Run(io.operand(0).data(), io.operand(1).data(), out.data()));
        io.Set(0, std::move(out));
        return absl::OkStatus();
      }
      // Types oneDNN does not run: the reference kernel.
      if (options_.bf16_f32_dots && io.operand(0).type() == ElementType::kF32 &&
          io.operand(1).type() == ElementType::kF32) {
        auto bf16_pass = [](const Literal& x) {
          return Convert(Convert(x, ElementType::kBF16), ElementType::kF32);
        };
        io.Set(0, DotGeneral(bf16_pass(io.operand(0)), bf16_pass(io.operand(1)),
                             a.dot, io.result_shape(0)));
      } else {
        io.Set(0, DotGeneral(io.operand(0), io.operand(1), a.dot,
                             io.result_shape(0)));
      }
      return absl::OkStatus();
    }
    case OpCode::kConvolution:
      io.Set(0, Convolution(io.operand(0), io.operand(1), a.convolution,
                            a.convolution_window, a.feature_group_count,
                            a.batch_group_count, io.result_shape(0)));
      return absl::OkStatus();
    case OpCode::kTriangularSolve:
      io.Set(0,
             TriangularSolve(io.operand(0), io.operand(1), a.triangular_solve));
      return absl::OkStatus();
    default:
      return NoKernel(inst);
  }
}

absl::Status Interpreter::ExecuteWithRegions(const Instruction& inst,
                                             std::vector<TensorValue>& env) {
  InstructionValues io(inst, env);
  const ir::OpAttributes& a = inst.attributes;
  auto region = [&](size_t r) -> RegionFn {
    return RegionFunction(inst.regions[r], env);
  };
  switch (inst.opcode) {
    case OpCode::kReduce:
    case OpCode::kReduceWindow: {
      std::vector<Literal> all = io.operands();
      const size_t n = all.size() / 2;
      if (inst.opcode == OpCode::kReduce && n == 1) {
        // Most reductions apply one binary op: skip the per-element call.
        std::optional<ir::BinaryOp> op =
            SimpleReducer(program_.computations[inst.regions[0]]);
        std::optional<Literal> out;
        if (op) {
          out = SimpleReduce(*op, all[0], all[1], a.dims, io.result_shape(0));
        }
        if (out) {
          io.Set(0, *std::move(out));
          return absl::OkStatus();
        }
      }
      absl::Span<const Literal> inputs(all.data(), n);
      absl::Span<const Literal> inits(all.data() + n, n);
      PJRTX_ASSIGN_OR_RETURN(
          std::vector<Literal> out,
          inst.opcode == OpCode::kReduce
              ? Reduce(inputs, inits, a.dims, region(0), io.result_shapes())
              : ReduceWindow(inputs, inits, a.window, region(0),
                             io.result_shapes()));
      io.SetAll(std::move(out));
      return absl::OkStatus();
    }
    case OpCode::kSelectAndScatter: {
      PJRTX_ASSIGN_OR_RETURN(
          Literal out,
          SelectAndScatter(io.operand(0), io.operand(1), io.operand(2),
                           a.window, region(0), region(1), io.result_shape(0)));
      io.Set(0, std::move(out));
      return absl::OkStatus();
    }
    case OpCode::kSort: {
      PJRTX_ASSIGN_OR_RETURN(
          std::vector<Literal> out,
          Sort(io.operands(), a.dimension, a.is_stable, region(0)));
      io.SetAll(std::move(out));
      return absl::OkStatus();
    }
    case OpCode::kMap: {
      PJRTX_ASSIGN_OR_RETURN(Literal out,
                             Map(io.operands(), region(0), io.result_shape(0)));
      io.Set(0, std::move(out));
      return absl::OkStatus();
    }
    case OpCode::kScatter: {
      std::vector<Literal> all = io.operands();
      const size_t n = (all.size() - 1) / 2;
      PJRTX_ASSIGN_OR_RETURN(
          std::vector<Literal> out,
          Scatter(absl::Span<const Literal>(all.data(), n), all[n],
                  absl::Span<const Literal>(all.data() + n + 1, n), a.scatter,
                  region(0), io.result_shapes()));
      io.SetAll(std::move(out));
      return absl::OkStatus();
    }
    case OpCode::kFusedReduce: {
      PJRTX_ASSIGN_OR_RETURN(
          Literal out,
          RunFusedReduce(inst, io.operands(),
                         program_.computations[inst.regions[0]], region(0)));
      io.Set(0, std::move(out));
      return absl::OkStatus();
    }
    default:
      return NoKernel(inst);
  }
}

absl::Status Interpreter::ExecuteControlFlow(const Instruction& inst,
                                             std::vector<TensorValue>& env) {
  InstructionValues io(inst, env);
  switch (inst.opcode) {
    case OpCode::kWhile: {
      std::vector<TensorValue> state;
      for (int id : inst.operands) state.push_back(env[id]);
      while (true) {
        PJRTX_ASSIGN_OR_RETURN(std::vector<TensorValue> cond,
                               CallRegion(inst.regions[0], state, env));
        if (cond[0].tensor.GetInt(0) == 0) break;
        PJRTX_ASSIGN_OR_RETURN(state, CallRegion(inst.regions[1], state, env));
      }
      io.SetValues(std::move(state));
      return absl::OkStatus();
    }
    case OpCode::kIf:
    case OpCode::kCase: {
      int64_t branch;
      if (inst.opcode == OpCode::kIf) {
        branch = io.operand(0).GetInt(0) != 0 ? 0 : 1;
      } else {
        // Out-of-range indices run the last branch, as the spec says.
        branch = io.operand(0).GetInt(0);
        const int64_t n = static_cast<int64_t>(inst.regions.size());
        if (branch < 0 || branch >= n) branch = n - 1;
      }
      PJRTX_ASSIGN_OR_RETURN(std::vector<TensorValue> out,
                             CallRegion(inst.regions[branch], {}, env));
      io.SetValues(std::move(out));
      return absl::OkStatus();
    }
    case OpCode::kCall: {
      std::vector<TensorValue> args;
      for (int id : inst.operands) args.push_back(env[id]);
      PJRTX_ASSIGN_OR_RETURN(std::vector<TensorValue> out,
                             Call(inst.attributes.callee, args, {}));
      io.SetValues(std::move(out));
      return absl::OkStatus();
    }
    default:
      return NoKernel(inst);
  }
}

absl::Status Interpreter::ExecuteCollective(const Instruction& inst,
                                            std::vector<TensorValue>& env) {
  if (collectives_ == nullptr) return NotInLaunch(inst);
  if (inst.opcode == OpCode::kReplicaId ||
      inst.opcode == OpCode::kPartitionId) {
    const int64_t process = collectives_->process();
    const int64_t partitions = collectives_->num_partitions();
    InstructionValues io(inst, env);
    Literal id(io.result_shape(0));
    id.SetInt(0, inst.opcode == OpCode::kReplicaId ? process / partitions
                                                   : process % partitions);
    io.Set(0, std::move(id));
    return absl::OkStatus();
  }
  // ir::IsExchangeOp: started and finished at once; RunInstructions
  // overlaps them.
  PJRTX_ASSIGN_OR_RETURN(std::unique_ptr<StartedCollective> started,
                         StartCollective(inst, Values(env, inst.operands),
                                         *collectives_, sequence_));
  return FinishCollective(inst, *started, env);
}

absl::Status Interpreter::ExecuteFusedElementwise(
    const Instruction& inst, std::vector<TensorValue>& env) {
  // Results go straight into bound caller memory where they may (see
  // BoundMemory); operands are read where they are.
  absl::InlinedVector<Literal, 4> fresh(inst.results.size());
  absl::InlinedVector<Literal*, 4> outputs;
  // Each element of the results is written after that element of every
  // operand has been read (the fused loops read a block or tile of all
  // operands before writing it to any result), so a result may take over a
  // donated operand's memory: Adam's update writes the new parameters and
  // moments over the old. Not with several results where one passes an
  // operand through: it would be read from memory another result may
  // already have overwritten.
  const ir::FusedBody& body = inst.attributes.fused;
  bool elementwise = true;
  if (inst.results.size() > 1) {
    for (int r : body.outputs) elementwise &= r >= body.num_inputs;
  }
  for (size_t i = 0; i < inst.results.size(); ++i) {
    const Literal* bound = BoundMemory(inst.results[i], env, elementwise);
    if (bound == nullptr) {
      fresh[i] = Literal::ForOverwrite(inst.result_types[i].shape);
    }
    outputs.push_back(bound != nullptr ? const_cast<Literal*>(bound)
                                       : &fresh[i]);
  }
  absl::InlinedVector<const Literal*, 8> inputs;
  for (int id : inst.operands) inputs.push_back(&env[id].tensor);
  PJRTX_RETURN_IF_ERROR(RunFusedElementwise(body, inputs, outputs));
  for (size_t i = 0; i < inst.results.size(); ++i) {
    env[inst.results[i]] = TensorValue::Tensor(
        outputs[i] == &fresh[i] ? std::move(fresh[i]) : *outputs[i]);
  }
  return absl::OkStatus();
}

}  // namespace pjrtx::cpu
