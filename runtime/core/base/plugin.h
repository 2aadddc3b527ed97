// What a plugin is, before any client exists.
#ifndef PJRTX_RUNTIME_CORE_BASE_PLUGIN_H_
#define PJRTX_RUNTIME_CORE_BASE_PLUGIN_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "runtime/core/base/communicator.h"
#include "runtime/core/base/driver.h"
#include "runtime/core/base/key_value_store.h"
#include "runtime/core/base/value.h"

namespace pjrtx {

// One instance per loaded plugin, made by PJRTX_DEFINE_PLUGIN. Its answers
// must not change during the life of the process.
class Plugin {
 public:
  virtual ~Plugin() = default;

  virtual std::string PlatformName() const = 0;  // e.g. "tpu_emu".
  virtual std::string Version() const = 0;       // e.g. "0.1.0".
  // The name PJRT clients know the platform by (PJRT_Client_PlatformName):
  // the one the framework registers the plugin under, e.g. "tpuemu" for
  // JAX. Never a name a framework special-cases ("tpu", "cpu", "cuda",
  // "rocm"): JAX would apply that platform's loading rules and lowerings.
  virtual std::string PjrtPlatformName() const { return PlatformName(); }

  // Create options and their defaults.
  virtual std::vector<OptionSpec> OptionSchema() const { return {}; }
  // Capabilities published in `pjrtx.capabilities`, e.g. "dlpack".
  virtual std::vector<std::string> Capabilities() const { return {}; }
  // Non-empty when the plugin finds no usable hardware; published as
  // `pjrtx.unavailable_reason`.
  virtual std::string UnavailableReason() const { return ""; }
  // More plugin attributes.
  virtual std::vector<Attribute> Attributes() const { return {}; }

  // Makes the driver of a new client. `options` passed validation against
  // OptionSchema(); `kv` is null unless the framework gave a store, and
  // outlives the driver.
  virtual absl::StatusOr<std::unique_ptr<Driver>> CreateDriver(
      const OptionSet& options, KeyValueStore* kv) = 0;

  // Makes a communicator over `global_device_ids` (rank r is
  // global_device_ids[r]) for a client of this plugin; `timeout_ms` (> 0)
  // bounds joining and is its operations' default timeout. Plugins that
  // implement it list "collectives" in Capabilities(). Default:
  // UNIMPLEMENTED.
  virtual absl::StatusOr<std::unique_ptr<Communicator>> CreateCommunicator(
      std::shared_ptr<ClientState> client,
      absl::Span<const int64_t> global_device_ids, int64_t timeout_ms) {
    (void)client;
    (void)global_device_ids;
    (void)timeout_ms;
    return absl::UnimplementedError(
        absl::StrCat("Plugin '", PlatformName(),
                     "' has no collectives (no 'collectives' capability); "
                     "communicators are not supported"));
  }
};

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_CORE_BASE_PLUGIN_H_
