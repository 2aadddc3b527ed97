// The TPU emulator's driver: chips of a slice (and the slices of a pod)
// whose HBM is host memory.
#ifndef PJRTX_PLUGINS_TPU_EMU_TPU_EMU_DRIVER_H_
#define PJRTX_PLUGINS_TPU_EMU_TPU_EMU_DRIVER_H_

#include <cstdint>

#include "plugins/tpu_emu/block_cache.h"
#include "plugins/tpu_emu/topology.h"
#include "runtime/core/base/driver.h"

namespace tpu_emu {

struct DriverConfig {
  JobLayout layout;
  int64_t hbm_bytes = int64_t{1} << 30;  // Per chip.
  bool sync = false;                     // One worker thread for all chips.
  // f32 dots as one bf16 pass (matmul_precision=tpu) instead of exact f32.
  bool tpu_precision = false;
  // Bandwidth of each chip's link to other slices (DCN) in GB/s; 0: as
  // fast as the transport goes.
  double dcn_gbps = 0;
};

// Devices: every chip of every slice (global id = slice index x chips per
// slice + linear chip index), this host's chips addressable. Memories: one
// `device` (HBM) memory per addressable chip with the hbm_bytes limit, and
// `pinned_host` and `unpinned_host` memories shared by this host's chips.
class TpuEmuDriver : public pjrtx::Driver {
 public:
  explicit TpuEmuDriver(DriverConfig config);

  pjrtx::TopologySpec Describe() override;
  absl::StatusOr<pjrtx::DeviceAddress> Allocate(int memory,
                                                size_t size) override;
  void Free(int memory, pjrtx::DeviceAddress address, size_t size) override;
  absl::Status CopyFromHost(int memory, pjrtx::DeviceAddress dst,
                            const void* src, size_t size) override;
  absl::Status CopyToHost(int memory, void* dst, pjrtx::DeviceAddress src,
                          size_t size) override;
  absl::Status CopyBetween(int dst_memory, pjrtx::DeviceAddress dst,
                           int src_memory, pjrtx::DeviceAddress src,
                           size_t size) override;
  absl::StatusOr<pjrtx::CompiledProgram> Compile(
      std::string_view format, std::string_view code,
      const pjrtx::ProgramOptions& options) override;
  int NumWorkerThreads() const override { return config_.sync ? 1 : 0; }
  const DriverConfig& config() const { return config_; }

 private:
  const DriverConfig config_;
  BlockCache cache_;
};

}  // namespace tpu_emu

#endif  // PJRTX_PLUGINS_TPU_EMU_TPU_EMU_DRIVER_H_
