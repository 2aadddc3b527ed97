#include "compiler_stub/ptx/program_plan.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "compiler_stub/mlir/location_text.h"
#include "compiler_stub/ptx/elementwise_fusion.h"
#include "compiler_stub/ptx/instruction_kernels.h"
#include "compiler_stub/ptx/ptx_emitter.h"
#include "compiler_stub/ptx/ptx_target.h"
#include "support/status_macros.h"

namespace pjrtx::ptx {
namespace {

using ir::BinaryOp;
using ir::Computation;
using ir::Instruction;
using ir::OpCode;
using ir::Program;
using ir::ValueType;

// `why` says what about the instruction (op, type, region) the plugin
// cannot run; the kernel generators' own messages say it the same way.
absl::Status Unsupported(absl::string_view why) {
  return absl::UnimplementedError(
      absl::StrCat("the CUDA plugin cannot run this program yet: ", why));
}

// "L:C: stablehlo.while".
std::string Where(const Instruction& instruction) {
  return absl::StrCat(mlir::LocationText(instruction.location), ": ",
                      instruction.name);
}

bool AllTensors(const std::vector<ValueType>& types) {
  return std::all_of(types.begin(), types.end(), [](const ValueType& t) {
    return t.kind == ValueType::Kind::kTensor;
  });
}

class Planner {
 public:
  Planner(const Program& program, int sm, const MatmulFilter& library_matmul)
      : program_(program), sm_(sm), library_matmul_(library_matmul) {
    block_of_.assign(program.computations.size(), kUnplanned);
  }

  // The block of computation `c`, planned on first use: a function called
  // from several places has one block.
  absl::StatusOr<int> BlockOf(int c) {
    if (block_of_[c] == kPlanning) {
      return Unsupported(absl::StrCat("@", program_.computations[c].name,
                                      " calls itself; recursion is not "
                                      "supported"));
    }
    if (block_of_[c] != kUnplanned) return block_of_[c];
    block_of_[c] = kPlanning;
    // Planned before it is stored: planning its regions adds blocks.
    const int index = static_cast<int>(plan_.blocks.size());
    plan_.blocks.emplace_back();
    PJRTX_ASSIGN_OR_RETURN(Block block, Plan(c));
    plan_.blocks[index] = std::move(block);
    block_of_[c] = index;
    return index;
  }

  ProgramPlan Take() { return std::move(plan_); }

 private:
  static constexpr int kUnplanned = -1;
  static constexpr int kPlanning = -2;

  // The elements of each tuple made in a computation: tuples exist only
  // while planning.
  using Tuples = std::map<int, std::vector<int>>;

  absl::StatusOr<Block> Plan(int c) {
    const Computation& computation = program_.computations[c];
    Block block = EmptyBlock(computation);
    // Names for profilers and errors: a region's instruction kernels carry
    // its index too, as regions share names ("stablehlo.while body"). Each
    // kernel is a module of its own, so names need not be unique.
    const std::string prefix =
        c == program_.entry
            ? pjrtx::ptx::Identifier(computation.name)
            : absl::StrCat(pjrtx::ptx::Identifier(computation.name), "_", c);
    const std::vector<pjrtx::ptx::FusedKernel> fused =
        pjrtx::ptx::FindElementwiseFusions(program_, c);
    PJRTX_ASSIGN_OR_RETURN(const std::vector<int> fused_of,
                           FusedKernelOf(computation, fused));
    const std::vector<bool> live =
        LiveInstructions(computation, fused, fused_of);
    Tuples tuples;
    for (size_t i = 0; i < computation.instructions.size(); ++i) {
      if (!live[i]) continue;
      PJRTX_RETURN_IF_ERROR(PlanInstruction(
          computation, i, prefix,
          fused_of[i] >= 0 ? &fused[fused_of[i]] : nullptr, tuples, block));
    }
    return block;
  }

