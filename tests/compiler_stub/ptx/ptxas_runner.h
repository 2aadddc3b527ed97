// Runs NVIDIA's PTX assembler, where the CUDA toolkit is installed, to
// check that emitted modules are valid PTX for a target.
#ifndef PJRTX_TESTS_COMPILER_STUB_PTX_PTXAS_RUNNER_H_
#define PJRTX_TESTS_COMPILER_STUB_PTX_PTXAS_RUNNER_H_

#include <string>

namespace pjrtx::ptx::testing {

// The path of the first executable `ptxas` on PATH, or "" if there is none.
std::string FindPtxas();

struct PtxasResult {
  int exit_code = -1;  // 0: the module assembled.
  std::string log;     // ptxas's stdout and stderr.
};

// Writes `ptx` to a temporary file and assembles it for sm_<sm> with the
// ptxas at `ptxas`, discarding the machine code.
PtxasResult Assemble(const std::string& ptxas, const std::string& ptx, int sm);

}  // namespace pjrtx::ptx::testing

#endif  // PJRTX_TESTS_COMPILER_STUB_PTX_PTXAS_RUNNER_H_
