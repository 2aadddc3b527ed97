#include "tests/plugins/cuda/fake_cuda/memory.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "tests/plugins/cuda/fake_cuda/config.h"
#include "tests/plugins/cuda/fake_cuda/fault_injection.h"

namespace fake_cuda {
namespace {

// cuMemAlloc's alignment; also the red zone in front of every block.
constexpr uint64_t kAlignment = 512;

uint64_t RoundUp(uint64_t value, uint64_t unit) {
  return (value + unit - 1) / unit * unit;
}

std::atomic<uint64_t> next_buffer_id{1};

std::atomic<DeviceArena*> arenas[kMaxDevices];
std::mutex arena_creation_mu;

struct PinnedRegistry {
  std::shared_mutex mu;
  std::map<uintptr_t, PinnedRange> ranges;  // By start; guarded by mu.
};

PinnedRegistry& Pinned() {
  static auto* pinned = new PinnedRegistry;
  return *pinned;
}

}  // namespace

CUresult MemPool::SetAttribute(CUmemPool_attribute attribute,
                               const void* value) {
  if (value == nullptr) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::mutex> lock(mu_);
  switch (attribute) {
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
      reuse_follow_event_dependencies_ = *static_cast<const int*>(value);
      return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
      reuse_allow_opportunistic_ = *static_cast<const int*>(value);
      return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
      reuse_allow_internal_dependencies_ = *static_cast<const int*>(value);
      return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
      release_threshold_ = *static_cast<const cuuint64_t*>(value);
      return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
    case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
      // Only a reset to zero is allowed.
      if (*static_cast<const cuuint64_t*>(value) != 0) {
        return CUDA_ERROR_INVALID_VALUE;
      }
      if (attribute == CU_MEMPOOL_ATTR_USED_MEM_HIGH) {
        used_high_ = used_;
      } else {
        reserved_high_ = used_;
      }
      return CUDA_SUCCESS;
    default:
      return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult MemPool::GetAttribute(CUmemPool_attribute attribute, void* value) {
  if (value == nullptr) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::mutex> lock(mu_);
  auto* as_int = static_cast<int*>(value);
  auto* as_u64 = static_cast<cuuint64_t*>(value);
  switch (attribute) {
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
      *as_int = reuse_follow_event_dependencies_;
      return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
      *as_int = reuse_allow_opportunistic_;
      return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
      *as_int = reuse_allow_internal_dependencies_;
      return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
      *as_u64 = release_threshold_;
      return CUDA_SUCCESS;
    // The fake caches nothing: what is reserved is what is in use.
    case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
    case CU_MEMPOOL_ATTR_USED_MEM_CURRENT:
      *as_u64 = used_;
      return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
      *as_u64 = reserved_high_;
      return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
      *as_u64 = used_high_;
      return CUDA_SUCCESS;
    default:
      return CUDA_ERROR_INVALID_VALUE;
  }
}

void MemPool::OnAllocate(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  used_ += bytes;
  used_high_ = std::max(used_high_, used_);
  reserved_high_ = std::max(reserved_high_, used_);
}

void MemPool::OnFree(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  used_ -= std::min(used_, bytes);
}

std::unique_ptr<DeviceArena> DeviceArena::Create(int device, uint64_t span,
                                                 uint64_t limit) {
  char name[32];
  std::snprintf(name, sizeof(name), "fake_cuda_device_%d", device);
  const int fd = memfd_create(name, MFD_CLOEXEC);
  if (fd < 0) return nullptr;
  // Sparse: pages exist only once written.
  if (ftruncate(fd, static_cast<off_t>(span)) != 0) {
    close(fd);
    return nullptr;
  }
  void* device_view =
      mmap(nullptr, span, PROT_NONE, MAP_SHARED | MAP_NORESERVE, fd, 0);
  if (device_view == MAP_FAILED) {
    close(fd);
    return nullptr;
  }
  void* host_view = mmap(nullptr, span, PROT_READ | PROT_WRITE,
                         MAP_SHARED | MAP_NORESERVE, fd, 0);
  if (host_view == MAP_FAILED) {
    munmap(device_view, span);
    close(fd);
    return nullptr;
  }
  return std::unique_ptr<DeviceArena>(
      new DeviceArena(device, fd, static_cast<char*>(device_view),
                      static_cast<char*>(host_view), span, limit));
}

DeviceArena::DeviceArena(int device, int fd, char* device_view, char* host_view,
                         uint64_t span, uint64_t limit)
    : device_(device),
      fd_(fd),
      device_view_(device_view),
      host_view_(host_view),
      span_(span),
      limit_(limit) {
  free_.emplace(0, span);
}

DeviceArena::~DeviceArena() {
  munmap(device_view_, span_);
  munmap(host_view_, span_);
  close(fd_);
}

CUresult DeviceArena::Allocate(uint64_t bytes, std::shared_ptr<MemPool> pool,
                               CUdeviceptr* address) {
  if (bytes == 0 || bytes > span_) return CUDA_ERROR_INVALID_VALUE;
  if (AllocationFails()) return CUDA_ERROR_OUT_OF_MEMORY;
  const uint64_t charged = RoundUp(bytes, kAlignment);
  const uint64_t block = charged + kAlignment;
  std::unique_lock<std::shared_mutex> lock(mu_);
  if (used_ + charged > limit_) return CUDA_ERROR_OUT_OF_MEMORY;
  auto it = free_.begin();
  while (it != free_.end() && it->second < block) ++it;
  if (it == free_.end()) return CUDA_ERROR_OUT_OF_MEMORY;
  const uint64_t offset = it->first;
  const uint64_t remaining = it->second - block;
  free_.erase(it);
  if (remaining > 0) free_.emplace(offset + block, remaining);
  Allocation allocation;
  allocation.address = base() + offset + kAlignment;
  allocation.size = bytes;
  allocation.offset = offset;
  allocation.block = block;
  allocation.charged = charged;
  allocation.id = next_buffer_id.fetch_add(1);
  allocation.pool = std::move(pool);
  if (allocation.pool != nullptr) allocation.pool->OnAllocate(charged);
  used_ += charged;
  *address = allocation.address;
  allocations_.emplace(allocation.address, std::move(allocation));
  return CUDA_SUCCESS;
}

void DeviceArena::ReleaseBlock(const Allocation& allocation) {
  used_ -= allocation.charged;
  if (allocation.pool != nullptr) allocation.pool->OnFree(allocation.charged);
  // Give the whole pages back to the system; they read as zeros next time.
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  const uint64_t first = RoundUp(allocation.offset, page);
  const uint64_t last = (allocation.offset + allocation.block) / page * page;
  if (last > first) {
    fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
              static_cast<off_t>(first), static_cast<off_t>(last - first));
  }
  uint64_t offset = allocation.offset;
  uint64_t length = allocation.block;
  auto next = free_.lower_bound(offset);
  if (next != free_.end() && next->first == offset + length) {
    length += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto previous = std::prev(next);
    if (previous->first + previous->second == offset) {
      offset = previous->first;
      length += previous->second;
      free_.erase(previous);
    }
  }
  free_.emplace(offset, length);
}

CUresult DeviceArena::Free(uint64_t address, bool queued) {
  std::unique_lock<std::shared_mutex> lock(mu_);
  auto it = allocations_.find(address);
  if (it == allocations_.end() || it->second.free_pending != queued) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  ReleaseBlock(it->second);
  allocations_.erase(it);
  return CUDA_SUCCESS;
}

CUresult DeviceArena::MarkFreePending(uint64_t address) {
  std::unique_lock<std::shared_mutex> lock(mu_);
  auto it = allocations_.find(address);
  if (it == allocations_.end() || it->second.free_pending) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  it->second.free_pending = true;
  return CUDA_SUCCESS;
}

bool DeviceArena::Find(uint64_t address, Allocation* allocation) const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  auto it = allocations_.upper_bound(address);
  if (it == allocations_.begin()) return false;
  --it;
  if (address - it->second.address >= it->second.size) return false;
  *allocation = it->second;
  return true;
}

void* DeviceArena::Translate(uint64_t address, uint64_t size) const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  auto it = allocations_.upper_bound(address);
  if (it == allocations_.begin()) return nullptr;
  --it;
  const Allocation& allocation = it->second;
  const uint64_t start = address - allocation.address;
  if (start >= allocation.size || size > allocation.size - start) {
    return nullptr;
  }
  return host_view_ + (address - base());
}

