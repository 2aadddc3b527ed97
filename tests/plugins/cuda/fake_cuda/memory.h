// Device and pinned host memory.
//
// Device memory: each device owns a sparse memfd mapped twice. The
// addresses handed out come from a PROT_NONE view, so a host dereference
// of a device pointer by the plugin segfaults, as it would with a real
// GPU; the fake itself reads and writes through the second, read-write
// view. Allocations are separated by red zones, so an access just past
// one is outside every live allocation. Each device's range is distinct.
//
// Pinned host memory (cuMemHostAlloc, cuMemHostRegister) is ordinary host
// memory the fake tracks: with unified addressing its addresses are valid
// wherever a CUdeviceptr is expected.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUDA_MEMORY_H_
#define PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUDA_MEMORY_H_

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <vector>

#include "tests/plugins/cuda/fake_cuda/driver.h"

namespace fake_cuda {

// A stream-ordered memory pool (CUmemoryPool): attributes and usage
// figures only, since every allocation comes from the device's arena.
class MemPool {
 public:
  MemPool(int device, bool is_default)
      : device_(device), is_default_(is_default) {}
  int device() const { return device_; }
  bool is_default() const { return is_default_; }
  CUresult SetAttribute(CUmemPool_attribute attribute, const void* value);
  CUresult GetAttribute(CUmemPool_attribute attribute, void* value);
  void OnAllocate(uint64_t bytes);
  void OnFree(uint64_t bytes);

 private:
  const int device_;
  const bool is_default_;
  std::mutex mu_;
  int reuse_follow_event_dependencies_ = 1;
  int reuse_allow_opportunistic_ = 1;
  int reuse_allow_internal_dependencies_ = 1;
  uint64_t release_threshold_ = 0;
  uint64_t used_ = 0;
  uint64_t used_high_ = 0;
  uint64_t reserved_high_ = 0;
};

struct Allocation {
  uint64_t address = 0;
  uint64_t size = 0;              // As requested.
  uint64_t offset = 0;            // Of its block (red zone first) in the arena.
  uint64_t block = 0;             // Red zone and rounded size.
  uint64_t charged = 0;           // Counted against the device's memory limit.
  uint64_t id = 0;                // CU_POINTER_ATTRIBUTE_BUFFER_ID.
  std::shared_ptr<MemPool> pool;  // Set for stream-ordered allocations.
  bool free_pending = false;      // cuMemFreeAsync queued.
};

class DeviceArena {
 public:
  // Reserves `span` bytes of address space for `limit` usable bytes;
  // nullptr when the mapping fails.
  static std::unique_ptr<DeviceArena> Create(int device, uint64_t span,
                                             uint64_t limit);
  ~DeviceArena();
  DeviceArena(const DeviceArena&) = delete;
  DeviceArena& operator=(const DeviceArena&) = delete;

  int device() const { return device_; }
  bool Contains(uint64_t address) const { return address - base() < span_; }
  uint64_t base() const { return reinterpret_cast<uintptr_t>(device_view_); }

  // OUT_OF_MEMORY past the limit (or FAKE_CUDA_FAIL_ALLOC_AFTER).
  CUresult Allocate(uint64_t bytes, std::shared_ptr<MemPool> pool,
                    CUdeviceptr* address);
  // INVALID_VALUE unless a live allocation starts at `address` and (with
  // `queued`, for the stream-ordered free) a free was (not) queued for it.
  CUresult Free(uint64_t address, bool queued = false);
  // For cuMemFreeAsync: INVALID_VALUE unless a live allocation starts at
  // `address` and no free is queued for it yet.
  CUresult MarkFreePending(uint64_t address);
  // The allocation containing `address`.
  bool Find(uint64_t address, Allocation* allocation) const;
  // The read-write view of [address, address + size) when it lies in one
  // live allocation, else nullptr.
  void* Translate(uint64_t address, uint64_t size) const;
  // Frees everything (context teardown).
  void FreeAll();
  uint64_t used() const;
  uint64_t limit() const { return limit_; }

 private:
  DeviceArena(int device, int fd, char* device_view, char* host_view,
              uint64_t span, uint64_t limit);
  void ReleaseBlock(const Allocation& allocation);  // Needs mu_ held.

  const int device_;
  const int fd_;
  char* const device_view_;  // PROT_NONE: the addresses handed out.
  char* const host_view_;    // Read-write: what the fake touches.
  const uint64_t span_;
  const uint64_t limit_;

  mutable std::shared_mutex mu_;
  std::map<uint64_t, Allocation> allocations_;  // By address.
  std::map<uint64_t, uint64_t> free_;           // Offset -> length.
  uint64_t used_ = 0;
};

// The arena of `device`, created by its context's first retain; nullptr
// before.
DeviceArena* Arena(int device);
CUresult EnsureArena(int device);
// The arena whose address range holds `address`, or nullptr.
DeviceArena* ArenaContaining(uint64_t address);

struct PinnedRange {
  uintptr_t start = 0;
  size_t size = 0;
  Context* context = nullptr;
  bool allocated = false;  // cuMemHostAlloc (else cuMemHostRegister).
  bool read_only = false;  // CU_MEMHOSTREGISTER_READ_ONLY.
  uint64_t id = 0;
};

// CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED when it overlaps a range.
CUresult AddPinned(const PinnedRange& range);
// Removes the range starting at `start` of the given kind.
bool RemovePinned(uintptr_t start, bool allocated, PinnedRange* removed);
// The pinned range containing [pointer, pointer + size).
bool FindPinned(uintptr_t pointer, size_t size, PinnedRange* range);
// Takes the context's ranges (context teardown).
std::vector<PinnedRange> TakePinned(Context* context);

// A CUdeviceptr argument of a copy or memset: a live device allocation or
// pinned host memory holding [address, address + size); INVALID_VALUE for
// anything else (pageable host memory, a freed or overrun allocation). On
// success `*device` is the owning device (-1 for pinned host memory).
CUresult CheckDevicePointer(CUdeviceptr address, size_t size, bool write,
                            int* device);
// A host pointer argument: INVALID_VALUE for NULL or a device address;
// `*pinned` says whether it is pinned (read when the stream gets there)
// or pageable.
CUresult CheckHostPointer(const void* pointer, size_t size, bool write,
                          bool* pinned);
// At execution time: where the fake may access [address, address + size)
// (device memory of `device`, any device when `device` is -1, or pinned
// host memory), or nullptr when it is no longer live.
void* Translate(uint64_t address, size_t size, bool write, int device = -1);

// A device fault: logs `what` and returns CUDA_ERROR_ILLEGAL_ADDRESS.
CUresult Fault(const char* format, ...) __attribute__((format(printf, 1, 2)));

// The live non-default pools.
HandleTable<MemPool>& Pools();
// The default pool of a device (created on first use).
std::shared_ptr<MemPool> DefaultPool(int device);

}  // namespace fake_cuda

#endif  // PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUDA_MEMORY_H_
