// A complete pjrtx device plugin: `device_count` devices whose memory is
// ordinary host memory. Everything the C ABI needs beyond these primitives
// (queues, events, buffers, accounting, checks) comes from the runtime core.
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "runtime/core/abi/plugin_entry.h"
#include "runtime/core/base/driver.h"
#include "runtime/core/base/plugin.h"

namespace minimal {

using pjrtx::DeviceAddress;

void* AsPointer(DeviceAddress address) {
  return reinterpret_cast<void*>(address.value);
}

class HostMemoryDriver : public pjrtx::Driver {
 public:
  explicit HostMemoryDriver(int num_devices) : num_devices_(num_devices) {}

  pjrtx::TopologySpec Describe() override {
    pjrtx::TopologySpec topology;
    topology.platform_version = "minimal 0.1.0";
    for (int i = 0; i < num_devices_; ++i) {
      pjrtx::DeviceSpec device;
      device.global_id = i;
      device.kind = "host memory device";
      device.to_string = absl::StrCat("MinimalDevice(id=", i, ")");
      device.debug_string = absl::StrCat(device.to_string, " in host RAM");
      device.memories = {i};
      topology.devices.push_back(device);

      pjrtx::MemorySpec memory;
      memory.kind = "device";
      memory.devices = {i};
      memory.host_addressable = true;  // Zero-copy host buffers alias.
      topology.memories.push_back(memory);
    }
    return topology;
  }

  absl::StatusOr<DeviceAddress> Allocate(int memory, size_t size) override {
    // 64-byte alignment, like a real device allocator (size rounded up).
    void* block = std::aligned_alloc(64, (size + 63) / 64 * 64);
    if (block == nullptr) {
      return absl::ResourceExhaustedError(
          absl::StrCat("Host allocation of ", size, " bytes failed"));
    }
    return DeviceAddress{reinterpret_cast<uintptr_t>(block)};
  }

  void Free(int memory, DeviceAddress address, size_t size) override {
    std::free(AsPointer(address));
  }

  absl::Status CopyFromHost(int memory, DeviceAddress dst, const void* src,
                            size_t size) override {
    std::memcpy(AsPointer(dst), src, size);
    return absl::OkStatus();
  }

  absl::Status CopyToHost(int memory, void* dst, DeviceAddress src,
                          size_t size) override {
    std::memcpy(dst, AsPointer(src), size);
    return absl::OkStatus();
  }

  absl::Status CopyBetween(int dst_memory, DeviceAddress dst, int src_memory,
                           DeviceAddress src, size_t size) override {
    std::memcpy(AsPointer(dst), AsPointer(src), size);
    return absl::OkStatus();
  }

 private:
  const int num_devices_;
};

class MinimalPlugin : public pjrtx::Plugin {
 public:
  std::string PlatformName() const override { return "minimal"; }
  std::string Version() const override { return "0.1.0"; }

  std::vector<pjrtx::OptionSpec> OptionSchema() const override {
    return {{"device_count", int64_t{2}, "Number of devices (1..1024)"}};
  }

  absl::StatusOr<std::unique_ptr<pjrtx::Driver>> CreateDriver(
      const pjrtx::OptionSet& options, pjrtx::KeyValueStore* kv) override {
    int64_t count = options.GetInt64("device_count");
    if (count < 1 || count > 1024) {
      return absl::InvalidArgumentError(
          absl::StrCat("Option device_count is ", count, "; expected 1..1024"));
    }
    return std::make_unique<HostMemoryDriver>(static_cast<int>(count));
  }
};

}  // namespace minimal

PJRTX_DEFINE_PLUGIN(minimal::MinimalPlugin)
