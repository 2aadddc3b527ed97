// The structs behind the PJRT C API's opaque handles.
//
// Each one wraps the pjrtx handle of the same object: the PJRT front door
// keeps no state of its own beyond what PJRT's shapes need (its own arrays
// of handles, attributes filtered to what JAX accepts, the compile options
// PJRT reports back). The pjrtx handles are owned through PjrtxPtr, which
// destroys them through this plugin's PJRTX_Api table.
#ifndef PJRTX_RUNTIME_PJRT_HANDLES_H_
#define PJRTX_RUNTIME_PJRT_HANDLES_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "pjrtx/pjrtx_c_api.h"
#include "runtime/pjrt/pjrt_c_api.h"

namespace pjrtx::pjrt {

// Destroys pjrtx handles through the PJRTX_Api table.
struct PjrtxDeleter {
  void operator()(PJRTX_Client* client) const;
  void operator()(PJRTX_Event* event) const;
  void operator()(PJRTX_Buffer* buffer) const;
  void operator()(PJRTX_LoadedExecutable* executable) const;
};
template <typename Handle>
using PjrtxPtr = std::unique_ptr<Handle, PjrtxDeleter>;

// The framework's key-value callbacks, kept for the life of the client
// because the pjrtx client calls them through adapters
// (api_plugin_client.cc).
struct KeyValueCallbacks {
  PJRT_KeyValueGetCallback get = nullptr;
  void* get_user_arg = nullptr;
  PJRT_KeyValuePutCallback put = nullptr;
  void* put_user_arg = nullptr;
};

// A compiled program as PJRT reports it, shared by the loaded executable and
// the PJRT_Executable handles made from it (each of which the caller
// destroys on its own), so it lives until the last of them is destroyed.
// Everything but `deleted` is set once, at creation.
struct CompiledExecutable {
  PJRT_Client* client = nullptr;
  PjrtxPtr<PJRTX_LoadedExecutable> executable;
  // From PJRTX_LoadedExecutable_Metadata; the arrays live as long as
  // `executable`.
  PJRTX_LoadedExecutable_Metadata_Args metadata{};
  // The devices the executable runs on, in execution order; empty for a
  // portable executable, which runs on the device named at execution.
  std::vector<PJRT_Device*> addressable_devices;
  bool portable = false;
  int num_replicas = 1;
  int num_partitions = 1;
  // Global device ids, replica-major (empty when portable).
  std::vector<int64_t> device_assignment;
  std::vector<PJRT_Buffer_Type> output_types;
  // Per argument: whether the program lets a run take its memory.
  std::vector<bool> donatable;
  std::vector<const char*> output_memory_kinds;
  std::vector<size_t> output_memory_kind_sizes;
  std::string fingerprint;
  // Set by PJRT_LoadedExecutable_Delete: the executable runs no more.
  std::atomic<bool> deleted{false};
};

}  // namespace pjrtx::pjrt

struct PJRT_Error {
  absl::Status status;
};

struct PJRT_Event {
  pjrtx::pjrt::PjrtxPtr<PJRTX_Event> event;
};

struct PJRT_DeviceDescription {
  PJRTX_DeviceDescription* description = nullptr;  // Owned by the client.
  // The pjrtx attributes JAX accepts on a device (string, int64 and int64
  // list); their strings and lists are the pjrtx client's.
  std::vector<PJRT_NamedValue> attributes;
};

struct PJRT_Device {
  PJRT_Client* client = nullptr;
  PJRTX_Device* device = nullptr;  // Owned by the pjrtx client.
  PJRT_DeviceDescription description;
  bool addressable = false;
  int local_hardware_id = -1;
  // Default memory first; empty for a device of another process.
  std::vector<PJRT_Memory*> memories;
};

// One memory as one device sees it. A pjrtx memory that several devices
// address (the host memories of tpu_emu) appears as one PJRT_Memory per
// device, as PJRT clients expect: JAX places a buffer in "device d's pinned
// host memory" by naming that memory alone.
struct PJRT_Memory {
  PJRT_Client* client = nullptr;
  PJRTX_Memory* memory = nullptr;  // Owned by the pjrtx client.
  int id = 0;                      // Unique within the client.
  absl::string_view kind;          // The pjrtx client's string.
  int kind_code = 0;
  std::string to_string;
  std::string debug_string;
  std::vector<PJRT_Device*> devices;  // The one device.
};

struct PJRT_TopologyDescription {
  PJRT_Client* client = nullptr;
  PJRTX_TopologyDescription* topology = nullptr;  // Owned by the client.
  std::vector<PJRT_DeviceDescription*> descriptions;
  std::vector<PJRT_NamedValue> attributes;
};

struct PJRT_Client {
  // Declared first, so destroyed after the pjrtx client that calls them.
  std::unique_ptr<pjrtx::pjrt::KeyValueCallbacks> key_value_callbacks;
  pjrtx::pjrt::PjrtxPtr<PJRTX_Client> client;
  std::string platform_name;
  std::string platform_version;
  std::vector<std::unique_ptr<PJRT_Device>> device_storage;
  std::vector<std::unique_ptr<PJRT_Memory>> memory_storage;
  std::vector<PJRT_Device*> devices;
  std::vector<PJRT_Device*> addressable_devices;
  std::vector<PJRT_Memory*> memories;
  absl::flat_hash_map<const PJRTX_Device*, PJRT_Device*> device_of;
  absl::flat_hash_map<std::pair<const PJRTX_Memory*, const PJRTX_Device*>,
                      PJRT_Memory*>
      memory_of;
  PJRT_TopologyDescription topology;
};

struct PJRT_Buffer {
  PJRT_Client* client = nullptr;
  pjrtx::pjrt::PjrtxPtr<PJRTX_Buffer> buffer;
};

struct PJRT_LoadedExecutable {
  std::shared_ptr<pjrtx::pjrt::CompiledExecutable> compiled;
};

struct PJRT_Executable {
  std::shared_ptr<const pjrtx::pjrt::CompiledExecutable> compiled;
};

// Nothing to hold: programs take no per-execution data.
struct PJRT_ExecuteContext {};

namespace pjrtx::pjrt {

// New PJRT handles taking over pjrtx ones (NULL stays NULL).
PJRT_Event* WrapEvent(PJRTX_Event* event);
PJRT_Buffer* WrapBuffer(PJRT_Client* client, PJRTX_Buffer* buffer);

}  // namespace pjrtx::pjrt

#endif  // PJRTX_RUNTIME_PJRT_HANDLES_H_
