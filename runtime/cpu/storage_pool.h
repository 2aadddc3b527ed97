// Recycled storage for the CPU engine's large intermediate values.
//
// A training step makes the same few hundred intermediates, many of them
// megabytes, every step. Taken from malloc and given back, each large block
// is a fresh mapping on a worker's arena: the kernel zeroes and maps it page
// by page on first touch and unmaps it when it is freed, which cost a
// quarter of a 512-wide MLP step. The pool keeps freed blocks, by size, up
// to a cap, and hands them out again already mapped.
#ifndef PJRTX_RUNTIME_CPU_STORAGE_POOL_H_
#define PJRTX_RUNTIME_CPU_STORAGE_POOL_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace pjrtx::cpu {

class StoragePool {
 public:
  // Blocks below this are left to malloc, which recycles them itself.
  static constexpr size_t kMinPooledBytes = size_t{64} << 10;

  // `capacity_bytes`: the most the pool keeps while no one uses it.
  explicit StoragePool(size_t capacity_bytes);
  ~StoragePool();
  StoragePool(const StoragePool&) = delete;
  StoragePool& operator=(const StoragePool&) = delete;

  // `size` bytes (contents unspecified), freed into the pool when the last
  // reference goes; the pool must outlive the block (the process-wide pool
  // does). Thread-safe.
  std::shared_ptr<uint8_t[]> Take(size_t size);

  // The process-wide pool the engine's values use (256 MiB cap).
  static StoragePool& Shared();

  size_t cached_bytes() const;

 private:
  void Give(uint8_t* block, size_t size);

  const size_t capacity_bytes_;
  mutable std::mutex mu_;
  std::map<size_t, std::vector<uint8_t*>> free_;  // Guarded by mu_.
  size_t cached_bytes_ = 0;                       // Guarded by mu_.
};

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_STORAGE_POOL_H_
