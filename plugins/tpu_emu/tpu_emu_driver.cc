#include "plugins/tpu_emu/tpu_emu_driver.h"

#include <cstring>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugins/tpu_emu/stablehlo_program.h"

namespace tpu_emu {
namespace {

void* AsPointer(pjrtx::DeviceAddress address) {
  return reinterpret_cast<void*>(address.value);
}

// Freed blocks kept for reuse, over all chips of the process.
constexpr size_t kMaxCachedBytes = size_t{2} << 30;

}  // namespace

TpuEmuDriver::TpuEmuDriver(DriverConfig config)
    : config_(std::move(config)), cache_(kMaxCachedBytes) {}

pjrtx::TopologySpec TpuEmuDriver::Describe() {
  const JobLayout& layout = config_.layout;
  const SliceShape& slice = layout.slice;
  const int64_t chips = slice.num_chips();
  const int64_t first_local = layout.host_index * layout.chips_per_host();
  const int64_t num_local = layout.chips_per_host();

  pjrtx::TopologySpec topology;
  topology.platform_version = absl::StrCat("0.1.0 (", slice.ToString(), ", ",
                                           layout.num_slices, " slice(s))");
  topology.process_index = static_cast<int>(layout.process_index());
  topology.attributes = {
      {"topology", slice.ToString()},
      {"num_slices", layout.num_slices},
      {"chips_per_slice", chips},
      {"hosts_per_slice", layout.hosts_per_slice},
      {"slice_index", layout.slice_index},
      {"host_index", layout.host_index},
      {"mode", std::string(config_.sync ? "sync" : "async")},
  };

  // Memories: HBM of each local chip, then the host's two host memories.
  const int pinned = static_cast<int>(num_local);
  const int unpinned = pinned + 1;
  for (int64_t i = 0; i < num_local; ++i) {
    pjrtx::MemorySpec hbm;
    hbm.kind = "device";
    hbm.kind_code = pjrtx::MemoryKindCode::kDevice;
    hbm.bytes_limit = config_.hbm_bytes;
    hbm.host_addressable = true;
    // Emulated HBM is host memory.
    hbm.dlpack_device_type = pjrtx::DlpackDeviceType::kCpu;
    topology.memories.push_back(hbm);
  }
  // Host memories: plain host pointers, exchangeable as kDLCPU.
  pjrtx::MemorySpec pinned_host{
      "pinned_host", pjrtx::MemoryKindCode::kPinnedHost, {}, 0,
      true,          pjrtx::DlpackDeviceType::kCpu,      0};
  pjrtx::MemorySpec unpinned_host{"unpinned_host",
                                  pjrtx::MemoryKindCode::kUnpinnedHost,
                                  {},
                                  0,
                                  true,
                                  pjrtx::DlpackDeviceType::kCpu,
                                  0};

  for (int64_t s = 0; s < layout.num_slices; ++s) {
    for (int64_t chip = 0; chip < chips; ++chip) {
      const int64_t host = chip / layout.chips_per_host();
      const bool local = s == layout.slice_index && host == layout.host_index;
      const std::array<int64_t, 3> coords = slice.Coords(chip);
      pjrtx::DeviceSpec device;
      device.global_id = s * chips + chip;
      device.process_index =
          static_cast<int>(s * layout.hosts_per_slice + host);
      device.kind = slice.device_kind;
      device.addressable = local;
      device.to_string =
          absl::StrCat("TpuDevice(id=", device.global_id,
                       ", process_index=", device.process_index, ", coords=(",
                       absl::StrJoin(coords, ","), "), core_on_chip=0)");
      device.debug_string =
          absl::StrCat(device.to_string, " slice ", s, " of ",
                       layout.num_slices, ", ", slice.ToString());
      device.attributes = {
          {"coords", std::vector<int64_t>(coords.begin(), coords.end())},
          {"core_on_chip", int64_t{0}},
          {"slice_index", s},
          {"host_index", host},
      };
      if (local) {
        const int local_index = static_cast<int>(chip - first_local);
        const int device_index = static_cast<int>(topology.devices.size());
        device.memories = {local_index, pinned, unpinned};
        topology.memories[local_index].devices = {device_index};
        pinned_host.devices.push_back(device_index);
        unpinned_host.devices.push_back(device_index);
      }
      topology.devices.push_back(std::move(device));
    }
  }
  topology.memories.push_back(pinned_host);
  topology.memories.push_back(unpinned_host);
  return topology;
}

absl::StatusOr<pjrtx::DeviceAddress> TpuEmuDriver::Allocate(int memory,
                                                            size_t size) {
  void* block = cache_.Allocate(size);
  if (block == nullptr) {
    return absl::ResourceExhaustedError(
        absl::StrCat("Host memory behind emulated memory ", memory,
                     " is exhausted (", size, " bytes requested)"));
  }
  return pjrtx::DeviceAddress{reinterpret_cast<uintptr_t>(block)};
}

void TpuEmuDriver::Free(int memory, pjrtx::DeviceAddress address, size_t size) {
  cache_.Free(AsPointer(address), size);
}

absl::Status TpuEmuDriver::CopyFromHost(int memory, pjrtx::DeviceAddress dst,
                                        const void* src, size_t size) {
  std::memcpy(AsPointer(dst), src, size);
  return absl::OkStatus();
}

absl::StatusOr<pjrtx::CompiledProgram> TpuEmuDriver::Compile(
    std::string_view format, std::string_view code,
    const pjrtx::ProgramOptions& options) {
  return CompileStableHlo(format, code, options, config_.tpu_precision);
}

absl::Status TpuEmuDriver::CopyToHost(int memory, void* dst,
                                      pjrtx::DeviceAddress src, size_t size) {
  std::memcpy(dst, AsPointer(src), size);
  return absl::OkStatus();
}

absl::Status TpuEmuDriver::CopyBetween(int dst_memory, pjrtx::DeviceAddress dst,
                                       int src_memory, pjrtx::DeviceAddress src,
                                       size_t size) {
  std::memmove(AsPointer(dst), AsPointer(src), size);
  return absl::OkStatus();
}

}  // namespace tpu_emu
