// libpjrt_cuda.so: NVIDIA GPUs through the CUDA Driver API, loaded at run
// time (driver_api/cuda_api.h). Where no GPU can be used, the plugin still
// loads, reports zero devices and says precisely why
// (pjrtx.unavailable_reason). Collectives run on NCCL, also loaded at run time
// (nccl_library.h); where it is missing the plugin has none, and `cuda.nccl`
// says why. Plain matmuls run on cuBLASLt, loaded at run time too
// (cublaslt_library.h); where it is missing they run as PTX kernels, and
// `cuda.cublaslt` says why. A job of several processes (options num_processes
// and process_index) lists every process's GPUs; processes of one machine
// (option host_name) form a slice. Communicators within a slice run on
// NCCL, across its processes too (the unique id passed through the
// key-value store); communicators spanning slices combine NCCL within each
// slice with the host communicator over UCX between slices, data staged
// through the driver's pinned pool (sliced_communicator.h).
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugins/cuda/driver_api/cuda_api.h"
#if PJRTX_CUDA_WITH_CUBLASLT
#include "plugins/cuda/programs/cublaslt_library.h"
#endif
#include "plugins/cuda/device/gpu_driver.h"
#include "plugins/cuda/device/no_device_driver.h"
#if PJRTX_CUDA_WITH_NCCL
#include "plugins/cuda/collectives/nccl_communicator.h"
#include "plugins/cuda/collectives/nccl_library.h"
#include "plugins/cuda/collectives/sliced_communicator.h"
#endif
#include "runtime/collectives/device_ids.h"
#include "runtime/collectives/host_communicator.h"
#ifdef PJRTX_HAVE_UCX
#include "runtime/collectives/ucx/ucx_transport_factory.h"
#endif
#include "runtime/core/abi/plugin_entry.h"
#include "runtime/core/base/plugin.h"
#include "support/status_macros.h"

namespace cuda_plugin {
namespace {

std::string Describe(const GpuInfo& gpu) {
  return absl::StrCat(gpu.ordinal, ": ", gpu.name, " (sm_", gpu.compute_major,
                      gpu.compute_minor, ", ", gpu.sm_count, " SMs, ",
                      gpu.memory_bytes >> 20, " MiB, PCI ", gpu.pci_bus_id,
                      ")");
}

// Why the plugin has no collectives, or "" when NCCL is there to run them.
std::string NcclUnavailableReason() {
#if PJRTX_CUDA_WITH_NCCL
  return LoadNccl().unavailable_reason;
#else
  return "the plugin was built without NCCL's header (nccl.h)";
#endif
}

// The `cuda.nccl` attribute: the NCCL in use, or why there is none.
std::string DescribeNccl() {
  const std::string reason = NcclUnavailableReason();
  if (!reason.empty()) return absl::StrCat("unavailable: ", reason);
#if PJRTX_CUDA_WITH_NCCL
  const NcclLibrary& nccl = LoadNccl();
  return absl::StrCat("NCCL ", NcclVersionText(nccl.version), " (", nccl.path,
                      ")");
#else
  return "";
#endif
}

// The `cuda.cublaslt` attribute: the cuBLASLt that runs matmuls, or why
// there is none (and they run as PTX kernels).
std::string DescribeCublasLt() {
#if PJRTX_CUDA_WITH_CUBLASLT
  const CublasLtLibrary& cublaslt = LoadCublasLt();
  if (cublaslt.api == nullptr) {
    return absl::StrCat("unavailable: ", cublaslt.unavailable_reason);
  }
  return absl::StrCat("cuBLASLt ", CublasLtVersionText(cublaslt.version), " (",
                      cublaslt.path, ")");
#else
  return "unavailable: the plugin was built without cuBLASLt's header "
         "(cublasLt.h)";
#endif
}

#if PJRTX_CUDA_WITH_NCCL
// The slice (machine) of each of `ids`, in order; -1 for an id that is no
// device of the client (left for the communicator to name).
std::vector<int64_t> SlicesOf(const pjrtx::ClientState& client,
                              absl::Span<const int64_t> ids) {
  std::vector<int64_t> slices(ids.size(), -1);
  for (int d = 0; d < client.num_devices(); ++d) {
    const pjrtx::DeviceSpec& spec = client.device(d);
    for (size_t i = 0; i < ids.size(); ++i) {
      if (ids[i] == spec.global_id)
        slices[i] = pjrtx::collectives::SliceOf(spec);
    }
  }
  return slices;
}

// Whether the known ones among `slices` name more than one slice.
bool SpansSlices(absl::Span<const int64_t> slices) {
  std::optional<int64_t> first_slice;
  for (int64_t slice : slices) {
    if (slice < 0) continue;
    if (!first_slice.has_value()) first_slice = slice;
    if (slice != *first_slice) return true;
  }
  return false;
}
#endif

class CudaPlugin : public pjrtx::Plugin {
 public:
  std::string PlatformName() const override { return "cuda"; }
  // JAX's name for it (python/pjrtx_jax): "cuda" is JAX's own GPU
  // platform, whose loading rules and lowerings would apply.
  std::string PjrtPlatformName() const override { return "pjrtx_cuda"; }
  std::string Version() const override { return "0.1.0"; }

