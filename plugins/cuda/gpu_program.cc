#include "plugins/cuda/gpu_program.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "compiler_stub/compiler.h"
#include "compiler_stub/ptx/elementwise_fusion.h"
#include "compiler_stub/ptx/instruction_kernels.h"
#include "compiler_stub/ptx/ptx_emitter.h"
#include "plugins/common/program_signature.h"
#include "plugins/cuda/cuda_status.h"
#include "plugins/cuda/issue_scope.h"
#include "plugins/cuda/staged_copies.h"
#include "runtime/core/base/status_macros.h"

namespace cuda_plugin {
namespace {

using pjrtx::ir::Computation;
using pjrtx::ir::Instruction;
using pjrtx::ir::OpCode;

constexpr unsigned kThreadsPerBlock = 256;

// One step of a run, over the computation's value numbers.
struct Step {
  enum class Kind { kKernel, kAlias } kind = Kind::kKernel;
  int kernel = -1;  // kKernel: index into the program's kernels.
  int source = -1;  // kAlias: the value whose memory the result reuses.
  int result = -1;  // kAlias.
};

struct Kernel {
  std::string name;
  std::vector<int> inputs;   // Values.
  std::vector<int> outputs;  // Values.
  std::vector<size_t> output_bytes;
  uint64_t elements = 0;
  std::string ptx;
};

// A kernel loaded on one GPU.
struct LoadedModule {
  CUmodule module = nullptr;
  CUfunction function = nullptr;
};

struct PerGpu {
  std::vector<LoadedModule> kernels;
  // Constants uploaded once, by value number.
  std::vector<std::pair<int, CUdeviceptr>> constants;
};

class GpuProgram : public pjrtx::DeviceProgram {
 public:
  GpuProgram(const DriverApi& api, std::vector<Gpu*> gpus,
             const Computation& entry, std::vector<Kernel> kernels,
             std::vector<Step> steps)
      : api_(api),
        gpus_(std::move(gpus)),
        kernels_(std::move(kernels)),
        steps_(std::move(steps)),
        parameters_(entry.parameters),
        results_(entry.results),
        num_values_(entry.num_values),
        per_gpu_(gpus_.size()) {
    for (const pjrtx::ir::ValueType& type : entry.result_types) {
      result_bytes_.push_back(type.shape.size_bytes());
    }
  }

  ~GpuProgram() override {
    for (size_t g = 0; g < gpus_.size(); ++g) {
      if (!gpus_[g]->MakeCurrent().ok()) continue;
      for (LoadedModule& loaded : per_gpu_[g].kernels) {
        if (loaded.module != nullptr) api_.cuModuleUnload(loaded.module);
      }
      for (auto& [value, pointer] : per_gpu_[g].constants) {
        api_.cuMemFreeAsync(pointer, gpus_[g]->stream(StreamKind::kCompute));
      }
    }
  }

