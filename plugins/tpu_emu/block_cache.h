// Host memory blocks for emulated HBM, recycled instead of returned to the
// OS.
#ifndef PJRTX_PLUGINS_TPU_EMU_BLOCK_CACHE_H_
#define PJRTX_PLUGINS_TPU_EMU_BLOCK_CACHE_H_

#include <cstddef>
#include <map>
#include <mutex>
#include <vector>

namespace tpu_emu {

// Emulated chip memory is lazily allocated host memory. Fresh pages cost a
// fault each on first touch, which would make every new buffer pay for
// page faults a real chip never has; so freed blocks are kept by size class
// and handed out again. The cache holds at most `max_cached_bytes`; past
// that, freed blocks go back to the OS. Thread-safe.
class BlockCache {
 public:
  explicit BlockCache(size_t max_cached_bytes)
      : max_cached_bytes_(max_cached_bytes) {}
  ~BlockCache();
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;

  // A 64-byte aligned block of at least `size` (> 0) bytes, or nullptr.
  void* Allocate(size_t size);
  // `size` is the size given to Allocate.
  void Free(void* block, size_t size);

  size_t cached_bytes() const;

  // Rounds up to the size class: 8 classes per power of two, so at most
  // 12.5% is wasted.
  static size_t SizeClass(size_t size);

 private:
  const size_t max_cached_bytes_;
  mutable std::mutex mu_;
  std::map<size_t, std::vector<void*>> free_;  // Guarded by mu_.
  size_t cached_bytes_ = 0;                    // Guarded by mu_.
};

}  // namespace tpu_emu

#endif  // PJRTX_PLUGINS_TPU_EMU_BLOCK_CACHE_H_
