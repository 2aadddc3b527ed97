// How the CUDA plugin runs a StableHLO program: every computation the entry
// reaches (the entry itself, the regions of while, if and case, and the
// functions that call runs) becomes a block of steps over that
// computation's own value numbers, and each step launches a PTX kernel,
// runs a matrix multiplication through a library (cuBLASLt), aliases
// memory, or passes control to other blocks. Planning generates the
// kernels (compiler_stub/ptx); GpuProgram loads them and runs the blocks.
#ifndef PJRTX_COMPILER_STUB_PTX_PROGRAM_PLAN_H_
#define PJRTX_COMPILER_STUB_PTX_PROGRAM_PLAN_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler_stub/ir/program.h"
#include "compiler_stub/ptx/plain_matmul.h"

namespace pjrtx::ptx {

// A kernel with the compiler stub's parameters (in0..., out0..., n): the
// global addresses of `inputs`, then of `outputs`, then `elements`.
struct PlannedKernel {
  std::string name;          // The PTX entry.
  std::vector<int> inputs;   // Values of its block.
  std::vector<int> outputs;  // Values of its block.
  std::vector<size_t> output_bytes;
  uint64_t elements = 0;
  std::string ptx;
};

struct Step {
  enum class Kind {
    kKernel,  // Launches `kernel`.
    kMatmul,  // Runs ProgramPlan::matmuls[matmul] through the library.
    kAlias,   // results[i] is operands[i]'s memory (reshape, barriers).
    kWhile,   // blocks: cond, body; operands: the initial loop state;
              // results: the state once cond is false.
    kIf,      // operands: the i1 predicate; blocks: then, else.
    kCase,    // operands: the si32 index; blocks: the branches (an index
              // out of range runs the last, as the spec says).
    kCall,    // operands: the arguments; blocks: the callee.
    // A collective (an exchange with the launch's other processes, or
    // replica_id / partition_id), run on the host: its operands read back,
    // its results uploaded.
    kCollective,
  };
  Kind kind = Kind::kKernel;
  int kernel = -1;  // kKernel: index into ProgramPlan::kernels.
  int matmul = -1;  // kMatmul: index into ProgramPlan::matmuls.
  std::vector<int> operands;
  std::vector<int> results;
  std::vector<int> blocks;  // Indices into ProgramPlan::blocks.
  // kCollective: the instruction (a copy: the program is gone once
  // compiled) and the one binary op its reduction body applies, if any.
  std::shared_ptr<const ir::Instruction> collective;
  std::optional<ir::BinaryOp> combine;
  // "L:C: stablehlo.while": what errors of control flow at run time name.
  std::string where;
};

// One computation as steps over its value numbers; a run gives it an
// address table of its own.
struct Block {
  std::string name;  // The computation's.
  int num_values = 0;
  std::vector<int> parameters;
  // Values of the enclosing block a region reads (the step running the
  // region passes their addresses), and the values they are here.
  std::vector<int> captures;
  std::vector<int> capture_parameters;
  std::vector<int> results;
  std::vector<size_t> result_bytes;
  // (value, index into ProgramPlan::constants): uploaded once per GPU.
  std::vector<std::pair<int, int>> constants;
  std::vector<Step> steps;
};

struct ProgramPlan {
  std::vector<Block> blocks;  // blocks[0] is the entry computation's.
  std::vector<PlannedKernel> kernels;
  std::vector<PlannedMatmul> matmuls;
  // Constant values in the literal storage layout; they point into the
  // program planned, or into `own_constants` (values the planner adds,
  // such as FP8 scales), which must outlive their use.
  std::vector<const std::vector<uint8_t>*> constants;
  std::vector<std::unique_ptr<std::vector<uint8_t>>> own_constants;
};

// Asked about each plain matmul (plain_matmul.h) of a program: true when a
// library will run it (the matmul becomes a kMatmul step, the next entry
// of ProgramPlan::matmuls), false when it has no way to (it becomes a PTX
// kernel); an error fails the planning.
using MatmulFilter = std::function<absl::StatusOr<bool>(const PlannedMatmul&)>;

// Plans `program` (compiled with fusion) for GPUs of compute capability
// `sm` (major * 10 + minor). Plain matmuls that `library_matmul` (when
// set) accepts run through the library, every other instruction as a
// kernel. Only live instructions get steps. Errors:
// UNIMPLEMENTED "the CUDA plugin cannot run this program yet: L:C: <op>
// ..." for an instruction no kernel generator supports, control flow over
// tuples or tokens, and recursive calls; the kernel generators' other
// errors as they are.
absl::StatusOr<ProgramPlan> PlanProgram(const ir::Program& program, int sm,
                                        const MatmulFilter& library_matmul);

}  // namespace pjrtx::ptx

#endif  // PJRTX_COMPILER_STUB_PTX_PROGRAM_PLAN_H_
