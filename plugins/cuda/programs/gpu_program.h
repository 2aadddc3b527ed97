// StableHLO programs on the GPU: the compiler stub's verified program, its
// fused elementwise chains emitted as PTX (compiler_stub/ptx) for the
// lowest compute capability among the GPUs and loaded on each at compile
// time (the first load JITs, which must not land on the first run).
//
// A computation runs as a sequence of kernels on the compute stream
// (program_plan.h): fused elementwise chains, and one kernel per other
// instruction the PTX kernel generator supports
// (compiler_stub/ptx/instruction_kernels.h: data movement, reductions,
// dot_general, lone elementwise ops); constants are uploaded once, reshapes
// alias their operand. Plain matmuls (plain_matmul.h) that a library
// prepares (`prepare_matmul`: cuBLASLt, when it is there) run through it,
// on the same stream, instead of the dot_general kernel. while, if, case and
// call run their regions' (or callee's) kernels the same way; the predicate of
// a while or if and the index of a case are read back to the host, which picks
// what to issue next (each read counted as a device-to-host transfer).
// Collectives and the other ops are UNIMPLEMENTED at compile time, naming the
// op and its position.
#ifndef PJRTX_PLUGINS_CUDA_PROGRAMS_GPU_PROGRAM_H_
#define PJRTX_PLUGINS_CUDA_PROGRAMS_GPU_PROGRAM_H_

#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "plugins/cuda/device/gpu.h"
#include "plugins/cuda/driver_api/cuda_api.h"
#include "plugins/cuda/memory/pinned_staging_pool.h"
#include "plugins/cuda/programs/library_matmul.h"
#include "plugins/cuda/streams/completion_thread.h"
#include "runtime/core/base/driver.h"

namespace cuda_plugin {

// `gpus` are this process's, the first being topology device
// `first_device` (a run's RunContext::device indexes the topology).
absl::StatusOr<pjrtx::CompiledProgram> CompileGpuProgram(
    const DriverApi& api, const std::vector<Gpu*>& gpus, int first_device,
    PinnedStagingPool& staging, CompletionThread& completions,
    const PrepareLibraryMatmul& prepare_matmul, std::string_view format,
    std::string_view code, const pjrtx::ProgramOptions& options);

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_PROGRAMS_GPU_PROGRAM_H_
