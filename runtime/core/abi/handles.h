// The structs behind the ABI's opaque handles.
//
// Every handle starts with a HandleHeader naming its kind and the plugin
// instance that made it, so a handle of another plugin (or of another copy
// of this plugin loaded in the same process) is rejected instead of being
// misread.
#ifndef PJRTX_RUNTIME_CORE_ABI_HANDLES_H_
#define PJRTX_RUNTIME_CORE_ABI_HANDLES_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "pjrtx/pjrtx_c_api.h"
#include "runtime/core/abi/named_values.h"
#include "runtime/core/base/buffer.h"
#include "runtime/core/base/client_state.h"
#include "runtime/core/base/communicator.h"
#include "runtime/core/base/event.h"
#include "runtime/core/base/executable.h"
#include "runtime/core/base/key_value_store.h"

namespace pjrtx::abi {

enum class HandleKind : uint32_t {
  kError = 1,
  kEvent,
  kClient,
  kDevice,
  kDeviceDescription,
  kMemory,
  kTopology,
  kBuffer,
  kExecutable,
  kCommunicator,
};

// The address of a variable private to this shared object: it differs
// between two plugins, and between two copies of one plugin.
const void* PluginInstanceTag();

struct HandleHeader {
  explicit HandleHeader(HandleKind kind) : kind(kind) {}
  static constexpr uint64_t kMagic = 0x786a72705f6a6f62;  // Arbitrary.
  uint64_t magic = kMagic;
  const void* owner = PluginInstanceTag();
  HandleKind kind;
};

// INVALID_ARGUMENT naming `arg` when `handle` is NULL, of another plugin
// instance, or of another kind.
absl::Status CheckHandleHeader(const HandleHeader* header, HandleKind kind,
                               absl::string_view arg);

template <typename Handle>
absl::Status CheckHandle(const Handle* handle, absl::string_view arg) {
  return CheckHandleHeader(handle == nullptr ? nullptr : &handle->header,
                           Handle::kKind, arg);
}

// CheckHandle for element `index` of the argument array `array` (and
// `index2` of that, when given): the name, e.g. "argument_lists[0][1]", is
// only built for the error, keeping valid calls free of allocation.
template <typename Handle>
absl::Status CheckHandle(const Handle* handle, const char* array, size_t index,
                         int64_t index2 = -1) {
  if (handle != nullptr && handle->header.magic == HandleHeader::kMagic &&
      handle->header.owner == PluginInstanceTag() &&
      handle->header.kind == Handle::kKind) {
    return absl::OkStatus();
  }
  return CheckHandle(
      handle, index2 < 0 ? absl::StrCat(array, "[", index, "]")
                         : absl::StrCat(array, "[", index, "][", index2, "]"));
}

}  // namespace pjrtx::abi

struct PJRTX_Error {
  static constexpr pjrtx::abi::HandleKind kKind =
      pjrtx::abi::HandleKind::kError;
  pjrtx::abi::HandleHeader header{kKind};
  absl::StatusCode code;
  std::string message;
};

struct PJRTX_Event {
  static constexpr pjrtx::abi::HandleKind kKind =
      pjrtx::abi::HandleKind::kEvent;
  pjrtx::abi::HandleHeader header{kKind};
  pjrtx::EventRef event;
  bool made_by_framework = false;  // Only such events accept Event_Set.
};

struct PJRTX_DeviceDescription {
  static constexpr pjrtx::abi::HandleKind kKind =
      pjrtx::abi::HandleKind::kDeviceDescription;
  pjrtx::abi::HandleHeader header{kKind};
  const pjrtx::DeviceSpec* spec = nullptr;
  pjrtx::abi::NamedValues attributes;
};

struct PJRTX_Device {
  static constexpr pjrtx::abi::HandleKind kKind =
      pjrtx::abi::HandleKind::kDevice;
  pjrtx::abi::HandleHeader header{kKind};
  PJRTX_Client* client = nullptr;
  int index = 0;               // Into TopologySpec::devices.
  int local_hardware_id = -1;  // -1 for devices of other processes.
  PJRTX_DeviceDescription description;
  std::vector<PJRTX_Memory*> memories;  // Default memory first.
};

struct PJRTX_Memory {
  static constexpr pjrtx::abi::HandleKind kKind =
      pjrtx::abi::HandleKind::kMemory;
  pjrtx::abi::HandleHeader header{kKind};
  PJRTX_Client* client = nullptr;
  int index = 0;  // Into TopologySpec::memories.
  std::string to_string;
  std::vector<PJRTX_Device*> devices;
};

struct PJRTX_TopologyDescription {
  static constexpr pjrtx::abi::HandleKind kKind =
      pjrtx::abi::HandleKind::kTopology;
  pjrtx::abi::HandleHeader header{kKind};
  PJRTX_Client* client = nullptr;
  std::vector<PJRTX_DeviceDescription*> descriptions;
  pjrtx::abi::NamedValues attributes;
};

struct PJRTX_Client {
  static constexpr pjrtx::abi::HandleKind kKind =
      pjrtx::abi::HandleKind::kClient;
  pjrtx::abi::HandleHeader header{kKind};
  std::shared_ptr<pjrtx::ClientState> state;
  std::string platform_name;
  std::vector<std::unique_ptr<PJRTX_Device>> device_storage;
  std::vector<std::unique_ptr<PJRTX_Memory>> memory_storage;
  std::vector<PJRTX_Device*> devices;
  std::vector<PJRTX_Device*> addressable_devices;
  std::vector<PJRTX_Memory*> memories;
  PJRTX_TopologyDescription topology;
  pjrtx::abi::NamedValues attributes;
};

struct PJRTX_Buffer {
  static constexpr pjrtx::abi::HandleKind kKind =
      pjrtx::abi::HandleKind::kBuffer;
  pjrtx::abi::HandleHeader header{kKind};
  PJRTX_Client* client = nullptr;
  std::unique_ptr<pjrtx::Buffer> buffer;
};

struct PJRTX_LoadedExecutable {
  static constexpr pjrtx::abi::HandleKind kKind =
      pjrtx::abi::HandleKind::kExecutable;
  pjrtx::abi::HandleHeader header{kKind};
  PJRTX_Client* client = nullptr;
  std::unique_ptr<pjrtx::Executable> executable;
  // Metadata arrays, built once (see PJRTX_LoadedExecutable_Metadata).
  std::vector<PJRTX_Device*> devices;
  struct Signatures {
    std::vector<PJRTX_Buffer_Type> types;
    std::vector<size_t> ranks;
    std::vector<size_t> offsets;
    std::vector<int64_t> dims;
  };
  Signatures inputs;
  Signatures outputs;
  // Per input, PJRTX_LoadedExecutable_InputAliases' values.
  std::vector<int64_t> input_aliases;
};

struct PJRTX_Communicator {
  static constexpr pjrtx::abi::HandleKind kKind =
      pjrtx::abi::HandleKind::kCommunicator;
  pjrtx::abi::HandleHeader header{kKind};
  PJRTX_Client* client = nullptr;
  // Its destructor waits for the operations in flight.
  std::unique_ptr<pjrtx::Communicator> communicator;
};

#endif  // PJRTX_RUNTIME_CORE_ABI_HANDLES_H_
