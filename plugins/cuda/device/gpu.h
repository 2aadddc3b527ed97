// One GPU as the plugin drives it: its primary context, its three streams
// (and a fourth for completion wake-ups),
// its stream-ordered memory pool and its event pool.
#ifndef PJRTX_PLUGINS_CUDA_DEVICE_GPU_H_
#define PJRTX_PLUGINS_CUDA_DEVICE_GPU_H_

#include <cuda.h>

#include <cstdint>
#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "plugins/cuda/driver_api/cuda_api.h"
#include "plugins/cuda/streams/event_pool.h"

namespace cuda_plugin {

// The streams of a GPU. Work on different streams overlaps; the plugin
// orders them with events only, never by waiting on the host.
enum class StreamKind { kCompute = 0, kUpload = 1, kDownload = 2 };
inline constexpr int kNumStreamKinds = 3;

class Gpu {
 public:
  // Retains the primary context of `info.ordinal` (shared with any CUDA
  // runtime user in the process, so DLPack peers see the same memory) and
  // creates the streams and a private memory pool whose release threshold
  // keeps freed memory for reuse instead of returning it at every sync.
  static absl::StatusOr<std::unique_ptr<Gpu>> Open(const DriverApi& api,
                                                   const GpuInfo& info);
  ~Gpu();
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  const GpuInfo& info() const { return info_; }
  CUcontext context() const { return context_; }
  CUstream stream(StreamKind kind) const {
    return streams_[static_cast<int>(kind)];
  }
  // Where the host functions that wake the completion thread wait for
  // their events: a stream of their own, so that they never hold up work.
  CUstream wake_stream() const { return wake_stream_; }
  CUmemoryPool pool() const { return pool_; }
  EventPool& events() { return *events_; }

  // Makes this GPU's context current on the calling thread: every thread
  // that calls the driver needs it, and threads switch between GPUs.
  absl::Status MakeCurrent() const;

  // Makes `waiter` wait (on the GPU) for everything issued to `target` so
  // far.
  absl::Status OrderAfter(CUstream waiter, CUstream target);

  // Free and total device memory as the driver reports them.
  absl::StatusOr<std::pair<size_t, size_t>> MemoryInfo() const;

 private:
  Gpu(const DriverApi& api, GpuInfo info) : api_(api), info_(info) {}

  const DriverApi& api_;
  GpuInfo info_;
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
  CUstream streams_[kNumStreamKinds] = {};
  CUstream wake_stream_ = nullptr;
  CUmemoryPool pool_ = nullptr;
  std::unique_ptr<EventPool> events_;
};

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_DEVICE_GPU_H_