void DeviceArena::FreeAll() {
  std::unique_lock<std::shared_mutex> lock(mu_);
  for (const auto& [address, allocation] : allocations_) {
    ReleaseBlock(allocation);
  }
  allocations_.clear();
}

uint64_t DeviceArena::used() const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  return used_;
}

DeviceArena* Arena(int device) {
  if (device < 0 || device >= kMaxDevices) return nullptr;
  return arenas[device].load(std::memory_order_acquire);
}

CUresult EnsureArena(int device) {
  if (Arena(device) != nullptr) return CUDA_SUCCESS;
  std::lock_guard<std::mutex> lock(arena_creation_mu);
  if (Arena(device) != nullptr) return CUDA_SUCCESS;
  const Config& config = GetConfig();
  // Never destroyed: stale device pointers must keep faulting, not land
  // in whatever the address space is reused for.
  DeviceArena* arena =
      DeviceArena::Create(device, config.address_span, config.memory_bytes)
          .release();
  if (arena == nullptr) return CUDA_ERROR_OUT_OF_MEMORY;
  arenas[device].store(arena, std::memory_order_release);
  return CUDA_SUCCESS;
}

DeviceArena* ArenaContaining(uint64_t address) {
  for (int device = 0; device < kMaxDevices; ++device) {
    DeviceArena* arena = Arena(device);
    if (arena != nullptr && arena->Contains(address)) return arena;
  }
  return nullptr;
}

