#include "plugins/cuda/programs/gpu_program.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "compiler_stub/ptx/program_plan.h"
#include "plugins/cuda/driver_api/cuda_status.h"
#include "plugins/cuda/memory/host_readback.h"
#include "plugins/cuda/memory/staged_copies.h"
#include "plugins/cuda/streams/issue_scope.h"
#include "runtime/cpu/host_collective.h"
#include "runtime/cpu/program_compile.h"
#include "support/status_macros.h"

namespace cuda_plugin {
namespace {

using pjrtx::ptx::Block;
using pjrtx::ptx::MatmulFilter;
using pjrtx::ptx::PlannedKernel;
using pjrtx::ptx::PlannedMatmul;
using pjrtx::ptx::ProgramPlan;
using pjrtx::ptx::Step;

constexpr unsigned kThreadsPerBlock = 256;

// A kernel loaded on one GPU.
struct LoadedModule {
  CUmodule module = nullptr;
  CUfunction function = nullptr;
};

struct PerGpu {
  std::vector<LoadedModule> kernels;
  // Constants uploaded once, by index into ProgramPlan::constants.
  std::vector<CUdeviceptr> constants;
};

// `status` with `context` in front of its message, same code.
absl::Status WithContext(const absl::Status& status,
                         const std::string& context) {
  if (status.ok()) return status;
  return absl::Status(status.code(),
                      absl::StrCat(context, ": ", status.message()));
}

class GpuProgram : public pjrtx::DeviceProgram {
 public:
  GpuProgram(const DriverApi& api, std::vector<Gpu*> gpus, int first_device,
             PinnedStagingPool& staging, std::vector<Block> blocks,
             std::vector<PlannedKernel> kernels,
             std::vector<PlannedMatmul> matmuls,
             std::vector<std::unique_ptr<LibraryMatmul>> library_matmuls)
      : api_(api),
        gpus_(std::move(gpus)),
        first_device_(first_device),
        staging_(staging),
        blocks_(std::move(blocks)),
        kernels_(std::move(kernels)),
        matmuls_(std::move(matmuls)),
        library_matmuls_(std::move(library_matmuls)),
        per_gpu_(gpus_.size()) {}

  ~GpuProgram() override {
    for (size_t g = 0; g < gpus_.size(); ++g) {
      if (!gpus_[g]->MakeCurrent().ok()) continue;
      for (LoadedModule& loaded : per_gpu_[g].kernels) {
        if (loaded.module != nullptr) api_.cuModuleUnload(loaded.module);
      }
      for (CUdeviceptr pointer : per_gpu_[g].constants) {
        api_.cuMemFreeAsync(pointer, gpus_[g]->stream(StreamKind::kCompute));
      }
    }
  }

