// One memory of a client: allocation through the driver, limit accounting,
// statistics.
#ifndef PJRTX_RUNTIME_CORE_BASE_MEMORY_SPACE_H_
#define PJRTX_RUNTIME_CORE_BASE_MEMORY_SPACE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/functional/any_invocable.h"
#include "absl/status/statusor.h"
#include "runtime/core/base/driver.h"

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
  // Memory the runtime does not own (MemorySpace::WrapExternal): a run must
  // not write it, even when the buffer over it is donated.
  bool external() const { return external_; }

 private:
  friend class MemorySpace;
  DeviceAllocation(std::shared_ptr<MemorySpace> space, DeviceAddress address,
                   size_t size, absl::AnyInvocable<void() &&> on_release);

  std::shared_ptr<MemorySpace> space_;  // Keeps the driver alive.
  DeviceAddress address_;
  size_t size_;
  // Runs instead of freeing when the block is memory the runtime does not
  // own (aliased host data, an imported DLPack tensor).
  absl::AnyInvocable<void() &&> on_release_;
  bool external_ = false;
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

  // Wraps memory the runtime does not own (host data when
  // spec().host_addressable, an imported DLPack tensor) without accounting
  // it. `on_release` runs when the last reference goes.
  std::shared_ptr<DeviceAllocation> WrapExternal(
      DeviceAddress address, size_t size,
      absl::AnyInvocable<void() &&> on_release);

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
