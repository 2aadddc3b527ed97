// Host memory copies split among a few threads. Transfers from and to
// pageable memory pass through the pinned staging pool, and one thread
// copies 7-10 GB/s into or out of it, far under what the bus moves (about
// 54 GB/s on an H100's PCIe 5 link): where the machine has cores to spare,
// a large copy is shared out.
#ifndef PJRTX_PLUGINS_CUDA_MEMORY_PARALLEL_COPY_H_
#define PJRTX_PLUGINS_CUDA_MEMORY_PARALLEL_COPY_H_

#include <cstddef>
#include <memory>

#include "runtime/core/base/thread_pool.h"

namespace cuda_plugin {

class ParallelCopier {
 public:
  // Copies with up to `threads` threads, the caller's included; 1 or less:
  // every copy on the calling thread.
  explicit ParallelCopier(int threads);

  // A quarter of the machine's hardware threads, from 1 to 8.
  static int DefaultThreads();

  // memcpy(dst, src, bytes), in parts of at least kMinPart bytes on the
  // helper threads and the caller; returns when every part is done.
  void Copy(void* dst, const void* src, size_t bytes) const;

  int threads() const { return threads_; }

  static constexpr size_t kMinPart = size_t{1} << 20;

 private:
  const int threads_;
  std::unique_ptr<pjrtx::ThreadPool> helpers_;  // Null with one thread.
};

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_MEMORY_PARALLEL_COPY_H_
