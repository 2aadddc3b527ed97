#include "runtime/cpu/storage_pool.h"

#include <new>
#include <utility>

namespace pjrtx::cpu {
namespace {

// Blocks are page multiples, so sizes a few bytes apart share a bucket.
constexpr size_t kPage = size_t{4} << 10;

size_t RoundUp(size_t size) { return (size + kPage - 1) / kPage * kPage; }

}  // namespace

StoragePool::StoragePool(size_t capacity_bytes)
    : capacity_bytes_(capacity_bytes) {}

StoragePool::~StoragePool() {
  for (auto& [size, blocks] : free_) {
    for (uint8_t* block : blocks) delete[] block;
  }
}

std::shared_ptr<uint8_t[]> StoragePool::Take(size_t size) {
  if (size < kMinPooledBytes) {
    return std::make_shared_for_overwrite<uint8_t[]>(size);
  }
  const size_t rounded = RoundUp(size);
  uint8_t* block = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = free_.find(rounded);
    if (it != free_.end() && !it->second.empty()) {
      block = it->second.back();
      it->second.pop_back();
      cached_bytes_ -= rounded;
    }
  }
  if (block == nullptr) block = new uint8_t[rounded];
  return std::shared_ptr<uint8_t[]>(
      block, [this, rounded](uint8_t* freed) { Give(freed, rounded); });
}

void StoragePool::Give(uint8_t* block, size_t size) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (cached_bytes_ + size <= capacity_bytes_) {
      free_[size].push_back(block);
      cached_bytes_ += size;
      return;
    }
  }
  delete[] block;
}

size_t StoragePool::cached_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return cached_bytes_;
}

StoragePool& StoragePool::Shared() {
  // Never destroyed: blocks may be freed by threads that outlive static
  // destruction (a plugin's workers at process exit).
  static StoragePool* pool = new StoragePool(size_t{256} << 20);
  return *pool;
}

}  // namespace pjrtx::cpu
