#include "plugins/cuda/device/gpu_driver.h"

#include <atomic>
#include <cstdio>
#include <utility>

#include "absl/strings/str_cat.h"
#include "plugins/cuda/driver_api/cuda_status.h"
#include "plugins/cuda/streams/cuda_queue.h"
#if PJRTX_CUDA_WITH_CUBLASLT
#include "plugins/cuda/programs/cublaslt_library.h"
#include "plugins/cuda/programs/cublaslt_matmul.h"
#endif
#include "plugins/cuda/collectives/job_gpus.h"
#include "plugins/cuda/memory/staged_copies.h"
#include "plugins/cuda/programs/gpu_program.h"
#include "plugins/cuda/streams/issue_scope.h"
#include "runtime/core/base/event.h"
#include "support/status_macros.h"

namespace cuda_plugin {

absl::StatusOr<std::unique_ptr<GpuDriver>> GpuDriver::Create(
    const Discovery& found, const GpuDriverOptions& options) {
  if (found.api == nullptr || found.gpus.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("no usable CUDA device: ", found.unavailable_reason));
  }
  std::unique_ptr<GpuDriver> driver(new GpuDriver(*found.api, found));
  if (options.num_processes < 1 || options.process_index < 0 ||
      options.process_index >= options.num_processes) {
    return absl::InvalidArgumentError(
        absl::StrCat("process_index is ", options.process_index,
                     " and num_processes ", options.num_processes,
                     "; expected num_processes >= 1 and 0 <= process_index < "
                     "num_processes"));
  }
  driver->process_index_ = options.process_index;
  if (options.num_processes == 1) {
    driver->job_ = {JobProcess{options.host, found.gpus}};
  } else {
    if (options.store == nullptr) {
      return absl::FailedPreconditionError(absl::StrCat(
          "a job of ", options.num_processes,
          " processes exchanges its GPUs through the key-value store, but "
          "the client was created without key-value callbacks; pass them to "
          "PJRTX_Client_Create"));
    }
    // Numbers this process's clients in jobs, so that the n-th client of
    // every process meets the n-th of the others.
    static std::atomic<int> job_clients{0};
    PJRTX_ASSIGN_OR_RETURN(
        driver->job_,
        ExchangeJobGpus(*options.store, job_clients.fetch_add(1),
                        options.num_processes, options.process_index,
                        JobProcess{options.host, found.gpus},
                        options.exchange_timeout_ms));
  }
  driver->slice_of_process_ = SlicesOfProcesses(driver->job_);
  for (int p = 0; p < options.process_index; ++p) {
    driver->first_local_device_ +=
        static_cast<int>(driver->job_[p].gpus.size());
  }
  for (const GpuInfo& info : found.gpus) {
    PJRTX_ASSIGN_OR_RETURN(std::unique_ptr<Gpu> gpu,
                           Gpu::Open(*found.api, info));
    driver->gpus_.push_back(std::move(gpu));
  }
  PJRTX_RETURN_IF_ERROR(driver->gpus_.front()->MakeCurrent());
  PJRTX_ASSIGN_OR_RETURN(
      driver->staging_,
      PinnedStagingPool::Create(*found.api, options.staging_chunk_bytes,
                                options.staging_chunks));
  driver->issued_ = std::make_unique<IssuedEvents>(*found.api);
  driver->completions_ =
      std::make_unique<CompletionThread>(*found.api, options.completion_wait);
  return driver;
}

GpuDriver::~GpuDriver() {
  // Completions first (they return staging chunks and free memory), then
  // the staging pool and the cuBLASLt handles, then the GPUs.
  completions_.reset();
  if (!gpus_.empty() && gpus_.front()->MakeCurrent().ok()) staging_.reset();
#if PJRTX_CUDA_WITH_CUBLASLT
  cublaslt_.clear();
#endif
  gpus_.clear();
}

