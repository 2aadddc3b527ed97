#include "plugins/tpu_emu/block_cache.h"

#include <bit>
#include <cstdlib>

namespace tpu_emu {

BlockCache::~BlockCache() {
  for (auto& [size, blocks] : free_) {
    for (void* block : blocks) std::free(block);
  }
}

size_t BlockCache::SizeClass(size_t size) {
  if (size <= 512) return (size + 63) / 64 * 64;
  const size_t step = std::bit_floor(size) / 8;
  return (size + step - 1) / step * step;
}

void* BlockCache::Allocate(size_t size) {
  const size_t rounded = SizeClass(size);
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = free_.find(rounded);
    if (it != free_.end() && !it->second.empty()) {
      void* block = it->second.back();
      it->second.pop_back();
      cached_bytes_ -= rounded;
      return block;
    }
  }
  return std::aligned_alloc(64, rounded);
}

void BlockCache::Free(void* block, size_t size) {
  const size_t rounded = SizeClass(size);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (cached_bytes_ + rounded <= max_cached_bytes_) {
      free_[rounded].push_back(block);
      cached_bytes_ += rounded;
      return;
    }
  }
  std::free(block);
}

size_t BlockCache::cached_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return cached_bytes_;
}

}  // namespace tpu_emu
