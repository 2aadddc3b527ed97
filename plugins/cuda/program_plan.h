// How the CUDA plugin runs a StableHLO program: every computation the entry
// reaches (the entry itself, the regions of while, if and case, and the
// functions that call runs) becomes a block of steps over that
// computation's own value numbers, and each step launches a PTX kernel,
// aliases memory, or passes control to other blocks. Planning generates the
// kernels (compiler_stub/ptx); GpuProgram loads them and runs the blocks.
#ifndef PJRTX_PLUGINS_CUDA_PROGRAM_PLAN_H_
#define PJRTX_PLUGINS_CUDA_PROGRAM_PLAN_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler_stub/ir/program.h"

namespace cuda_plugin {

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
    kAlias,   // results[i] is operands[i]'s memory (reshape, barriers).
    kWhile,   // blocks: cond, body; operands: the initial loop state;
              // results: the state once cond is false.
    kIf,      // operands: the i1 predicate; blocks: then, else.
    kCase,    // operands: the si32 index; blocks: the branches (an index
              // out of range runs the last, as the spec says).
    kCall,    // operands: the arguments; blocks: the callee.
  };
  Kind kind = Kind::kKernel;
  int kernel = -1;  // kKernel: index into ProgramPlan::kernels.
  std::vector<int> operands;
  std::vector<int> results;
  std::vector<int> blocks;  // Indices into ProgramPlan::blocks.
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
  // Constant values in the literal storage layout; they point into the
  // program planned, which must outlive their use.
  std::vector<const std::vector<uint8_t>*> constants;
};

// Plans `program` (compiled with fusion) for GPUs of compute capability
// `sm` (major * 10 + minor). Only live instructions get steps. Errors:
// UNIMPLEMENTED "the CUDA plugin cannot run this program yet: L:C: <op>
// ..." for an instruction no kernel generator supports, control flow over
// tuples or tokens, and recursive calls; the kernel generators' other
// errors as they are.
absl::StatusOr<ProgramPlan> PlanProgram(const pjrtx::ir::Program& program,
                                        int sm);

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_PROGRAM_PLAN_H_
