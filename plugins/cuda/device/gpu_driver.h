// The CUDA plugin's driver: GPUs of this process as pjrtx devices, each with
// a "device" memory (its stream-ordered pool) and a "pinned_host" memory,
// copies on the GPU's upload, download and compute streams, programs as PTX
// kernels and, where cuBLASLt is there, matmuls through it.
#ifndef PJRTX_PLUGINS_CUDA_DEVICE_GPU_DRIVER_H_
#define PJRTX_PLUGINS_CUDA_DEVICE_GPU_DRIVER_H_

#include <cuda.h>

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "absl/functional/any_invocable.h"
#include "absl/status/statusor.h"
#include "plugins/cuda/streams/completion_thread.h"
#if PJRTX_CUDA_WITH_CUBLASLT
#include "plugins/cuda/programs/cublaslt_gpu.h"
#endif
#include "plugins/cuda/collectives/job_gpus.h"
#include "plugins/cuda/device/gpu.h"
#include "plugins/cuda/driver_api/cuda_api.h"
#include "plugins/cuda/memory/pinned_staging_pool.h"
#include "plugins/cuda/streams/issue_scope.h"
#include "plugins/cuda/streams/issued_events.h"
#include "runtime/core/base/driver.h"
#include "runtime/core/base/key_value_store.h"

namespace cuda_plugin {

struct GpuDriverOptions {
  // The pinned staging pool: chunk size and count.
  size_t staging_chunk_bytes = size_t{8} << 20;
  int staging_chunks = 8;
  // The job's processes and this one's index. With more than one, the
  // processes exchange their GPUs through `store` (the framework's
  // key-value store, required then), waiting up to `exchange_timeout_ms`.
  int num_processes = 1;
  int process_index = 0;
  // The machine this process runs on, as the job groups processes into
  // slices (slice_index attribute): NCCL within one, UCX between them.
  std::string host = "localhost";
  pjrtx::KeyValueStore* store = nullptr;
  int64_t exchange_timeout_ms = 60'000;
  // How completions are waited for (completion_thread.h).
  CompletionWait completion_wait = CompletionWait::kBackoff;
};

class GpuDriver : public pjrtx::Driver {
 public:
  // Opens every GPU `found` lists. In a job of several processes the
  // topology lists every process's GPUs (global ids numbered by process,
  // then ordinal); this process's are addressable.
  static absl::StatusOr<std::unique_ptr<GpuDriver>> Create(
      const Discovery& found, const GpuDriverOptions& options);
  ~GpuDriver() override;

  pjrtx::TopologySpec Describe() override;
  absl::StatusOr<pjrtx::DeviceAddress> Allocate(int memory,
                                                size_t size) override;
  void Free(int memory, pjrtx::DeviceAddress address, size_t size) override;
  absl::Status CopyFromHost(int memory, pjrtx::DeviceAddress dst,
                            const void* src, size_t size) override;
  absl::Status CopyToHost(int memory, void* dst, pjrtx::DeviceAddress src,
                          size_t size) override;
  absl::Status CopyBetween(int dst_memory, pjrtx::DeviceAddress dst,
                           int src_memory, pjrtx::DeviceAddress src,
                           size_t size) override;
  // Page-locks caller memory for a zero-copy pinned_host buffer, so the
  // GPU reads it in place.
  absl::Status AdoptHostMemory(int memory, void* host, size_t size) override;
  void ReleaseHostMemory(int memory, void* host, size_t size) override;
  absl::StatusOr<pjrtx::CompiledProgram> Compile(
      std::string_view format, std::string_view code,
      const pjrtx::ProgramOptions& options) override;
  // Queues issue from their own threads; the core's pool only runs
  // callbacks.
  int NumWorkerThreads() const override { return 1; }
  std::unique_ptr<pjrtx::DeviceQueue> CreateNativeQueue(int device) override;

  // For work issued into the queues from outside the core (the NCCL
  // communicator): a GPU by device index, the queues' issued tasks, and
  // the lane of device `device`'s queue in them.
  Gpu& gpu(int device) { return *gpus_[device - first_local_device_]; }
  IssuedEvents& issued_events() { return *issued_; }
  static int64_t QueueLane(int device) { return device; }

 private:
  GpuDriver(const DriverApi& api, const Discovery& found)
      : api_(api), found_(found) {}

  // Where memory `memory` (a topology index) lives: which GPU's, and of
  // which kind.
  struct MemoryPlace {
    int gpu = 0;  // Indexes gpus_.
    pjrtx::MemoryKindCode kind = pjrtx::MemoryKindCode::kDevice;
  };
  int GpuOfMemory(int memory) const { return memory_places_[memory].gpu; }
  bool IsPinnedHost(int memory) const {
    return memory_places_[memory].kind == pjrtx::MemoryKindCode::kPinnedHost;
  }
  static CUdeviceptr Pointer(pjrtx::DeviceAddress address) {
    return static_cast<CUdeviceptr>(address.value);
  }

  // Runs `issue` in an issue scope on `gpu` outside any queue task and
  // waits until its work and completions are done.
  absl::Status RunSynchronously(
      Gpu& gpu, absl::AnyInvocable<absl::Status(IssueScope&) &&> issue);

  const DriverApi& api_;
  const Discovery& found_;
  // This process's index and the GPUs of every process of the job (just
  // this one's when it is alone).
  int process_index_ = 0;
  std::vector<JobProcess> job_;
  std::vector<int> slice_of_process_;
  // The topology index of this process's first GPU: the job's devices are
  // numbered by process, so gpus_[i] is device first_local_device_ + i.
  int first_local_device_ = 0;
  std::vector<std::unique_ptr<Gpu>> gpus_;
  // By topology memory index; set once by Describe, before any use.
  std::vector<MemoryPlace> memory_places_;
  std::unique_ptr<PinnedStagingPool> staging_;
  std::unique_ptr<IssuedEvents> issued_;
#if PJRTX_CUDA_WITH_CUBLASLT
  // cuBLASLt's state on every GPU, in the same order; empty where cuBLASLt
  // cannot be used. Set up by the first compile that has a plain matmul:
  // the library is large, and programs without matmuls never need it.
  const std::vector<CublasLtGpu*>& CublasLtGpus();
  std::once_flag cublaslt_once_;
  std::vector<std::unique_ptr<CublasLtGpu>> cublaslt_;
  std::vector<CublasLtGpu*> cublaslt_gpus_;
#endif
  // Declared last: destroyed first, finishing every completion while the
  // GPUs and the staging pool still exist.
  std::unique_ptr<CompletionThread> completions_;
};

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_DEVICE_GPU_DRIVER_H_