pjrtx::TopologySpec GpuDriver::Describe() {
  pjrtx::TopologySpec topology;
  topology.platform_version =
      absl::StrCat("CUDA driver ", found_.driver_version / 1000, ".",
                   found_.driver_version % 1000 / 10);
  topology.process_index = process_index_;
  int64_t global_id = 0;
  for (size_t p = 0; p < job_.size(); ++p) {
    for (const GpuInfo& info : job_[p].gpus) {
      const int64_t id = global_id++;
      pjrtx::DeviceSpec device;
      device.global_id = id;
      device.process_index = static_cast<int>(p);
      device.addressable = static_cast<int>(p) == process_index_;
      device.kind = info.name;
      device.to_string = absl::StrCat("CudaDevice(id=", id, ")");
      device.debug_string = absl::StrCat(
          "CudaDevice(id=", id, ", ",
          job_.size() > 1 ? absl::StrCat("process ", p, ", ") : "", info.name,
          ", sm_", info.compute_major, info.compute_minor, ", ", info.sm_count,
          " SMs, ", info.memory_bytes >> 20, " MiB, PCI ", info.pci_bus_id,
          ")");
      device.attributes = {
          {"compute_capability",
           absl::StrCat(info.compute_major, ".", info.compute_minor)},
          {"core_count", int64_t{info.sm_count}},
          {"device_memory_bytes", static_cast<int64_t>(info.memory_bytes)},
          {"pci_bus_id", info.pci_bus_id},
          {"coords", std::vector<int64_t>{id}},
          {"process_index", static_cast<int64_t>(p)},
          {"slice_index", static_cast<int64_t>(slice_of_process_[p])},
          {"host", job_[p].host},
      };
      topology.devices.push_back(std::move(device));
    }
  }
  // Memories of this process's GPUs only: device memory, then pinned host
  // memory, per GPU.
  memory_places_.clear();
  for (size_t g = 0; g < gpus_.size(); ++g) {
    const GpuInfo& info = gpus_[g]->info();
    const int index = first_local_device_ + static_cast<int>(g);
    const int first_memory = static_cast<int>(topology.memories.size());
    topology.devices[index].memories = {first_memory, first_memory + 1};
    memory_places_.push_back(
        {static_cast<int>(g), pjrtx::MemoryKindCode::kDevice});
    memory_places_.push_back(
        {static_cast<int>(g), pjrtx::MemoryKindCode::kPinnedHost});
    pjrtx::MemorySpec device_memory;
    device_memory.kind = "device";
    device_memory.kind_code = pjrtx::MemoryKindCode::kDevice;
    device_memory.devices = {index};
    device_memory.bytes_limit = static_cast<int64_t>(info.memory_bytes);
    device_memory.dlpack_device_type = pjrtx::DlpackDeviceType::kCuda;
    device_memory.dlpack_device_id = info.ordinal;
    topology.memories.push_back(std::move(device_memory));

    pjrtx::MemorySpec pinned;
    pinned.kind = "pinned_host";
    pinned.kind_code = pjrtx::MemoryKindCode::kPinnedHost;
    pinned.devices = {index};
    // Addresses are host pointers: the core may alias caller memory here,
    // which AdoptHostMemory page-locks first.
    pinned.host_addressable = true;
    pinned.dlpack_device_type = pjrtx::DlpackDeviceType::kCudaHost;
    pinned.dlpack_device_id = 0;
    topology.memories.push_back(std::move(pinned));
  }
  topology.attributes = {
      {"cuda.driver_version", int64_t{found_.driver_version}},
      {"cuda.staging_bytes",
       static_cast<int64_t>(staging_->chunk_bytes() * staging_->num_chunks())},
  };
  return topology;
}

absl::StatusOr<pjrtx::DeviceAddress> GpuDriver::Allocate(int memory,
                                                         size_t size) {
  Gpu& gpu = *gpus_[GpuOfMemory(memory)];
  PJRTX_RETURN_IF_ERROR(gpu.MakeCurrent());
  if (IsPinnedHost(memory)) {
    void* host = nullptr;
    PJRTX_CUDA_RETURN_IF_ERROR(
        api_, cuMemHostAlloc(&host, size, CU_MEMHOSTALLOC_PORTABLE));
    return pjrtx::DeviceAddress{reinterpret_cast<uintptr_t>(host)};
  }
  // Stream-ordered on the compute stream: every other stream orders itself
  // after the compute stream before touching memory (IssueScope::Use).
  CUdeviceptr pointer = 0;
  PJRTX_CUDA_RETURN_IF_ERROR(
      api_, cuMemAllocFromPoolAsync(&pointer, size, gpu.pool(),
                                    gpu.stream(StreamKind::kCompute)));
  return pjrtx::DeviceAddress{static_cast<uintptr_t>(pointer)};
}

void GpuDriver::Free(int memory, pjrtx::DeviceAddress address, size_t size) {
  (void)size;
  Gpu& gpu = *gpus_[GpuOfMemory(memory)];
  // Called once nothing queued holds the memory: every task keeps what it
  // uses until its GPU work completed.
  CUresult result = CUDA_ERROR_INVALID_CONTEXT;
  if (gpu.MakeCurrent().ok()) {
    result = IsPinnedHost(memory)
                 ? api_.cuMemFreeHost(reinterpret_cast<void*>(address.value))
                 : api_.cuMemFreeAsync(Pointer(address),
                                       gpu.stream(StreamKind::kCompute));
  }
  if (result != CUDA_SUCCESS) {
    // Free cannot fail in the interface; a device that cannot free is
    // lost, and the next operation on it reports that.
    std::fprintf(stderr, "pjrtx cuda: warning: freeing memory %d: %s\n", memory,
                 ErrorText(api_, result).c_str());
  }
}

