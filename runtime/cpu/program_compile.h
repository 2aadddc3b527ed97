// The compile step every compiling plugin starts with: checks the program
// format, compiles StableHLO with the caller's options and describes the
// result as the runtime sees it (name, signatures, launch shape). What the
// plugin then makes of the program is its own.
#ifndef PJRTX_RUNTIME_CPU_PROGRAM_COMPILE_H_
#define PJRTX_RUNTIME_CPU_PROGRAM_COMPILE_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "compiler_stub/ir/program.h"
#include "runtime/core/base/driver.h"

namespace pjrtx::cpu {

struct CompiledStableHlo {
  ir::Program program;
  // Everything but `program`, which the plugin sets.
  CompiledProgram compiled;
};

// INVALID_ARGUMENT "Unknown program format '<format>'" for a format other
// than "mlir"; the compiler's errors as they are. `force_fusion` compiles
// with fusion whatever `options` say (a target that runs fused groups
// only).
absl::StatusOr<CompiledStableHlo> CompileStableHlo(
    std::string_view format, std::string_view code,
    const ProgramOptions& options, bool force_fusion = false);

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_PROGRAM_COMPILE_H_
