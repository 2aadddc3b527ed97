// libpjrt_cuda.so: NVIDIA GPUs through the CUDA Driver API, loaded at run
// time (cuda_driver.h). Where no GPU can be used, the plugin still loads,
// reports zero devices and says precisely why (pjrtx.unavailable_reason).
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugins/cuda/cuda_driver.h"
#include "plugins/cuda/gpu_driver.h"
#include "plugins/cuda/no_device_driver.h"
#include "runtime/core/abi/plugin_entry.h"
#include "runtime/core/base/plugin.h"
#include "runtime/core/base/status_macros.h"

namespace cuda_plugin {
namespace {

std::string Describe(const GpuInfo& gpu) {
  return absl::StrCat(gpu.ordinal, ": ", gpu.name, " (sm_", gpu.compute_major,
                      gpu.compute_minor, ", ", gpu.sm_count, " SMs, ",
                      gpu.memory_bytes >> 20, " MiB, PCI ", gpu.pci_bus_id,
                      ")");
}

class CudaPlugin : public pjrtx::Plugin {
 public:
  std::string PlatformName() const override { return "cuda"; }
  std::string Version() const override { return "0.1.0"; }

  std::vector<std::string> Capabilities() const override {
    return {"dlpack", "execute"};
  }

  std::string UnavailableReason() const override {
    return Discover().unavailable_reason;
  }

  std::vector<pjrtx::Attribute> Attributes() const override {
    const Discovery& found = Discover();
    std::vector<std::string> gpus;
    for (const GpuInfo& gpu : found.gpus) gpus.push_back(Describe(gpu));
    return {{"cuda.driver_path", found.driver_path},
            {"cuda.driver_version", int64_t{found.driver_version}},
            {"cuda.gpus_found", static_cast<int64_t>(found.gpus.size())},
            {"cuda.gpus", absl::StrJoin(gpus, "; ")}};
  }

  absl::StatusOr<std::unique_ptr<pjrtx::Driver>> CreateDriver(
      const pjrtx::OptionSet&, pjrtx::KeyValueStore*) override {
    const Discovery& found = Discover();
    if (!found.unavailable_reason.empty()) {
      return std::make_unique<NoDeviceDriver>(found);
    }
    PJRTX_ASSIGN_OR_RETURN(std::unique_ptr<GpuDriver> driver,
                           GpuDriver::Create(found, GpuDriverOptions()));
    return driver;
  }
};

}  // namespace
}  // namespace cuda_plugin

PJRTX_DEFINE_PLUGIN(cuda_plugin::CudaPlugin)
