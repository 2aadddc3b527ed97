// Page-locked host memory for transfers, pinned once per client. Pinning
// costs about a second per GiB and copies from pageable memory run at half
// the speed or worse (../shared REFERENCE 2.8), so transfers go through
// these chunks, recycled in completion order, instead of pinning per copy.
#ifndef PJRTX_PLUGINS_CUDA_MEMORY_PINNED_STAGING_POOL_H_
#define PJRTX_PLUGINS_CUDA_MEMORY_PINNED_STAGING_POOL_H_

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "absl/status/statusor.h"
#include "plugins/cuda/driver_api/cuda_api.h"
#include "plugins/cuda/memory/parallel_copy.h"

namespace cuda_plugin {

class PinnedStagingPool {
 public:
  // Pins `num_chunks` x `chunk_bytes` in one cuMemHostAlloc (PORTABLE, so
  // every GPU of the client can use it); needs a current context. Copies
  // into and out of the chunks use up to `copy_threads` threads.
  static absl::StatusOr<std::unique_ptr<PinnedStagingPool>> Create(
      const DriverApi& api, size_t chunk_bytes, int num_chunks,
      int copy_threads = ParallelCopier::DefaultThreads());
  ~PinnedStagingPool();
  PinnedStagingPool(const PinnedStagingPool&) = delete;
  PinnedStagingPool& operator=(const PinnedStagingPool&) = delete;

  size_t chunk_bytes() const { return chunk_bytes_; }
  int num_chunks() const { return num_chunks_; }

  // A free chunk's index, waiting for one to be released if all are in
  // use. Chunks come back in completion order, so the wait is bounded by
  // the transfers already issued.
  int Acquire();
  uint8_t* data(int chunk) const {
    return base_ + static_cast<size_t>(chunk) * chunk_bytes_;
  }
  void Release(int chunk);

  // Copies host memory into or out of the chunks (parallel_copy.h).
  const ParallelCopier& copier() const { return copier_; }

  // Whether [address, address + size) lies in the pool.
  bool Contains(const void* address, size_t size) const;

 private:
  PinnedStagingPool(const DriverApi& api, uint8_t* base, size_t chunk_bytes,
                    int num_chunks, int copy_threads);

  const DriverApi& api_;
  uint8_t* const base_;
  const size_t chunk_bytes_;
  const int num_chunks_;
  const ParallelCopier copier_;
  std::mutex mu_;
  std::condition_variable released_;
  std::vector<int> free_;  // Guarded by mu_.
};

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_MEMORY_PINNED_STAGING_POOL_H_