  // A block of `computation`'s values, without steps yet.
  static Block EmptyBlock(const Computation& computation) {
    Block block;
    block.name = computation.name;
    block.num_values = computation.num_values;
    block.parameters = computation.parameters;
    block.captures = computation.captures;
    block.capture_parameters = computation.capture_parameters;
    block.results = computation.results;
    for (const ValueType& type : computation.result_types) {
      block.result_bytes.push_back(type.shape.size_bytes());
    }
    return block;
  }

  // The index into `fused` of each kFusedElementwise instruction's kernel
  // (they come in order), -1 for the other instructions.
  static absl::StatusOr<std::vector<int>> FusedKernelOf(
      const Computation& computation,
      const std::vector<pjrtx::ptx::FusedKernel>& fused) {
    std::vector<int> fused_of(computation.instructions.size(), -1);
    int fused_count = 0;
    for (size_t i = 0; i < computation.instructions.size(); ++i) {
      if (computation.instructions[i].opcode == OpCode::kFusedElementwise) {
        fused_of[i] = fused_count++;
      }
    }
    if (static_cast<size_t>(fused_count) != fused.size()) {
      return absl::InternalError(absl::StrCat(
          "elementwise fusion made ", fused.size(), " kernels for ",
          fused_count, " fused instructions in ", computation.name));
    }
    return fused_of;
  }

  // Live instructions only: splat broadcasts that kernels read as scalars
  // are left behind by fusion, unused. A kernel reads what its inputs name
  // (a broadcast's scalar operand, not the broadcast); a control flow op
  // also reads what its regions capture. Exchanges live whatever reads
  // them: the launch's other runs wait for them (a send whose token nobody
  // uses still sends).
  std::vector<bool> LiveInstructions(
      const Computation& computation,
      const std::vector<pjrtx::ptx::FusedKernel>& fused,
      const std::vector<int>& fused_of) const {
    std::vector<bool> needed(computation.num_values, false);
    for (int value : computation.results) needed[value] = true;
    std::vector<bool> live(computation.instructions.size(), false);
    for (size_t i = computation.instructions.size(); i-- > 0;) {
      const Instruction& instruction = computation.instructions[i];
      live[i] = ir::IsExchangeOp(instruction.opcode);
      for (int result : instruction.results) {
        live[i] = live[i] || needed[result];
      }
      if (!live[i]) continue;
      if (fused_of[i] >= 0) {
        for (const pjrtx::ptx::FusedInput& input : fused[fused_of[i]].inputs) {
          needed[input.value] = true;
        }
        continue;
      }
      for (int operand : instruction.operands) needed[operand] = true;
      for (int region : instruction.regions) {
        for (int value : program_.computations[region].captures) {
          needed[value] = true;
        }
      }
    }
    return live;
  }