  // Loads every kernel on every GPU; the driver reports PTX errors in its
  // log, which the error carries.
  absl::Status Load() {
    for (size_t g = 0; g < gpus_.size(); ++g) {
      PJRTX_RETURN_IF_ERROR(gpus_[g]->MakeCurrent());
      for (const PlannedKernel& kernel : kernels_) {
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

  // Uploads `bytes` as the next constant on every GPU, on its compute
  // stream, where every run reads it later.
  absl::Status AddConstant(const std::vector<uint8_t>& bytes,
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
      per_gpu_[g].constants.push_back(pointer);
      IssueScope scope(gpu, compute, completions, NewPrivateLane());
      PJRTX_RETURN_IF_ERROR(StagedUpload(scope, staging_, compute, pointer,
                                         bytes.data(), bytes.size()));
    }
    return absl::OkStatus();
  }

  absl::Status Run(const pjrtx::RunContext& context,
                   absl::Span<const pjrtx::DeviceAddress> arguments,
                   absl::Span<const pjrtx::DeviceAddress> outputs) override {
    IssueScope* scope = IssueScope::Current();
    const int g = context.device - first_device_;
    if (scope == nullptr || g < 0 || g >= static_cast<int>(gpus_.size()) ||
        &scope->gpu() != gpus_[g]) {
      return absl::FailedPreconditionError(
          "a CUDA program runs only from its device's queue");
    }
    PJRTX_ASSIGN_OR_RETURN(CUstream stream, scope->Use(StreamKind::kCompute));
    // A program with collectives meets the launch's other runs through
    // the client's rendezvous, each exchange numbered in run order.
    pjrtx::cpu::HostCollectives collectives(context);
    RunState run{*scope, stream, g, per_gpu_[g], context.counters, collectives};
    const Block& entry = blocks_[0];
    std::vector<CUdeviceptr> parameters;
    for (const pjrtx::DeviceAddress& argument : arguments) {
      parameters.push_back(static_cast<CUdeviceptr>(argument.value));
    }
    std::vector<CUdeviceptr> address = Addresses(run, entry, parameters, {});
    // A kernel writes a result straight into the output it becomes.
    std::vector<CUdeviceptr> output_of(entry.num_values, 0);
    for (size_t j = 0; j < entry.results.size(); ++j) {
      if (output_of[entry.results[j]] == 0) {
        output_of[entry.results[j]] =
            static_cast<CUdeviceptr>(outputs[j].value);
      }
    }
    std::vector<CUdeviceptr> temporaries;
    absl::Status status = RunSteps(run, entry, output_of, address, temporaries);
    // Results the steps did not write in place: arguments, constants,
    // aliases, control flow results, a value returned twice.
    for (size_t j = 0; j < entry.results.size() && status.ok(); ++j) {
      const CUdeviceptr out = static_cast<CUdeviceptr>(outputs[j].value);
      const CUdeviceptr from = address[entry.results[j]];
      if (entry.result_bytes[j] == 0 || from == out) continue;
      status = CudaStatus(
          api_,
          api_.cuMemcpyDtoDAsync(out, from, entry.result_bytes[j], stream),
          "cuMemcpyDtoDAsync");
    }
    Free(run, temporaries);
    return status;
  }

 private:
  // What the steps of one run issue with.
  struct RunState {
    IssueScope& scope;
    CUstream stream;
    int device;  // Indexes gpus_.
    const PerGpu& gpu;
    pjrtx::TransferCounters* counters;  // May be null.
    pjrtx::cpu::HostCollectives& collectives;
  };

  // The address table of a run of `block`: its parameters, captures and
  // constants; the steps fill in the rest.
  static std::vector<CUdeviceptr> Addresses(
      const RunState& run, const Block& block,
      absl::Span<const CUdeviceptr> parameters,
      absl::Span<const CUdeviceptr> captures) {
    std::vector<CUdeviceptr> address(block.num_values, 0);
    for (size_t i = 0; i < block.parameters.size(); ++i) {
      address[block.parameters[i]] = parameters[i];
    }
    for (size_t i = 0; i < block.capture_parameters.size(); ++i) {
      address[block.capture_parameters[i]] = captures[i];
    }
    for (const auto& [value, constant] : block.constants) {
      address[value] = run.gpu.constants[constant];
    }
    return address;
  }

  // Stream-ordered: the memory returns to the pool after the work issued
  // so far, which is all that reads it.
  void Free(const RunState& run, const std::vector<CUdeviceptr>& pointers) {
    for (CUdeviceptr pointer : pointers)
      api_.cuMemFreeAsync(pointer, run.stream);
  }

  // Issues the steps of `block` over `address`; what they allocate is
  // appended to `temporaries`. `output_of` (empty, or one entry per value)
  // names the caller's memory a kernel writes a value into directly.
  absl::Status RunSteps(RunState& run, const Block& block,
                        absl::Span<const CUdeviceptr> output_of,
                        std::vector<CUdeviceptr>& address,
                        std::vector<CUdeviceptr>& temporaries) {
    for (const Step& step : block.steps) {
      switch (step.kind) {
        case Step::Kind::kKernel:
          PJRTX_RETURN_IF_ERROR(
              Launch(run, step.kernel, output_of, address, temporaries));
          break;
        case Step::Kind::kMatmul:
          PJRTX_RETURN_IF_ERROR(
              RunMatmul(run, step, output_of, address, temporaries));
          break;
        case Step::Kind::kAlias:
          for (size_t i = 0; i < step.results.size(); ++i) {
            address[step.results[i]] = address[step.operands[i]];
          }
          break;
        case Step::Kind::kWhile:
          PJRTX_RETURN_IF_ERROR(RunWhile(run, step, address, temporaries));
          break;
        case Step::Kind::kIf:
        case Step::Kind::kCase:
        case Step::Kind::kCall:
          PJRTX_RETURN_IF_ERROR(RunCall(run, step, address, temporaries));
          break;
        case Step::Kind::kCollective:
          PJRTX_RETURN_IF_ERROR(
              RunCollective(run, step, output_of, address, temporaries));
          break;
      }
    }
    return absl::OkStatus();
  }

  // A collective on the host: the stream's work so far completes, the
  // operands come back (counted as device-to-host transfers), the runtime's
  // host implementation meets the launch's other runs, and the results go
  // up (host-to-device) on the stream, ahead of the steps after it.
  absl::Status RunCollective(RunState& run, const Step& step,
                             absl::Span<const CUdeviceptr> output_of,
                             std::vector<CUdeviceptr>& address,
                             std::vector<CUdeviceptr>& temporaries) {
    auto read = [&](size_t k, absl::Span<uint8_t> bytes) -> absl::Status {
      for (size_t offset = 0; offset < bytes.size();
           offset += staging_.chunk_bytes()) {
        PJRTX_RETURN_IF_ERROR(ReadBackToHost(
            run.scope, staging_, run.stream, address[step.operands[k]] + offset,
            bytes.data() + offset,
            std::min(staging_.chunk_bytes(), bytes.size() - offset)));
      }
      if (run.counters != nullptr && !bytes.empty()) {
        run.counters->device_to_host.Add(static_cast<int64_t>(bytes.size()));
      }
      return absl::OkStatus();
    };
    auto write = [&](size_t i, absl::Span<const uint8_t> bytes) {
      PJRTX_RETURN_IF_ERROR(PlaceResult(run, step.results[i], bytes.size(),
                                        output_of, address, temporaries));
      if (bytes.empty()) return absl::OkStatus();
      PJRTX_RETURN_IF_ERROR(StagedUpload(run.scope, staging_, run.stream,
                                         address[step.results[i]], bytes.data(),
                                         bytes.size()));
      if (run.counters != nullptr) {
        run.counters->host_to_device.Add(static_cast<int64_t>(bytes.size()));
      }
      return absl::OkStatus();
    };
    absl::Status status =
        run.collectives.Run(*step.collective, step.combine, read, write);
    if (!status.ok() &&
        status.code() != absl::StatusCode::kFailedPrecondition) {
      return absl::Status(status.code(),
                          absl::StrCat(step.where, ": ", status.message()));
    }
    return status;
  }

  // Gives `value`, of `bytes`, its memory: the caller's output it
  // becomes, or a temporary.
  absl::Status PlaceResult(RunState& run, int value, size_t bytes,
                           absl::Span<const CUdeviceptr> output_of,
                           std::vector<CUdeviceptr>& address,
                           std::vector<CUdeviceptr>& temporaries) {
    if (!output_of.empty() && output_of[value] != 0) {
      address[value] = output_of[value];
      return absl::OkStatus();
    }
    CUdeviceptr pointer = 0;
    PJRTX_CUDA_RETURN_IF_ERROR(
        api_, cuMemAllocFromPoolAsync(&pointer, std::max<size_t>(bytes, 1),
                                      run.scope.gpu().pool(), run.stream));
    temporaries.push_back(pointer);
    address[value] = pointer;
    return absl::OkStatus();
  }

  absl::Status Launch(RunState& run, int index,
                      absl::Span<const CUdeviceptr> output_of,
                      std::vector<CUdeviceptr>& address,
                      std::vector<CUdeviceptr>& temporaries) {
    const PlannedKernel& kernel = kernels_[index];
    for (size_t o = 0; o < kernel.outputs.size(); ++o) {
      PJRTX_RETURN_IF_ERROR(PlaceResult(run, kernel.outputs[o],
                                        kernel.output_bytes[o], output_of,
                                        address, temporaries));
    }
    if (kernel.elements == 0) return absl::OkStatus();
    std::vector<CUdeviceptr> params;
    for (int value : kernel.inputs) params.push_back(address[value]);
    for (int value : kernel.outputs) params.push_back(address[value]);
    uint64_t elements = kernel.elements;
    std::vector<void*> param_pointers;
    for (CUdeviceptr& param : params) param_pointers.push_back(&param);
    param_pointers.push_back(&elements);
    // Enough blocks to fill the GPU a few times over; the kernels stride
    // by the grid, so any count computes every element.
    const uint64_t wanted =
        (kernel.elements + kThreadsPerBlock - 1) / kThreadsPerBlock;
    const unsigned blocks = static_cast<unsigned>(std::min<uint64_t>(
        wanted,
        uint64_t{32} * static_cast<uint64_t>(run.scope.gpu().info().sm_count)));
    PJRTX_CUDA_RETURN_IF_ERROR(
        api_, cuLaunchKernel(run.gpu.kernels[index].function, blocks, 1, 1,
                             kThreadsPerBlock, 1, 1, 0, run.stream,
                             param_pointers.data(), nullptr));
    return absl::OkStatus();
  }

  // A plain matmul through the library, on the compute stream like the
  // kernels.
  absl::Status RunMatmul(RunState& run, const Step& step,
                         absl::Span<const CUdeviceptr> output_of,
                         std::vector<CUdeviceptr>& address,
                         std::vector<CUdeviceptr>& temporaries) {
    const PlannedMatmul& matmul = matmuls_[step.matmul];
    PJRTX_RETURN_IF_ERROR(PlaceResult(run, matmul.result, matmul.result_bytes,
                                      output_of, address, temporaries));
    const CUdeviceptr scale = matmul.scale >= 0 ? address[matmul.scale] : 0;
    return WithContext(library_matmuls_[step.matmul]->Run(
                           run.device, run.stream, address[matmul.lhs],
                           address[matmul.rhs], address[matmul.result], scale),
                       step.where);
  }

  // Runs block `index` on `parameters`, its captures read from the
  // caller's `address`; returns the addresses of its results. What it
  // allocates is appended to `temporaries`.
  absl::StatusOr<std::vector<CUdeviceptr>> Call(
      RunState& run, int index, absl::Span<const CUdeviceptr> parameters,
      const std::vector<CUdeviceptr>& caller_address,
      std::vector<CUdeviceptr>& temporaries) {
    const Block& block = blocks_[index];
    std::vector<CUdeviceptr> captures;
    for (int value : block.captures) captures.push_back(caller_address[value]);
    std::vector<CUdeviceptr> address =
        Addresses(run, block, parameters, captures);
    PJRTX_RETURN_IF_ERROR(RunSteps(run, block, {}, address, temporaries));
    std::vector<CUdeviceptr> results;
    for (int value : block.results) results.push_back(address[value]);
    return results;
  }

  // The value of the one-element `value` of `size` bytes (i1 or si32),
  // copied to the host: control flow decides on the host what to issue
  // next. Counted as a device-to-host transfer.
  absl::StatusOr<int64_t> ReadScalar(RunState& run, CUdeviceptr value,
                                     size_t size) {
    int32_t scalar = 0;
    uint8_t predicate = 0;
    void* host = size == 1 ? static_cast<void*>(&predicate) : &scalar;
    PJRTX_RETURN_IF_ERROR(
        ReadBackToHost(run.scope, staging_, run.stream, value, host, size));
    if (run.counters != nullptr) {
      run.counters->device_to_host.Add(static_cast<int64_t>(size));
    }
    return size == 1 ? int64_t{predicate} : int64_t{scalar};
  }

  // if, case and call: the block the step picks, run on the step's
  // operands (call) or on nothing but its captures (the branches).
  absl::Status RunCall(RunState& run, const Step& step,
                       std::vector<CUdeviceptr>& address,
                       std::vector<CUdeviceptr>& temporaries) {
    int block = step.blocks[0];
    std::vector<CUdeviceptr> parameters;
    if (step.kind == Step::Kind::kCall) {
      for (int value : step.operands) parameters.push_back(address[value]);
    } else {
      const bool is_if = step.kind == Step::Kind::kIf;
      absl::StatusOr<int64_t> selector =
          ReadScalar(run, address[step.operands[0]], is_if ? 1 : 4);
      if (!selector.ok()) return WithContext(selector.status(), step.where);
      const int64_t branches = static_cast<int64_t>(step.blocks.size());
      int64_t branch = is_if ? (*selector != 0 ? 0 : 1) : *selector;
      if (branch < 0 || branch >= branches) branch = branches - 1;
      block = step.blocks[branch];
    }
    absl::StatusOr<std::vector<CUdeviceptr>> results =
        Call(run, block, parameters, address, temporaries);
    if (!results.ok()) return results.status();
    for (size_t i = 0; i < step.results.size(); ++i) {
      address[step.results[i]] = (*results)[i];
    }
    return absl::OkStatus();
  }

  // Each iteration issues the condition, reads its predicate back, and
  // issues the body if it holds. The loop state is addresses: a body
  // result is the body's own memory, or any memory the state or the
  // captures already name; nothing is copied. The loop owns the memory
  // its iterations allocated that the state still names, and frees the
  // rest every iteration (stream-ordered, after the kernels reading it), so
  // memory stays bounded however long the loop runs.
  absl::Status RunWhile(RunState& run, const Step& step,
                        std::vector<CUdeviceptr>& address,
                        std::vector<CUdeviceptr>& temporaries) {
    std::vector<CUdeviceptr> state;
    for (int value : step.operands) state.push_back(address[value]);
    std::vector<CUdeviceptr> owned;
    absl::Status status;
    for (int64_t iteration = 0;; ++iteration) {
      std::vector<CUdeviceptr> scratch;
      absl::StatusOr<std::vector<CUdeviceptr>> condition =
          Call(run, step.blocks[0], state, address, scratch);
      absl::StatusOr<int64_t> holds =
          condition.ok() ? ReadScalar(run, (*condition)[0], 1)
                         : absl::StatusOr<int64_t>(condition.status());
      Free(run, scratch);
      if (!holds.ok()) {
        status = WithContext(
            holds.status(),
            absl::StrCat(step.where, ", iteration ", iteration, " condition"));
        break;
      }
      if (*holds == 0) break;
      std::vector<CUdeviceptr> body;
      absl::StatusOr<std::vector<CUdeviceptr>> next =
          Call(run, step.blocks[1], state, address, body);
      if (!next.ok()) {
        owned.insert(owned.end(), body.begin(), body.end());
        status = WithContext(
            next.status(),
            absl::StrCat(step.where, ", iteration ", iteration, " body"));
        break;
      }
      owned.insert(owned.end(), body.begin(), body.end());
      std::vector<CUdeviceptr> kept;
      std::vector<CUdeviceptr> dropped;
      for (CUdeviceptr pointer : owned) {
        const bool in_state =
            std::find(next->begin(), next->end(), pointer) != next->end();
        (in_state ? kept : dropped).push_back(pointer);
      }
      Free(run, dropped);
      owned = std::move(kept);
      state = *std::move(next);
    }
    // The final state outlives the loop (and, after an error, the run
    // frees it with the rest).
    temporaries.insert(temporaries.end(), owned.begin(), owned.end());
    if (!status.ok()) return status;
    for (size_t i = 0; i < step.results.size(); ++i) {
      address[step.results[i]] = state[i];
    }
    return absl::OkStatus();
  }

  const DriverApi& api_;
  std::vector<Gpu*> gpus_;
  const int first_device_;  // The topology index of gpus_[0].
  PinnedStagingPool& staging_;
  std::vector<Block> blocks_;
  std::vector<PlannedKernel> kernels_;
  // Parallel: what each kMatmul step multiplies, and what runs it.
  std::vector<PlannedMatmul> matmuls_;
  std::vector<std::unique_ptr<LibraryMatmul>> library_matmuls_;
  std::vector<PerGpu> per_gpu_;
};

}  // namespace

absl::StatusOr<pjrtx::CompiledProgram> CompileGpuProgram(
    const DriverApi& api, const std::vector<Gpu*>& gpus, int first_device,
    PinnedStagingPool& staging, CompletionThread& completions,
    const PrepareLibraryMatmul& prepare_matmul, std::string_view format,
    std::string_view code, const pjrtx::ProgramOptions& options) {
  // Without fusion nothing would become a kernel.
  PJRTX_ASSIGN_OR_RETURN(pjrtx::cpu::CompiledStableHlo compiled_hlo,
                         pjrtx::cpu::CompileStableHlo(format, code, options,
                                                      /*force_fusion=*/true));
  const pjrtx::ir::Program& program = compiled_hlo.program;
  pjrtx::CompiledProgram compiled = std::move(compiled_hlo.compiled);

  int sm = 1000;
  for (const Gpu* gpu : gpus) {
    sm = std::min(sm,
                  gpu->info().compute_major * 10 + gpu->info().compute_minor);
  }
  // Each matmul the library prepares becomes the plan's next one.
  std::vector<std::unique_ptr<LibraryMatmul>> library_matmuls;
  MatmulFilter library_matmul;
  if (prepare_matmul) {
    library_matmul = [&](const PlannedMatmul& matmul) -> absl::StatusOr<bool> {
      PJRTX_ASSIGN_OR_RETURN(std::unique_ptr<LibraryMatmul> prepared,
                             prepare_matmul(matmul));
      if (prepared == nullptr) return false;
      library_matmuls.push_back(std::move(prepared));
      return true;
    };
  }
  PJRTX_ASSIGN_OR_RETURN(ProgramPlan plan,
                         pjrtx::ptx::PlanProgram(program, sm, library_matmul));
  auto gpu_program = std::make_unique<GpuProgram>(
      api, gpus, first_device, staging, std::move(plan.blocks),
      std::move(plan.kernels), std::move(plan.matmuls),
      std::move(library_matmuls));
  PJRTX_RETURN_IF_ERROR(gpu_program->Load());
  for (const std::vector<uint8_t>* bytes : plan.constants) {
    PJRTX_RETURN_IF_ERROR(gpu_program->AddConstant(*bytes, completions));
  }
  compiled.program = std::move(gpu_program);
  return compiled;
}

}  // namespace cuda_plugin
