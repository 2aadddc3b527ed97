// libpjrt_tpuemu.so: the plugin entry point, create options and their
// validation.
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "plugins/tpu_emu/tpu_emu_driver.h"
#include "runtime/collectives/host_communicator.h"
#include "runtime/collectives/rate_limited_transport.h"
#ifdef PJRTX_HAVE_UCX
#include "runtime/collectives/ucx/ucx_transport_factory.h"
#endif
#include "runtime/core/abi/plugin_entry.h"
#include "runtime/core/base/plugin.h"
#include "runtime/cpu/cpu_features.h"
#include "support/status_macros.h"

namespace tpu_emu {
namespace {

// Upper bound for hbm_bytes: 1 TiB per chip is beyond any real chip and far
// beyond what the host could back.
constexpr int64_t kMaxHbmBytes = int64_t{1} << 40;

class TpuEmuPlugin : public pjrtx::Plugin {
 public:
  std::string PlatformName() const override { return "tpu_emu"; }
  // JAX's name for it (python/pjrtx_jax).
  std::string PjrtPlatformName() const override { return "tpuemu"; }
  std::string Version() const override { return "0.1.0"; }
  std::vector<std::string> Capabilities() const override {
    return {"collectives", "dlpack", "execute", "program_collectives"};
  }
  // The vector instructions the chips' engine runs (PJRTX_CPU_MAX_ISA caps
  // them), e.g. "avx2 (PJRTX_CPU_MAX_ISA=avx2; the CPU has avx512)".
  std::vector<pjrtx::Attribute> Attributes() const override {
    return {{"tpu_emu.cpu_isa", pjrtx::cpu::HostCpuFeatures().description}};
  }

  // Chips are host memory, so the host communicator serves them; chips of
  // other processes are reached over UCX (the emulated DCN).
  absl::StatusOr<std::unique_ptr<pjrtx::Communicator>> CreateCommunicator(
      std::shared_ptr<pjrtx::ClientState> client,
      absl::Span<const int64_t> global_device_ids,
      int64_t timeout_ms) override {
    pjrtx::collectives::TransportFactory remote;
#ifdef PJRTX_HAVE_UCX
    remote = pjrtx::collectives::UcxTransportFactory();
#endif
    const double dcn_gbps =
        static_cast<const TpuEmuDriver&>(client->driver()).config().dcn_gbps;
    remote = pjrtx::collectives::RateLimited(std::move(remote), dcn_gbps * 1e9);
    return pjrtx::collectives::HostCommunicator::Create(
        std::move(client), global_device_ids, timeout_ms, std::move(remote));
  }

  std::vector<pjrtx::OptionSpec> OptionSchema() const override {
    return {
        {"topology", std::string("v5e:2x2"),
         absl::StrCat("Chips of one slice: ", ValidTopologyForms())},
        {"num_slices", int64_t{1}, "Slices in the job (1..1024)"},
        {"slice_index", int64_t{0}, "This process's slice (0..num_slices-1)"},
        {"hosts_per_slice", int64_t{1},
         "Processes per slice; divides the slice's chips"},
        {"host_index", int64_t{0},
         "This process's host within its slice (0..hosts_per_slice-1)"},
        {"hbm_bytes", int64_t{1} << 30,
         "Memory limit per chip in bytes (1 MiB..1 TiB); memory is "
         "allocated lazily"},
        {"matmul_precision", std::string("highest"),
         "highest: f32 dot products are exact f32; tpu: they run as one "
         "bf16 pass accumulating in f32, like a TPU's DEFAULT precision"},
        {"dcn_gbps", 0.0f,
         "Bandwidth of each chip's link to other slices (DCN) in GB/s, "
         "emulated over the real transport; 0: uncapped"},
        {"mode", std::string("async"),
         "async: chips run on a thread pool; sync: one thread runs every "
         "chip in turn, deterministically"},
    };
  }

  absl::StatusOr<std::unique_ptr<pjrtx::Driver>> CreateDriver(
      const pjrtx::OptionSet& options, pjrtx::KeyValueStore* kv) override {
    // A mistyped PJRTX_CPU_MAX_ISA would otherwise test the wrong path
    // silently.
    PJRTX_RETURN_IF_ERROR(pjrtx::cpu::HostCpuFeatures().setting_error);
    DriverConfig config;
    PJRTX_ASSIGN_OR_RETURN(config.layout.slice,
                           ParseSliceShape(options.GetString("topology")));
    config.layout.num_slices = options.GetInt64("num_slices");
    config.layout.slice_index = options.GetInt64("slice_index");
    config.layout.hosts_per_slice = options.GetInt64("hosts_per_slice");
    config.layout.host_index = options.GetInt64("host_index");
    PJRTX_RETURN_IF_ERROR(config.layout.Validate());
    config.hbm_bytes = options.GetInt64("hbm_bytes");
    if (config.hbm_bytes < (int64_t{1} << 20) ||
        config.hbm_bytes > kMaxHbmBytes) {
      return absl::InvalidArgumentError(absl::StrCat(
          "hbm_bytes is ", config.hbm_bytes, "; expected 1048576 (1 MiB) .. ",
          kMaxHbmBytes, " (1 TiB) bytes per chip"));
    }
    const std::string& mode = options.GetString("mode");
    if (mode != "async" && mode != "sync") {
      return absl::InvalidArgumentError(
          absl::StrCat("mode is '", mode, "'; expected 'async' or 'sync'"));
    }
    config.sync = mode == "sync";
    config.dcn_gbps = options.GetFloat("dcn_gbps");
    if (!(config.dcn_gbps >= 0) || config.dcn_gbps > 1e4) {
      return absl::InvalidArgumentError(
          absl::StrCat("dcn_gbps is ", config.dcn_gbps,
                       "; expected 0 (uncapped) or a bandwidth up to 10000 "
                       "GB/s"));
    }
    const std::string& precision = options.GetString("matmul_precision");
    if (precision != "highest" && precision != "tpu") {
      return absl::InvalidArgumentError(
          absl::StrCat("matmul_precision is '", precision,
                       "'; expected 'highest' or 'tpu'"));
    }
    config.tpu_precision = precision == "tpu";
    return std::make_unique<TpuEmuDriver>(std::move(config));
  }
};

}  // namespace
}  // namespace tpu_emu

PJRTX_DEFINE_PLUGIN(tpu_emu::TpuEmuPlugin)
