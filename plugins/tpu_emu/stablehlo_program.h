// StableHLO programs on emulated chips: compiled by the compiler stub, run
// by the CPU engine directly on chip memory (host memory here).
#ifndef PJRTX_PLUGINS_TPU_EMU_STABLEHLO_PROGRAM_H_
#define PJRTX_PLUGINS_TPU_EMU_STABLEHLO_PROGRAM_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "runtime/core/base/driver.h"

namespace tpu_emu {

// Compiles `code` (format "mlir") into a program whose inputs and outputs
// are the entry function's tensors.
// `tpu_precision`: f32 dots run as one bf16 pass (matmul_precision=tpu).
absl::StatusOr<pjrtx::CompiledProgram> CompileStableHlo(
    std::string_view format, std::string_view code,
    const pjrtx::ProgramOptions& options, bool tpu_precision);

}  // namespace tpu_emu

#endif  // PJRTX_PLUGINS_TPU_EMU_STABLEHLO_PROGRAM_H_
