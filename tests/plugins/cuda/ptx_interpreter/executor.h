// Runs a decoded kernel over a grid, one thread after the other.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_EXECUTOR_H_
#define PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_EXECUTOR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tests/plugins/cuda/ptx_interpreter/program.h"
#include "tests/plugins/cuda/ptx_interpreter/ptx_interpreter.h"

namespace fake_cuda::ptx {

// What one thread may execute before the launch fails as an endless loop:
// room for a grid-stride loop over ~10M elements of a long fused chain in
// a single thread, and still an error within seconds of running away.
inline constexpr uint64_t kDefaultInstructionBudget = uint64_t{1} << 31;

// PtxKernel::Run with a per-thread instruction budget.
bool Execute(const KernelProgram& kernel, Dim3 grid, Dim3 block,
             const std::vector<std::vector<uint8_t>>& params,
             const AddressTranslator& translate, uint64_t instruction_budget,
             std::string* error);

}  // namespace fake_cuda::ptx

#endif  // PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_EXECUTOR_H_