CUresult AddPinned(const PinnedRange& range) {
  PinnedRegistry& pinned = Pinned();
  std::unique_lock<std::shared_mutex> lock(pinned.mu);
  auto next = pinned.ranges.lower_bound(range.start);
  if (next != pinned.ranges.end() && next->first < range.start + range.size) {
    return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
  }
  if (next != pinned.ranges.begin()) {
    const PinnedRange& previous = std::prev(next)->second;
    if (previous.start + previous.size > range.start) {
      return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    }
  }
  pinned.ranges.emplace(range.start, range);
  return CUDA_SUCCESS;
}

bool RemovePinned(uintptr_t start, bool allocated, PinnedRange* removed) {
  PinnedRegistry& pinned = Pinned();
  std::unique_lock<std::shared_mutex> lock(pinned.mu);
  auto it = pinned.ranges.find(start);
  if (it == pinned.ranges.end() || it->second.allocated != allocated) {
    return false;
  }
  *removed = it->second;
  pinned.ranges.erase(it);
  return true;
}

bool FindPinned(uintptr_t pointer, size_t size, PinnedRange* range) {
  PinnedRegistry& pinned = Pinned();
  std::shared_lock<std::shared_mutex> lock(pinned.mu);
  auto it = pinned.ranges.upper_bound(pointer);
  if (it == pinned.ranges.begin()) return false;
  --it;
  const PinnedRange& found = it->second;
  const uintptr_t start = pointer - found.start;
  if (start >= found.size || size > found.size - start) return false;
  *range = found;
  return true;
}

std::vector<PinnedRange> TakePinned(Context* context) {
  PinnedRegistry& pinned = Pinned();
  std::unique_lock<std::shared_mutex> lock(pinned.mu);
  std::vector<PinnedRange> taken;
  for (auto it = pinned.ranges.begin(); it != pinned.ranges.end();) {
    if (it->second.context == context) {
      taken.push_back(it->second);
      it = pinned.ranges.erase(it);
    } else {
      ++it;
    }
  }
  return taken;
}

CUresult CheckDevicePointer(CUdeviceptr address, size_t size, bool write,
                            int* device) {
  if (DeviceArena* arena = ArenaContaining(address); arena != nullptr) {
    if (arena->Translate(address, size) == nullptr) {
      return CUDA_ERROR_INVALID_VALUE;
    }
    *device = arena->device();
    return CUDA_SUCCESS;
  }
  PinnedRange range;
  if (!FindPinned(address, size, &range) || (write && range.read_only)) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  *device = -1;
  return CUDA_SUCCESS;
}

CUresult CheckHostPointer(const void* pointer, size_t size, bool write,
                          bool* pinned) {
  const auto address = reinterpret_cast<uintptr_t>(pointer);
  if (pointer == nullptr || ArenaContaining(address) != nullptr) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  PinnedRange range;
  *pinned = FindPinned(address, size, &range);
  if (*pinned && write && range.read_only) return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

void* Translate(uint64_t address, size_t size, bool write, int device) {
  if (DeviceArena* arena = ArenaContaining(address); arena != nullptr) {
    if (device >= 0 && arena->device() != device) return nullptr;
    return arena->Translate(address, size);
  }
  PinnedRange range;
  if (!FindPinned(address, size, &range) || (write && range.read_only)) {
    return nullptr;
  }
  return reinterpret_cast<void*>(address);
}

CUresult Fault(const char* format, ...) {
  char message[512];
  va_list arguments;
  va_start(arguments, format);
  std::vsnprintf(message, sizeof(message), format, arguments);
  va_end(arguments);
  std::fprintf(stderr,
               "fake_cuda: device fault (CUDA_ERROR_ILLEGAL_ADDRESS): %s\n",
               message);
  return CUDA_ERROR_ILLEGAL_ADDRESS;
}

HandleTable<MemPool>& Pools() {
  static auto* pools = new HandleTable<MemPool>;
  return *pools;
}

std::shared_ptr<MemPool> DefaultPool(int device) {
  static std::mutex mu;
  static auto* pools = new std::shared_ptr<MemPool>[kMaxDevices];
  std::lock_guard<std::mutex> lock(mu);
  if (pools[device] == nullptr) {
    pools[device] = std::make_shared<MemPool>(device, /*is_default=*/true);
    Pools().Add<CUmemoryPool>(pools[device]);
  }
  return pools[device];
}

}  // namespace fake_cuda