  // The steps of live instruction `i` of `computation`, added to `block`;
  // `fused`: its kernel if it is a kFusedElementwise. Kernels of their own
  // are named `prefix`_op`i`.
  absl::Status PlanInstruction(const Computation& computation, size_t i,
                               const std::string& prefix,
                               const pjrtx::ptx::FusedKernel* fused,
                               Tuples& tuples, Block& block) {
    const Instruction& instruction = computation.instructions[i];
    switch (instruction.opcode) {
      case OpCode::kConstant:
        block.constants.emplace_back(instruction.results[0],
                                     static_cast<int>(plan_.constants.size()));
        plan_.constants.push_back(&instruction.attributes.constant);
        return absl::OkStatus();
      case OpCode::kTuple:
        // An element taken back out is an alias of the value put in.
        tuples[instruction.results[0]] = instruction.operands;
        return absl::OkStatus();
      case OpCode::kGetTupleElement:
        return PlanTupleElement(instruction, tuples, block);
      case OpCode::kBitcastConvert:
        // Element types of whole bytes keep their bytes (little-endian,
        // row-major): an alias. Bits of i1 join or split in a kernel.
        if (ir::BitWidth(instruction.operand_types[0].shape.type) % 8 != 0 ||
            ir::BitWidth(instruction.result_types[0].shape.type) % 8 != 0) {
          PJRTX_ASSIGN_OR_RETURN(
              Step step, AddInstructionKernel(computation, instruction,
                                              absl::StrCat(prefix, "_op", i)));
          block.steps.push_back(std::move(step));
          return absl::OkStatus();
        }
        [[fallthrough]];
      case OpCode::kReshape:
      case OpCode::kOptimizationBarrier:
        if (!AllTensors(instruction.operand_types)) {
          return Unsupported(
              absl::StrCat(Where(instruction), " on tuples or tokens"));
        }
        block.steps.push_back(
            AliasStep(instruction.operands, instruction.results));
        return absl::OkStatus();
      case OpCode::kFusedElementwise: {
        PJRTX_ASSIGN_OR_RETURN(Step step, AddFusedKernel(*fused));
        block.steps.push_back(std::move(step));
        return absl::OkStatus();
      }
      case OpCode::kAfterAll:
        // A token: it orders send and recv, which run in program order
        // anyway, and has no memory.
        return absl::OkStatus();
      case OpCode::kWhile:
      case OpCode::kIf:
      case OpCode::kCase:
      case OpCode::kCall: {
        PJRTX_ASSIGN_OR_RETURN(Step step, ControlFlow(instruction));
        block.steps.push_back(std::move(step));
        return absl::OkStatus();
      }
      default:
        break;
    }
    if (ir::IsCollectiveOp(instruction.opcode)) {
      PJRTX_ASSIGN_OR_RETURN(Step step, Collective(instruction));
      block.steps.push_back(std::move(step));
      return absl::OkStatus();
    }
    PJRTX_ASSIGN_OR_RETURN(std::optional<Step> matmul,
                           PlanLibraryMatmul(instruction, block));
    if (matmul.has_value()) {
      block.steps.push_back(*std::move(matmul));
      return absl::OkStatus();
    }
    PJRTX_ASSIGN_OR_RETURN(
        Step step, AddInstructionKernel(computation, instruction,
                                        absl::StrCat(prefix, "_op", i)));
    block.steps.push_back(std::move(step));
    return absl::OkStatus();
  }

  // get_tuple_element of a tuple made in the same computation: the
  // element's alias, or, for a tuple element, the inner tuple's elements.
  static absl::Status PlanTupleElement(const Instruction& instruction,
                                       Tuples& tuples, Block& block) {
    auto tuple = tuples.find(instruction.operands[0]);
    if (tuple == tuples.end()) {
      return Unsupported(absl::StrCat(
          Where(instruction), " of a tuple made outside its computation"));
    }
    const int element =
        tuple->second[static_cast<size_t>(instruction.attributes.dimension)];
    if (instruction.result_types[0].kind == ValueType::Kind::kTuple) {
      auto inner = tuples.find(element);
      if (inner == tuples.end()) {
        return Unsupported(absl::StrCat(
            Where(instruction), " of a tuple made outside its computation"));
      }
      tuples[instruction.results[0]] = inner->second;
      return absl::OkStatus();
    }
    block.steps.push_back(AliasStep({element}, instruction.results));
    return absl::OkStatus();
  }

  // results[i] is operands[i]'s memory.
  static Step AliasStep(std::vector<int> operands, std::vector<int> results) {
    Step step;
    step.kind = Step::Kind::kAlias;
    step.operands = std::move(operands);
    step.results = std::move(results);
    return step;
  }

