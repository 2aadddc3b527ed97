#include "runtime/core/base/memory_space.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace pjrtx {

DeviceAllocation::DeviceAllocation(std::shared_ptr<MemorySpace> space,
                                   DeviceAddress address, size_t size,
                                   absl::AnyInvocable<void() &&> on_release)
    : space_(std::move(space)),
      address_(address),
      size_(size),
      on_release_(std::move(on_release)) {}

DeviceAllocation::~DeviceAllocation() { space_->Release(*this); }

int DeviceAllocation::memory_index() const { return space_->index(); }

MemorySpace::MemorySpace(std::shared_ptr<Driver> driver, int index,
                         MemorySpec spec)
    : driver_(std::move(driver)), index_(index), spec_(std::move(spec)) {}

absl::StatusOr<std::shared_ptr<DeviceAllocation>> MemorySpace::Allocate(
    size_t size) {
  const int64_t bytes = static_cast<int64_t>(size);
  int64_t in_use =
      bytes_in_use_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  if (spec_.bytes_limit > 0 && in_use > spec_.bytes_limit) {
    bytes_in_use_.fetch_sub(bytes, std::memory_order_relaxed);
    return absl::ResourceExhaustedError(absl::StrCat(
        "Out of memory in '", spec_.kind, "' memory ", index_, ": allocating ",
        size, " bytes with ", in_use - bytes,
        " bytes in use would pass the limit of ", spec_.bytes_limit, " bytes"));
  }
  DeviceAddress address;
  if (size > 0) {
    absl::StatusOr<DeviceAddress> allocated = driver_->Allocate(index_, size);
    if (!allocated.ok()) {
      bytes_in_use_.fetch_sub(bytes, std::memory_order_relaxed);
      return allocated.status();
    }
    address = *allocated;
  }
  int64_t peak = peak_bytes_in_use_.load(std::memory_order_relaxed);
  while (in_use > peak && !peak_bytes_in_use_.compare_exchange_weak(
                              peak, in_use, std::memory_order_relaxed)) {
  }
  num_allocs_.fetch_add(1, std::memory_order_relaxed);
  return std::shared_ptr<DeviceAllocation>(
      new DeviceAllocation(shared_from_this(), address, size, nullptr));
}

std::shared_ptr<DeviceAllocation> MemorySpace::WrapExternal(
    DeviceAddress address, size_t size,
    absl::AnyInvocable<void() &&> on_release) {
  std::shared_ptr<DeviceAllocation> allocation(new DeviceAllocation(
      shared_from_this(), address, size, std::move(on_release)));
  allocation->external_ = true;
  return allocation;
}

void MemorySpace::Release(DeviceAllocation& allocation) {
  if (allocation.on_release_ != nullptr) {
    std::move(allocation.on_release_)();
    return;
  }
  if (allocation.size_ > 0) {
    driver_->Free(index_, allocation.address_, allocation.size_);
  }
  bytes_in_use_.fetch_sub(static_cast<int64_t>(allocation.size_),
                          std::memory_order_relaxed);
  num_allocs_.fetch_sub(1, std::memory_order_relaxed);
}

MemoryStats MemorySpace::stats() const {
  MemoryStats stats;
  stats.bytes_in_use = bytes_in_use_.load(std::memory_order_relaxed);
  stats.peak_bytes_in_use = peak_bytes_in_use_.load(std::memory_order_relaxed);
  stats.num_allocs = num_allocs_.load(std::memory_order_relaxed);
  stats.bytes_limit = spec_.bytes_limit;
  return stats;
}

}  // namespace pjrtx