  std::vector<std::string> Capabilities() const override {
    if (!NcclUnavailableReason().empty()) {
      return {"dlpack", "execute", "program_collectives"};
    }
    return {"collectives", "dlpack", "execute", "program_collectives"};
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
            {"cuda.gpus", absl::StrJoin(gpus, "; ")},
            {"cuda.nccl", DescribeNccl()},
            {"cuda.cublaslt", DescribeCublasLt()}};
  }

  std::vector<pjrtx::OptionSpec> OptionSchema() const override {
    return {
        {"num_processes", int64_t{1},
         "Processes in the job, each with its own GPUs; with more than one "
         "they exchange their GPUs through the key-value store"},
        {"process_index", int64_t{0},
         "This process's index in the job (0..num_processes-1)"},
        {"host_name", std::string(),
         "The machine this process runs on, as the job sees it (default: "
         "the host name). Processes of one machine are one slice: their "
         "communicators run on NCCL; slices meet over UCX"},
        {"completion_wait", std::string("auto"),
         "How the plugin learns that GPU work completed: 'spin' polls "
         "continuously while work is pending (microseconds late, one busy "
         "core), 'backoff' polls ever less often up to every 1 ms (no busy "
         "core), 'auto' spins on machines with 8 or more hardware threads"},
    };
  }

  absl::StatusOr<std::unique_ptr<pjrtx::Driver>> CreateDriver(
      const pjrtx::OptionSet& options, pjrtx::KeyValueStore* kv) override {
    const Discovery& found = Discover();
    if (!found.unavailable_reason.empty()) {
      return std::make_unique<NoDeviceDriver>(found);
    }
    const int64_t num_processes = options.GetInt64("num_processes");
    const int64_t process_index = options.GetInt64("process_index");
    if (num_processes < 1 || num_processes > 65536 || process_index < 0 ||
        process_index >= num_processes) {
      return absl::InvalidArgumentError(absl::StrCat(
          "num_processes is ", num_processes, " and process_index ",
          process_index,
          "; expected 1 <= num_processes <= 65536 and 0 <= process_index < "
          "num_processes"));
    }
    GpuDriverOptions driver_options;
    PJRTX_ASSIGN_OR_RETURN(
        driver_options.completion_wait,
        ParseCompletionWait(options.GetString("completion_wait")));
    driver_options.num_processes = static_cast<int>(num_processes);
    driver_options.process_index = static_cast<int>(process_index);
    driver_options.store = kv;
    driver_options.host = options.GetString("host_name");
    if (driver_options.host.empty()) {
      char name[256] = {};
      gethostname(name, sizeof(name) - 1);
      driver_options.host = name;
    }
    PJRTX_ASSIGN_OR_RETURN(std::unique_ptr<GpuDriver> driver,
                           GpuDriver::Create(found, driver_options));
    return driver;
  }

  // NCCL over the client's GPUs (nccl_communicator.h).
  absl::StatusOr<std::unique_ptr<pjrtx::Communicator>> CreateCommunicator(
      std::shared_ptr<pjrtx::ClientState> client,
      absl::Span<const int64_t> global_device_ids,
      int64_t timeout_ms) override {
    if (const std::string reason = NcclUnavailableReason(); !reason.empty()) {
      return absl::UnimplementedError(absl::StrCat(
          "Plugin 'cuda' has no collectives (no 'collectives' capability): "
          "NCCL is unavailable: ",
          reason));
    }
#if PJRTX_CUDA_WITH_NCCL
    auto* driver = dynamic_cast<GpuDriver*>(&client->driver());
    if (driver == nullptr) {
      return absl::FailedPreconditionError(
          absl::StrCat("the client has no GPU for a communicator: ",
                       Discover().unavailable_reason));
    }
    std::vector<int64_t> slice_of_rank = SlicesOf(*client, global_device_ids);
    if (SpansSlices(slice_of_rank)) {
      // NCCL runs within a machine; between machines the ranks meet over
      // UCX (the DCN), data staged through host memory.
      pjrtx::collectives::TransportFactory remote;
#ifdef PJRTX_HAVE_UCX
      remote = pjrtx::collectives::UcxTransportFactory();
#endif
      return SlicedCommunicator::Create(LoadNccl(), *driver, std::move(client),
                                        global_device_ids, slice_of_rank,
                                        timeout_ms, std::move(remote));
    }
    return NcclCommunicator::Create(LoadNccl(), *driver, std::move(client),
                                    global_device_ids, timeout_ms);
#else
    return Plugin::CreateCommunicator(std::move(client), global_device_ids,
                                      timeout_ms);
#endif
  }
};

}  // namespace
}  // namespace cuda_plugin

PJRTX_DEFINE_PLUGIN(cuda_plugin::CudaPlugin)