  // A collective, run on the host (gpu_program.cc): the CPU engine's
  // implementation on the operands read back, its results uploaded.
  absl::StatusOr<Step> Collective(const Instruction& instruction) {
    // Tokens (send and recv order themselves by them) have no memory.
    for (const std::vector<ValueType>* types :
         {&instruction.operand_types, &instruction.result_types}) {
      for (const ValueType& type : *types) {
        if (type.kind == ValueType::Kind::kTuple) {
          return Unsupported(absl::StrCat(Where(instruction), " on tuples"));
        }
      }
    }
    Step step;
    step.kind = Step::Kind::kCollective;
    step.operands = instruction.operands;
    step.results = instruction.results;
    step.where = Where(instruction);
    step.collective = std::make_shared<const Instruction>(instruction);
    if (!instruction.regions.empty()) {
      // The reduction body: one binary op of its two parameters (in either
      // order where the op commutes: `add %b, %a` sums as NCCL does).
      const Computation& body = program_.computations[instruction.regions[0]];
      const bool one_binary = body.instructions.size() == 1 &&
                              body.instructions[0].opcode == OpCode::kBinary;
      bool of_parameters = false;
      if (one_binary) {
        const std::vector<int>& operands = body.instructions[0].operands;
        const BinaryOp op = body.instructions[0].attributes.binary;
        const bool commutes =
            op == BinaryOp::kAdd || op == BinaryOp::kMultiply ||
            op == BinaryOp::kMaximum || op == BinaryOp::kMinimum ||
            op == BinaryOp::kAnd || op == BinaryOp::kOr || op == BinaryOp::kXor;
        of_parameters =
            operands == body.parameters ||
            (commutes && body.parameters.size() == 2 && operands.size() == 2 &&
             operands[0] == body.parameters[1] &&
             operands[1] == body.parameters[0]);
      }
      if (!one_binary || !of_parameters ||
          body.results != body.instructions[0].results) {
        return Unsupported(absl::StrCat(
            Where(instruction),
            " with a reduction body other than one binary op of its two "
            "parameters"));
      }
      step.combine = body.instructions[0].attributes.binary;
    }
    return step;
  }

  absl::StatusOr<Step> AddFusedKernel(const pjrtx::ptx::FusedKernel& source) {
    PlannedKernel kernel;
    kernel.name = source.name;
    for (const pjrtx::ptx::FusedInput& input : source.inputs) {
      kernel.inputs.push_back(input.value);
    }
    for (const pjrtx::ptx::FusedOutput& output : source.outputs) {
      kernel.outputs.push_back(output.value);
      kernel.output_bytes.push_back(output.shape.size_bytes());
    }
    kernel.elements = 1;
    for (int64_t dim : source.dims) {
      kernel.elements *= static_cast<uint64_t>(dim);
    }
    PJRTX_ASSIGN_OR_RETURN(kernel.ptx,
                           pjrtx::ptx::EmitPtx(source, {.sm = sm_}));
    return AddKernel(std::move(kernel));
  }

  // Any other op as a kernel of its own, when one can be generated.
  absl::StatusOr<Step> AddInstructionKernel(const Computation& computation,
                                            const Instruction& instruction,
                                            const std::string& name) {
    absl::StatusOr<pjrtx::ptx::InstructionKernel> generated =
        pjrtx::ptx::EmitInstructionKernel(program_, computation, instruction,
                                          name, {.sm = sm_});
    if (!generated.ok()) {
      if (absl::IsUnimplemented(generated.status())) {
        return Unsupported(generated.status().message());
      }
      return generated.status();
    }
    PlannedKernel kernel;
    kernel.name = generated->name;
    kernel.inputs = generated->inputs;
    kernel.outputs = generated->outputs;
    for (int value : kernel.outputs) {
      const auto result = std::find(instruction.results.begin(),
                                    instruction.results.end(), value);
      if (result == instruction.results.end()) {
        return absl::InternalError(
            absl::StrCat("the kernel of ", instruction.name, " writes value ",
                         value, ", which is not one of its results"));
      }
      kernel.output_bytes.push_back(
          instruction.result_types[result - instruction.results.begin()]
              .shape.size_bytes());
    }
    kernel.elements = generated->threads;
    kernel.ptx = std::move(generated->ptx);
    return AddKernel(std::move(kernel));
  }

