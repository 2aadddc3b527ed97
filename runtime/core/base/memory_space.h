// One memory of a client: allocation through the driver, limit accounting,
// statistics.
#ifndef PJRTX_RUNTIME_CORE_BASE_MEMORY_SPACE_H_
#define PJRTX_RUNTIME_CORE_BASE_MEMORY_SPACE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "runtime/core/base/driver.h"
#include "runtime/core/base/event.h"

namespace pjrtx {

class MemorySpace;

// A block of memory. Freed when the last reference goes, which is how
// deletion is deferred: every operation in flight holds a reference until it
// completes. Thread-compatible after construction.
class DeviceAllocation {
 public:
  ~DeviceAllocation();
  DeviceAllocation(const DeviceAllocation&) = delete;
  DeviceAllocation& operator=(const DeviceAllocation&) = delete;

  DeviceAddress address() const { return address_; }
  size_t size() const { return size_; }
  int memory_index() const;

 private:
  friend class MemorySpace;
  DeviceAllocation(std::shared_ptr<MemorySpace> space, DeviceAddress address,
                   size_t size, EventRef release_event);

  std::shared_ptr<MemorySpace> space_;  // Keeps the driver alive.
  DeviceAddress address_;
  size_t size_;
  // Set instead of freeing when the block aliases host memory.
  EventRef release_event_;
};

struct MemoryStats {
  int64_t bytes_in_use = 0;
  int64_t peak_bytes_in_use = 0;
  int64_t num_allocs = 0;
  int64_t bytes_limit = 0;
};

// Thread-safe.
class MemorySpace : public std::enable_shared_from_this<MemorySpace> {
 public:
  MemorySpace(std::shared_ptr<Driver> driver, int index, MemorySpec spec);

  // RESOURCE_EXHAUSTED naming the sizes when the limit would be passed.
  // Size 0 is allowed and allocates nothing.
  absl::StatusOr<std::shared_ptr<DeviceAllocation>> Allocate(size_t size);

  // Wraps host memory in place (spec().host_addressable must be true).
  // `release_event` is set when the last reference goes.
  std::shared_ptr<DeviceAllocation> AliasHostMemory(const void* data,
                                                    size_t size,
                                                    EventRef release_event);

  MemoryStats stats() const;
  const MemorySpec& spec() const { return spec_; }
  int index() const { return index_; }
  Driver& driver() const { return *driver_; }

 private:
  friend class DeviceAllocation;
  void Release(DeviceAllocation& allocation);

  const std::shared_ptr<Driver> driver_;
  const int index_;
  const MemorySpec spec_;
  std::atomic<int64_t> bytes_in_use_{0};
  std::atomic<int64_t> peak_bytes_in_use_{0};
  std::atomic<int64_t> num_allocs_{0};
};

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_CORE_BASE_MEMORY_SPACE_H_