absl::Status GpuDriver::RunSynchronously(
    Gpu& gpu, absl::AnyInvocable<absl::Status(IssueScope&) &&> issue) {
  PJRTX_RETURN_IF_ERROR(gpu.MakeCurrent());
  const CUstream compute = gpu.stream(StreamKind::kCompute);
  IssueScope scope(gpu, compute, *completions_, NewPrivateLane());
  absl::Status status = std::move(issue)(scope);
  PJRTX_ASSIGN_OR_RETURN(CUstream joined, scope.Join());
  pjrtx::EventRef done = pjrtx::Event::Create();
  PJRTX_RETURN_IF_ERROR(scope.OnCompletion(
      joined, [done](absl::Status device) { done->Set(std::move(device)); }));
  absl::Status device = done->Await();
  return status.ok() ? device : status;
}

absl::Status GpuDriver::CopyFromHost(int memory, pjrtx::DeviceAddress dst,
                                     const void* src, size_t size) {
  Gpu& gpu = *gpus_[GpuOfMemory(memory)];
  if (IssueScope* scope = IssueScope::Current(); scope != nullptr) {
    PJRTX_ASSIGN_OR_RETURN(CUstream upload, scope->Use(StreamKind::kUpload));
    return UploadInTask(*scope, *staging_, upload, Pointer(dst), src, size);
  }
  // A framework thread filling a fresh allocation: the caller's data is
  // staged before this returns; the DMA runs on, and the compute stream
  // (where every later use is ordered) waits for it on the GPU.
  PJRTX_RETURN_IF_ERROR(gpu.MakeCurrent());
  const CUstream upload = gpu.stream(StreamKind::kUpload);
  const CUstream compute = gpu.stream(StreamKind::kCompute);
  IssueScope scope(gpu, compute, *completions_, NewPrivateLane());
  PJRTX_ASSIGN_OR_RETURN(CUstream stream, scope.Use(StreamKind::kUpload));
  PJRTX_RETURN_IF_ERROR(
      StagedUpload(scope, *staging_, stream, Pointer(dst), src, size));
  return gpu.OrderAfter(compute, upload);
}

absl::Status GpuDriver::CopyToHost(int memory, void* dst,
                                   pjrtx::DeviceAddress src, size_t size) {
  auto download = [this, dst, src, size](IssueScope& scope) -> absl::Status {
    PJRTX_ASSIGN_OR_RETURN(CUstream stream, scope.Use(StreamKind::kDownload));
    return StagedDownload(scope, *staging_, stream, dst, Pointer(src), size);
  };
  if (IssueScope* scope = IssueScope::Current(); scope != nullptr) {
    return download(*scope);
  }
  return RunSynchronously(*gpus_[GpuOfMemory(memory)], download);
}

absl::Status GpuDriver::CopyBetween(int dst_memory, pjrtx::DeviceAddress dst,
                                    int src_memory, pjrtx::DeviceAddress src,
                                    size_t size) {
  Gpu& dst_gpu = *gpus_[GpuOfMemory(dst_memory)];
  Gpu& src_gpu = *gpus_[GpuOfMemory(src_memory)];
  auto copy = [&](IssueScope& scope) -> absl::Status {
    PJRTX_ASSIGN_OR_RETURN(CUstream stream, scope.Use(StreamKind::kCompute));
    if (&src_gpu != &dst_gpu) {
      // The source may still be written by work its own GPU ordered on its
      // compute stream (an upload, an allocation) outside any task this
      // one depends on: wait for that stream on the GPU.
      // The event is recorded in its own context, waited for in ours.
      PJRTX_RETURN_IF_ERROR(src_gpu.MakeCurrent());
      PJRTX_ASSIGN_OR_RETURN(CUevent written, src_gpu.events().Acquire());
      CUresult result =
          api_.cuEventRecord(written, src_gpu.stream(StreamKind::kCompute));
      const absl::Status current = dst_gpu.MakeCurrent();
      if (result == CUDA_SUCCESS && current.ok()) {
        result = api_.cuStreamWaitEvent(stream, written, 0);
      }
      src_gpu.events().Release(written);
      PJRTX_RETURN_IF_ERROR(current);
      PJRTX_RETURN_IF_ERROR(
          CudaStatus(api_, result, "cuEventRecord/cuStreamWaitEvent"));
    }
    if (IsPinnedHost(dst_memory) && IsPinnedHost(src_memory)) {
      PJRTX_CUDA_RETURN_IF_ERROR(
          api_, cuMemcpyHtoDAsync(Pointer(dst),
                                  reinterpret_cast<const void*>(src.value),
                                  size, stream));
    } else if (IsPinnedHost(src_memory)) {
      PJRTX_CUDA_RETURN_IF_ERROR(
          api_, cuMemcpyHtoDAsync(Pointer(dst),
                                  reinterpret_cast<const void*>(src.value),
                                  size, stream));
    } else if (IsPinnedHost(dst_memory)) {
      PJRTX_CUDA_RETURN_IF_ERROR(
          api_, cuMemcpyDtoHAsync(reinterpret_cast<void*>(dst.value),
                                  Pointer(src), size, stream));
    } else if (&dst_gpu == &src_gpu) {
      PJRTX_CUDA_RETURN_IF_ERROR(
          api_, cuMemcpyDtoDAsync(Pointer(dst), Pointer(src), size, stream));
    } else {
      PJRTX_CUDA_RETURN_IF_ERROR(
          api_, cuMemcpyPeerAsync(Pointer(dst), dst_gpu.context(), Pointer(src),
                                  src_gpu.context(), size, stream));
    }
    return absl::OkStatus();
  };
  if (IssueScope* scope = IssueScope::Current(); scope != nullptr) {
    return copy(*scope);
  }
  return RunSynchronously(dst_gpu, copy);
}

