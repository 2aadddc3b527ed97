// A test plugin whose device addresses cannot be read by the host.
//
// Addresses are handed out from a PROT_NONE reservation, so any host
// dereference of device memory (by the runtime core, on behalf of a buffer)
// faults at once. The bytes live in a side table keyed by address. Running
// the conformance suite against this plugin proves the core only moves
// device memory through the driver.
#include <sys/mman.h>

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "runtime/core/abi/plugin_entry.h"
#include "runtime/core/base/driver.h"
#include "runtime/core/base/plugin.h"
#include "support/status_macros.h"

namespace unreadable {

using pjrtx::DeviceAddress;

// 16 GiB of address space that is never readable (reserved, not committed).
constexpr size_t kReservation = size_t{1} << 34;
constexpr int kNumDevices = 2;

class UnreadableMemoryDriver : public pjrtx::Driver {
 public:
  UnreadableMemoryDriver() {
    base_ = mmap(nullptr, kReservation, PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  }
  ~UnreadableMemoryDriver() override {
    if (base_ != MAP_FAILED) munmap(base_, kReservation);
  }

  pjrtx::TopologySpec Describe() override {
    pjrtx::TopologySpec topology;
    topology.platform_version = "unreadable 0.1.0";
    pjrtx::MemorySpec pinned;
    pinned.kind = "pinned_host";
    pinned.kind_code = pjrtx::MemoryKindCode::kPinnedHost;
    for (int i = 0; i < kNumDevices; ++i) {
      pjrtx::DeviceSpec device;
      device.global_id = i;
      device.kind = "unreadable memory device";
      device.to_string = absl::StrCat("UnreadableDevice(id=", i, ")");
      device.debug_string = device.to_string;
      device.memories = {i, kNumDevices};  // Own memory, then shared pinned.
      topology.devices.push_back(device);
      pjrtx::MemorySpec memory;
      memory.kind = "device";
      memory.devices = {i};
      memory.bytes_limit = int64_t{1} << 30;
      topology.memories.push_back(memory);
      pinned.devices.push_back(i);
    }
    topology.memories.push_back(pinned);
    return topology;
  }

  absl::StatusOr<DeviceAddress> Allocate(int memory, size_t size) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (base_ == MAP_FAILED || next_offset_ + size > kReservation) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "Unreadable address space exhausted allocating ", size, " bytes"));
    }
    uintptr_t address = reinterpret_cast<uintptr_t>(base_) + next_offset_;
    next_offset_ += (size + 4095) / 4096 * 4096;  // Never reused.
    blocks_[address] = std::vector<char>(size);
    return DeviceAddress{address};
  }

  void Free(int memory, DeviceAddress address, size_t size) override {
    std::lock_guard<std::mutex> lock(mu_);
    blocks_.erase(address.value);
  }

  absl::Status CopyFromHost(int memory, DeviceAddress dst, const void* src,
                            size_t size) override {
    char* data;
    PJRTX_ASSIGN_OR_RETURN(data, Lookup(dst, size));
    std::memcpy(data, src, size);
    return absl::OkStatus();
  }

  absl::Status CopyToHost(int memory, void* dst, DeviceAddress src,
                          size_t size) override {
    char* data;
    PJRTX_ASSIGN_OR_RETURN(data, Lookup(src, size));
    std::memcpy(dst, data, size);
    return absl::OkStatus();
  }

  absl::Status CopyBetween(int dst_memory, DeviceAddress dst, int src_memory,
                           DeviceAddress src, size_t size) override {
    char* to;
    char* from;
    PJRTX_ASSIGN_OR_RETURN(to, Lookup(dst, size));
    PJRTX_ASSIGN_OR_RETURN(from, Lookup(src, size));
    std::memmove(to, from, size);
    return absl::OkStatus();
  }

 private:
  // The bytes behind [address, address + size), which must lie in one
  // block; INTERNAL naming the address otherwise.
  absl::StatusOr<char*> Lookup(DeviceAddress address, size_t size) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = blocks_.upper_bound(address.value);
    if (it != blocks_.begin()) {
      --it;
      size_t offset = address.value - it->first;
      if (offset + size <= it->second.size()) return it->second.data() + offset;
    }
    return absl::InternalError(
        absl::StrCat("Address 0x", absl::Hex(address.value), " (+", size,
                     " bytes) is not in a live allocation"));
  }

  void* base_ = MAP_FAILED;
  std::mutex mu_;
  size_t next_offset_ = 0;  // Guarded by mu_.
  // Blocks never move once inserted (std::map nodes are stable), so a copy
  // may use the bytes after the lock is released. Guarded by mu_.
  std::map<uintptr_t, std::vector<char>> blocks_;
};

class UnreadableMemoryPlugin : public pjrtx::Plugin {
 public:
  std::string PlatformName() const override { return "unreadable"; }
  std::string Version() const override { return "0.1.0"; }
  std::vector<pjrtx::OptionSpec> OptionSchema() const override {
    return {{"label", std::string("test"), "Free text, unused"}};
  }
  absl::StatusOr<std::unique_ptr<pjrtx::Driver>> CreateDriver(
      const pjrtx::OptionSet& options, pjrtx::KeyValueStore* kv) override {
    return std::make_unique<UnreadableMemoryDriver>();
  }
};

}  // namespace unreadable

PJRTX_DEFINE_PLUGIN(unreadable::UnreadableMemoryPlugin)