  // Loads every kernel on every GPU; the driver reports PTX errors in its
  // log, which the error carries.
  absl::Status Load() {
    for (size_t g = 0; g < gpus_.size(); ++g) {
      PJRTX_RETURN_IF_ERROR(gpus_[g]->MakeCurrent());
      for (const Kernel& kernel : kernels_) {
        LoadedModule loaded;
        char log[4096] = {};
        CUjit_option keys[] = {CU_JIT_ERROR_LOG_BUFFER,
                               CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
        void* values[] = {log, reinterpret_cast<void*>(sizeof(log) - 1)};
        const CUresult result = api_.cuModuleLoadDataEx(
            &loaded.module, kernel.ptx.c_str(), 2, keys, values);
        if (result != CUDA_SUCCESS) {
          return absl::Status(
              CudaStatus(api_, result, "cuModuleLoadDataEx").code(),
              absl::StrCat("loading kernel ", kernel.name, " on GPU ", g, ": ",
                           ErrorText(api_, result),
                           log[0] != '\0' ? absl::StrCat(": ", log) : ""));
        }
        per_gpu_[g].kernels.push_back(loaded);
        PJRTX_CUDA_RETURN_IF_ERROR(
            api_, cuModuleGetFunction(&per_gpu_[g].kernels.back().function,
                                      loaded.module, kernel.name.c_str()));
      }
    }
    return absl::OkStatus();
  }

  // Uploads `bytes` as the constant `value` on every GPU, on its compute
  // stream, where every run reads it later.
  absl::Status AddConstant(int value, const std::vector<uint8_t>& bytes,
                           PinnedStagingPool& staging,
                           CompletionThread& completions) {
    for (size_t g = 0; g < gpus_.size(); ++g) {
      Gpu& gpu = *gpus_[g];
      PJRTX_RETURN_IF_ERROR(gpu.MakeCurrent());
      const CUstream compute = gpu.stream(StreamKind::kCompute);
      CUdeviceptr pointer = 0;
      PJRTX_CUDA_RETURN_IF_ERROR(
          api_,
          cuMemAllocFromPoolAsync(&pointer, std::max<size_t>(bytes.size(), 1),
                                  gpu.pool(), compute));
      per_gpu_[g].constants.emplace_back(value, pointer);
      IssueScope scope(gpu, compute, completions, NewPrivateLane());
      PJRTX_RETURN_IF_ERROR(StagedUpload(scope, staging, compute, pointer,
                                         bytes.data(), bytes.size()));
    }
    return absl::OkStatus();
  }

  absl::Status Run(const pjrtx::RunContext& context,
                   absl::Span<const pjrtx::DeviceAddress> arguments,
                   absl::Span<const pjrtx::DeviceAddress> outputs) override {
    IssueScope* scope = IssueScope::Current();
    if (scope == nullptr || &scope->gpu() != gpus_[context.device]) {
      return absl::FailedPreconditionError(
          "a CUDA program runs only from its device's queue");
    }
    PJRTX_ASSIGN_OR_RETURN(CUstream stream, scope->Use(StreamKind::kCompute));
    const PerGpu& gpu = per_gpu_[context.device];
    std::vector<CUdeviceptr> address(num_values_, 0);
    for (size_t i = 0; i < parameters_.size(); ++i) {
      address[parameters_[i]] = static_cast<CUdeviceptr>(arguments[i].value);
    }
    for (const auto& [value, pointer] : gpu.constants) address[value] = pointer;
    // A kernel writes a result straight into the output it becomes.
    std::vector<CUdeviceptr> output_of(num_values_, 0);
    for (size_t j = 0; j < results_.size(); ++j) {
      if (output_of[results_[j]] == 0) {
        output_of[results_[j]] = static_cast<CUdeviceptr>(outputs[j].value);
      }
    }
    std::vector<CUdeviceptr> temporaries;
    absl::Status status =
        RunSteps(*scope, stream, gpu, output_of, address, temporaries);
    // Results the steps did not write in place: arguments, constants,
    // aliases, a value returned twice.
    for (size_t j = 0; j < results_.size() && status.ok(); ++j) {
      const CUdeviceptr out = static_cast<CUdeviceptr>(outputs[j].value);
      const CUdeviceptr from = address[results_[j]];
      if (result_bytes_[j] == 0 || from == out) continue;
      status = CudaStatus(
          api_, api_.cuMemcpyDtoDAsync(out, from, result_bytes_[j], stream),
          "cuMemcpyDtoDAsync");
    }
    // Stream-ordered: the memory returns to the pool after the kernels
    // reading it.
    for (CUdeviceptr pointer : temporaries) {
      api_.cuMemFreeAsync(pointer, stream);
    }
    return status;
  }

 private:
  absl::Status RunSteps(IssueScope& scope, CUstream stream, const PerGpu& gpu,
                        const std::vector<CUdeviceptr>& output_of,
                        std::vector<CUdeviceptr>& address,
                        std::vector<CUdeviceptr>& temporaries) {
    std::vector<CUdeviceptr> params;
    std::vector<void*> param_pointers;
    for (const Step& step : steps_) {
      if (step.kind == Step::Kind::kAlias) {
        address[step.result] = address[step.source];
        continue;
      }
      const Kernel& kernel = kernels_[step.kernel];
      for (size_t o = 0; o < kernel.outputs.size(); ++o) {
        const int value = kernel.outputs[o];
        if (output_of[value] != 0) {
          address[value] = output_of[value];
          continue;
        }
        CUdeviceptr pointer = 0;
        PJRTX_CUDA_RETURN_IF_ERROR(
            api_, cuMemAllocFromPoolAsync(
                      &pointer, std::max<size_t>(kernel.output_bytes[o], 1),
                      scope.gpu().pool(), stream));
        temporaries.push_back(pointer);
        address[value] = pointer;
      }
      if (kernel.elements == 0) continue;
      params.clear();
      for (int value : kernel.inputs) params.push_back(address[value]);
      for (int value : kernel.outputs) params.push_back(address[value]);
      uint64_t elements = kernel.elements;
      param_pointers.clear();
      for (CUdeviceptr& param : params) param_pointers.push_back(&param);
      param_pointers.push_back(&elements);
      // Enough blocks to fill the GPU a few times over; the kernels stride
      // by the grid, so any count computes every element.
      const uint64_t wanted =
          (kernel.elements + kThreadsPerBlock - 1) / kThreadsPerBlock;
      const unsigned blocks = static_cast<unsigned>(std::min<uint64_t>(
          wanted,
          uint64_t{32} * static_cast<uint64_t>(scope.gpu().info().sm_count)));
      PJRTX_CUDA_RETURN_IF_ERROR(
          api_, cuLaunchKernel(gpu.kernels[step.kernel].function, blocks, 1, 1,
                               kThreadsPerBlock, 1, 1, 0, stream,
                               param_pointers.data(), nullptr));
    }
    return absl::OkStatus();
  }

  const DriverApi& api_;
  std::vector<Gpu*> gpus_;
  std::vector<Kernel> kernels_;
  std::vector<Step> steps_;
  std::vector<int> parameters_;
  std::vector<int> results_;
  std::vector<size_t> result_bytes_;
  int num_values_ = 0;
  std::vector<PerGpu> per_gpu_;
};

// `why` is the kernel generator's own message, which says what about the
// instruction (op, type, region) it cannot generate.
absl::Status Unsupported(absl::string_view why) {
  return absl::UnimplementedError(
      absl::StrCat("the CUDA plugin cannot run this program yet: ", why));
}

}  // namespace

absl::StatusOr<pjrtx::CompiledProgram> CompileGpuProgram(
    const DriverApi& api, const std::vector<Gpu*>& gpus,
    PinnedStagingPool& staging, CompletionThread& completions,
    std::string_view format, std::string_view code,
    const pjrtx::ProgramOptions& options) {
  if (format != "mlir") {
    return absl::InvalidArgumentError(
        absl::StrCat("Unknown program format '", std::string(format),
                     "'; this plugin compiles format 'mlir' (StableHLO text)"));
  }
  pjrtx::compiler::CompileOptions compile_options;
  compile_options.entry = options.entry;
  compile_options.checks_as_outputs = options.checks_as_outputs;
  // Without fusion nothing would become a kernel.
  compile_options.fusion = true;
  compile_options.num_replicas = options.num_replicas;
  compile_options.num_partitions = options.num_partitions;
  PJRTX_ASSIGN_OR_RETURN(pjrtx::ir::Program program,
                         pjrtx::compiler::Compile(code, compile_options));
  if (program.has_collectives) {
    return absl::UnimplementedError(
        "programs with collectives are not supported by the CUDA plugin yet");
  }
  const Computation& entry = program.computations[program.entry];
  pjrtx::CompiledProgram compiled;
  compiled.name = entry.name;
  PJRTX_ASSIGN_OR_RETURN(compiled.inputs,
                         pjrtx::Signatures(entry.parameter_types, "argument"));
  PJRTX_ASSIGN_OR_RETURN(compiled.outputs,
                         pjrtx::Signatures(entry.result_types, "result"));

  int sm = 1000;
  for (const Gpu* gpu : gpus) {
    sm = std::min(sm,
                  gpu->info().compute_major * 10 + gpu->info().compute_minor);
  }
  const std::vector<pjrtx::ptx::FusedKernel> fused =
      pjrtx::ptx::FindElementwiseFusions(program, program.entry);
  // The fused kernel of each kFusedElementwise instruction, in order.
  std::vector<int> fused_of(entry.instructions.size(), -1);
  int fused_count = 0;
  for (size_t i = 0; i < entry.instructions.size(); ++i) {
    if (entry.instructions[i].opcode == OpCode::kFusedElementwise) {
      fused_of[i] = fused_count++;
    }
  }
  if (static_cast<size_t>(fused_count) != fused.size()) {
    return absl::InternalError(
        absl::StrCat("elementwise fusion made ", fused.size(), " kernels for ",
                     fused_count, " fused instructions"));
  }

  // Live instructions only: splat broadcasts that kernels read as scalars
  // are left behind by fusion, unused. A kernel reads what its inputs
  // name (a broadcast's scalar operand, not the broadcast).
  std::vector<bool> needed(entry.num_values, false);
  for (int value : entry.results) needed[value] = true;
  std::vector<bool> live(entry.instructions.size(), false);
  for (size_t i = entry.instructions.size(); i-- > 0;) {
    const Instruction& instruction = entry.instructions[i];
    for (int result : instruction.results) live[i] = live[i] || needed[result];
    if (!live[i]) continue;
    if (fused_of[i] >= 0) {
      for (const pjrtx::ptx::FusedInput& input : fused[fused_of[i]].inputs) {
        needed[input.value] = true;
      }
    } else {
      for (int operand : instruction.operands) needed[operand] = true;
    }
  }

  std::vector<Kernel> kernels;
  std::vector<Step> steps;
  std::vector<std::pair<int, const std::vector<uint8_t>*>> constants;
  for (size_t i = 0; i < entry.instructions.size(); ++i) {
    const Instruction& instruction = entry.instructions[i];
    if (!live[i]) continue;
    switch (instruction.opcode) {
      case OpCode::kConstant:
        constants.emplace_back(instruction.results[0],
                               &instruction.attributes.constant);
        break;
      case OpCode::kReshape:
        steps.push_back(Step{Step::Kind::kAlias, -1, instruction.operands[0],
                             instruction.results[0]});
        break;
      case OpCode::kFusedElementwise: {
        const pjrtx::ptx::FusedKernel& source = fused[fused_of[i]];
        Kernel kernel;
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
                               pjrtx::ptx::EmitPtx(source, {.sm = sm}));
        steps.push_back(Step{Step::Kind::kKernel,
                             static_cast<int>(kernels.size()), -1, -1});
        kernels.push_back(std::move(kernel));
        break;
      }
      default: {
        // Any other op as a kernel of its own, when one can be generated.
        absl::StatusOr<pjrtx::ptx::InstructionKernel> generated =
            pjrtx::ptx::EmitInstructionKernel(
                program, entry, instruction, absl::StrCat(entry.name, "_op", i),
                {.sm = sm});
        if (!generated.ok()) {
          if (absl::IsUnimplemented(generated.status())) {
            return Unsupported(generated.status().message());
          }
          return generated.status();
        }
        Kernel kernel;
        kernel.name = generated->name;
        kernel.inputs = generated->inputs;
        kernel.outputs = generated->outputs;
        for (int value : kernel.outputs) {
          const auto result = std::find(instruction.results.begin(),
                                        instruction.results.end(), value);
          if (result == instruction.results.end()) {
            return absl::InternalError(absl::StrCat(
                "the kernel of ", instruction.name, " writes value ", value,
                ", which is not one of its results"));
          }
          kernel.output_bytes.push_back(
              instruction.result_types[result - instruction.results.begin()]
                  .shape.size_bytes());
        }
        kernel.elements = generated->threads;
        kernel.ptx = std::move(generated->ptx);
        steps.push_back(Step{Step::Kind::kKernel,
                             static_cast<int>(kernels.size()), -1, -1});
        kernels.push_back(std::move(kernel));
        break;
      }
    }
  }
  auto gpu_program = std::make_unique<GpuProgram>(
      api, gpus, entry, std::move(kernels), std::move(steps));
  PJRTX_RETURN_IF_ERROR(gpu_program->Load());
  for (const auto& [value, bytes] : constants) {
    PJRTX_RETURN_IF_ERROR(
        gpu_program->AddConstant(value, *bytes, staging, completions));
  }
  compiled.program = std::move(gpu_program);
  return compiled;
}

}  // namespace cuda_plugin