  // A plain matmul the library accepts, as a step of `block`; nullopt for
  // every other instruction.
  absl::StatusOr<std::optional<Step>> PlanLibraryMatmul(
      const Instruction& instruction, Block& block) {
    if (!library_matmul_ || instruction.opcode != OpCode::kDotGeneral) {
      return std::nullopt;
    }
    std::optional<PlannedMatmul> matmul = AsPlainMatmul(instruction, sm_);
    if (!matmul.has_value()) return std::nullopt;
    PJRTX_ASSIGN_OR_RETURN(bool accepted, library_matmul_(*matmul));
    if (!accepted) return std::nullopt;
    if (matmul->lhs_type == ir::ElementType::kF8E4M3FN) {
      // The scale is a value of the block of its own, past the
      // computation's, bound to the plan's constant 1.0.
      matmul->scale = block.num_values++;
      block.constants.emplace_back(matmul->scale, UnitScale());
    }
    Step step;
    step.kind = Step::Kind::kMatmul;
    step.matmul = static_cast<int>(plan_.matmuls.size());
    step.operands = {matmul->lhs, matmul->rhs};
    step.results = {matmul->result};
    step.where = Where(instruction);
    plan_.matmuls.push_back(*std::move(matmul));
    return step;
  }

  // The index of the plan's constant f32 1.0, added on first use.
  int UnitScale() {
    if (unit_scale_ < 0) {
      constexpr float kOne = 1.0f;
      auto bytes = std::make_unique<std::vector<uint8_t>>(sizeof(kOne));
      std::memcpy(bytes->data(), &kOne, sizeof(kOne));
      unit_scale_ = static_cast<int>(plan_.constants.size());
      plan_.constants.push_back(bytes.get());
      plan_.own_constants.push_back(std::move(bytes));
    }
    return unit_scale_;
  }

  Step AddKernel(PlannedKernel kernel) {
    Step step;
    step.kind = Step::Kind::kKernel;
    step.kernel = static_cast<int>(plan_.kernels.size());
    plan_.kernels.push_back(std::move(kernel));
    return step;
  }

  // while, if, case and call: the regions (or the callee) as blocks.
  absl::StatusOr<Step> ControlFlow(const Instruction& instruction) {
    if (!AllTensors(instruction.operand_types) ||
        !AllTensors(instruction.result_types)) {
      return Unsupported(
          absl::StrCat(Where(instruction), " on tuples or tokens"));
    }
    Step step;
    step.operands = instruction.operands;
    step.results = instruction.results;
    step.where = Where(instruction);
    std::vector<int> computations = instruction.regions;
    switch (instruction.opcode) {
      case OpCode::kWhile:
        step.kind = Step::Kind::kWhile;
        break;
      case OpCode::kIf:
        step.kind = Step::Kind::kIf;
        break;
      case OpCode::kCase:
        step.kind = Step::Kind::kCase;
        break;
      default:
        step.kind = Step::Kind::kCall;
        computations = {instruction.attributes.callee};
        break;
    }
    for (int c : computations) {
      PJRTX_ASSIGN_OR_RETURN(int block, BlockOf(c));
      step.blocks.push_back(block);
    }
    return step;
  }

  const Program& program_;
  const int sm_;
  const MatmulFilter& library_matmul_;
  ProgramPlan plan_;
  int unit_scale_ = -1;  // Index into plan_.constants; -1 until needed.
  // Per computation: its block, kUnplanned or kPlanning.
  std::vector<int> block_of_;
};

}  // namespace

absl::StatusOr<ProgramPlan> PlanProgram(const Program& program, int sm,
                                        const MatmulFilter& library_matmul) {
  Planner planner(program, sm, library_matmul);
  PJRTX_ASSIGN_OR_RETURN(int entry, planner.BlockOf(program.entry));
  if (entry != 0) {
    return absl::InternalError("the entry computation's block is not first");
  }
  return planner.Take();
}

}  // namespace pjrtx::ptx
