// The driver of a client where the plugin can drive no GPU: zero devices,
// so that a framework can still create a client, ask why and carry on.
#ifndef PJRTX_PLUGINS_CUDA_DEVICE_NO_DEVICE_DRIVER_H_
#define PJRTX_PLUGINS_CUDA_DEVICE_NO_DEVICE_DRIVER_H_

#include "absl/strings/str_cat.h"
#include "plugins/cuda/driver_api/cuda_api.h"
#include "runtime/core/base/driver.h"

namespace cuda_plugin {

class NoDeviceDriver : public pjrtx::Driver {
 public:
  explicit NoDeviceDriver(const Discovery& found) : found_(found) {}

  pjrtx::TopologySpec Describe() override {
    pjrtx::TopologySpec topology;
    topology.platform_version =
        found_.driver_version > 0
            ? absl::StrCat("CUDA driver ", found_.driver_version / 1000, ".",
                           found_.driver_version % 1000 / 10)
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
  absl::Status NoDevice() const {
    return absl::FailedPreconditionError(absl::StrCat(
        "the CUDA plugin has no usable device: ", found_.unavailable_reason));
  }

  const Discovery& found_;
};

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_DEVICE_NO_DEVICE_DRIVER_H_