absl::Status GpuDriver::AdoptHostMemory(int memory, void* host, size_t size) {
  if (!IsPinnedHost(memory)) {
    return absl::FailedPreconditionError(
        absl::StrCat("memory ", memory, " is device memory"));
  }
  PJRTX_RETURN_IF_ERROR(gpus_[GpuOfMemory(memory)]->MakeCurrent());
  // Registration costs about as much as a copy of the pages once, and is
  // refused for memory that is registered already (the core then copies).
  PJRTX_CUDA_RETURN_IF_ERROR(
      api_, cuMemHostRegister(host, size, CU_MEMHOSTREGISTER_PORTABLE));
  return absl::OkStatus();
}

void GpuDriver::ReleaseHostMemory(int memory, void* host, size_t size) {
  (void)size;
  CUresult result = CUDA_ERROR_INVALID_CONTEXT;
  if (gpus_[GpuOfMemory(memory)]->MakeCurrent().ok()) {
    result = api_.cuMemHostUnregister(host);
  }
  if (result != CUDA_SUCCESS) {
    std::fprintf(stderr, "pjrtx cuda: warning: unregistering host memory: %s\n",
                 ErrorText(api_, result).c_str());
  }
}

absl::StatusOr<pjrtx::CompiledProgram> GpuDriver::Compile(
    std::string_view format, std::string_view code,
    const pjrtx::ProgramOptions& options) {
  std::vector<Gpu*> gpus;
  for (const std::unique_ptr<Gpu>& gpu : gpus_) gpus.push_back(gpu.get());
  PrepareLibraryMatmul prepare_matmul;
#if PJRTX_CUDA_WITH_CUBLASLT
  prepare_matmul = [this](const pjrtx::ptx::PlannedMatmul& matmul)
      -> absl::StatusOr<std::unique_ptr<LibraryMatmul>> {
    // Without cuBLASLt, the kernel.
    if (CublasLtGpus().empty()) return nullptr;
    PJRTX_ASSIGN_OR_RETURN(std::unique_ptr<CublasLtMatmul> prepared,
                           CublasLtMatmul::Prepare(CublasLtGpus(), matmul));
    return std::unique_ptr<LibraryMatmul>(std::move(prepared));
  };
#endif
  return CompileGpuProgram(api_, gpus, first_local_device_, *staging_,
                           *completions_, prepare_matmul, format, code,
                           options);
}

#if PJRTX_CUDA_WITH_CUBLASLT
const std::vector<CublasLtGpu*>& GpuDriver::CublasLtGpus() {
  std::call_once(cublaslt_once_, [this] {
    const CublasLtLibrary& cublaslt = LoadCublasLt();
    if (cublaslt.api == nullptr) return;
    // Handles and workspaces come on first use (cublaslt_gpu.h).
    for (const std::unique_ptr<Gpu>& gpu : gpus_) {
      cublaslt_.push_back(
          std::make_unique<CublasLtGpu>(*cublaslt.api, api_, *gpu));
      cublaslt_gpus_.push_back(cublaslt_.back().get());
    }
  });
  return cublaslt_gpus_;
}
#endif

std::unique_ptr<pjrtx::DeviceQueue> GpuDriver::CreateNativeQueue(int device) {
  return std::make_unique<CudaQueue>(gpu(device), *completions_, *issued_,
                                     QueueLane(device));
}

}  // namespace cuda_plugin
