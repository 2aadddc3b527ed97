#include "plugins/cuda/memory/pinned_staging_pool.h"

#include "plugins/cuda/driver_api/cuda_status.h"

namespace cuda_plugin {

absl::StatusOr<std::unique_ptr<PinnedStagingPool>> PinnedStagingPool::Create(
    const DriverApi& api, size_t chunk_bytes, int num_chunks,
    int copy_threads) {
  void* base = nullptr;
  PJRTX_CUDA_RETURN_IF_ERROR(
      api, cuMemHostAlloc(&base, chunk_bytes * static_cast<size_t>(num_chunks),
                          CU_MEMHOSTALLOC_PORTABLE));
  return std::unique_ptr<PinnedStagingPool>(new PinnedStagingPool(
      api, static_cast<uint8_t*>(base), chunk_bytes, num_chunks, copy_threads));
}

PinnedStagingPool::PinnedStagingPool(const DriverApi& api, uint8_t* base,
                                     size_t chunk_bytes, int num_chunks,
                                     int copy_threads)
    : api_(api),
      base_(base),
      chunk_bytes_(chunk_bytes),
      num_chunks_(num_chunks),
      copier_(copy_threads) {
  // Handed out lowest first, which keeps recently used chunks warm.
  for (int chunk = num_chunks - 1; chunk >= 0; --chunk) free_.push_back(chunk);
}

PinnedStagingPool::~PinnedStagingPool() { api_.cuMemFreeHost(base_); }

int PinnedStagingPool::Acquire() {
  std::unique_lock<std::mutex> lock(mu_);
  released_.wait(lock, [this] { return !free_.empty(); });
  const int chunk = free_.back();
  free_.pop_back();
  return chunk;
}

void PinnedStagingPool::Release(int chunk) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    free_.push_back(chunk);
  }
  released_.notify_one();
}

bool PinnedStagingPool::Contains(const void* address, size_t size) const {
  const uint8_t* p = static_cast<const uint8_t*>(address);
  const size_t total = chunk_bytes_ * static_cast<size_t>(num_chunks_);
  return p >= base_ && size <= total &&
         p - base_ <= static_cast<ptrdiff_t>(total - size);
}

}  // namespace cuda_plugin
