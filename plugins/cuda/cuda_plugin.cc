// libpjrt_cuda.so: NVIDIA GPUs through the CUDA Driver API, loaded at run
// time (cuda_driver.h). This version finds the driver and the GPUs and
// says precisely why it cannot use them; it exposes no devices yet, since
// device memory, streams and programs are still to come.
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugins/cuda/cuda_driver.h"
#include "runtime/core/abi/plugin_entry.h"
#include "runtime/core/base/plugin.h"

namespace cuda_plugin {
namespace {

std::string Describe(const GpuInfo& gpu) {
  return absl::StrCat(gpu.ordinal, ": ", gpu.name, " (sm_", gpu.compute_major,
                      gpu.compute_minor, ", ", gpu.sm_count, " SMs, ",
                      gpu.memory_bytes >> 20, " MiB, PCI ", gpu.pci_bus_id,
                      ")");
}

// A client without devices: what a framework gets where the plugin cannot
// drive any GPU, so that it can still ask why and carry on.
class NoDeviceDriver : public pjrtx::Driver {
 public:
  pjrtx::TopologySpec Describe() override {
    pjrtx::TopologySpec topology;
    const Discovery& found = Discover();
    topology.platform_version =
        found.driver_version > 0
            ? absl::StrCat("CUDA driver ", found.driver_version / 1000, ".",
                           found.driver_version % 1000 / 10)
            : "no CUDA driver";
    return topology;
  }
  absl::StatusOr<pjrtx::DeviceAddress> Allocate(int, size_t) override {
    return NoDevice();
  }
  void Free(int, pjrtx::DeviceAddress, size_t) override {}
  absl::Status CopyFromHost(int, pjrtx::DeviceAddress, const void*,
                            size_t) override {
    return NoDevice();
  }
  absl::Status CopyToHost(int, void*, pjrtx::DeviceAddress, size_t) override {
    return NoDevice();
  }
  absl::Status CopyBetween(int, pjrtx::DeviceAddress, int, pjrtx::DeviceAddress,
                           size_t) override {
    return NoDevice();
  }

 private:
  // Unreachable through the ABI (there is no device or memory to name);
  // kept as an error rather than an abort all the same.
  static absl::Status NoDevice() {
    return absl::FailedPreconditionError(
        "the CUDA plugin has no usable device; see pjrtx.unavailable_reason");
  }
};

class CudaPlugin : public pjrtx::Plugin {
 public:
  std::string PlatformName() const override { return "cuda"; }
  std::string Version() const override { return "0.1.0"; }

  std::string UnavailableReason() const override {
    const Discovery& found = Discover();
    if (!found.unavailable_reason.empty()) return found.unavailable_reason;
    std::vector<std::string> gpus;
    for (const GpuInfo& gpu : found.gpus) gpus.push_back(Describe(gpu));
    return absl::StrCat(
        "found ", found.gpus.size(), " CUDA device(s) [",
        absl::StrJoin(gpus, "; "),
        "], but this version of libpjrt_cuda.so cannot run work on them yet "
        "(device memory, streams and programs are not built)");
  }

  std::vector<pjrtx::Attribute> Attributes() const override {
    const Discovery& found = Discover();
    return {{"cuda.driver_path", found.driver_path},
            {"cuda.driver_version", int64_t{found.driver_version}},
            {"cuda.gpus_found", static_cast<int64_t>(found.gpus.size())}};
  }

  absl::StatusOr<std::unique_ptr<pjrtx::Driver>> CreateDriver(
      const pjrtx::OptionSet&, pjrtx::KeyValueStore*) override {
    return std::make_unique<NoDeviceDriver>();
  }
};

}  // namespace
}  // namespace cuda_plugin

PJRTX_DEFINE_PLUGIN(cuda_plugin::CudaPlugin)
