// PJRT entry points of the plugin and the client.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "runtime/pjrt/api_support.h"
#include "runtime/pjrt/client_views.h"
#include "runtime/pjrt/handles.h"
#include "runtime/pjrt/named_values.h"
#include "support/status_macros.h"

namespace pjrtx::pjrt {
namespace {

absl::Status PluginInitialize(PJRT_Plugin_Initialize_Args&) {
  auto initialize = PJRTX_ARGS(PJRTX_Plugin_Initialize_Args);
  return CallPjrtx(Pjrtx().Plugin_Initialize, initialize);
}

// The pjrtx plugin attributes; they live for the process.
absl::StatusOr<PJRTX_Plugin_Attributes_Args> PjrtxPluginAttributes() {
  auto attributes = PJRTX_ARGS(PJRTX_Plugin_Attributes_Args);
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Plugin_Attributes, attributes));
  return attributes;
}

PJRT_NamedValue Int64Value(absl::string_view name, int64_t value) {
  PJRT_NamedValue v{};
  v.struct_size = PJRT_NamedValue_STRUCT_SIZE;
  v.name = name.data();
  v.name_size = name.size();
  v.type = PJRT_NamedValue_kInt64;
  v.int64_value = value;
  v.value_size = 1;
  return v;
}

PJRT_NamedValue Int64ListValue(absl::string_view name,
                               const std::vector<int64_t>& list) {
  PJRT_NamedValue v = Int64Value(name, 0);
  v.type = PJRT_NamedValue_kInt64List;
  v.int64_array_value = list.data();
  v.value_size = list.size();
  return v;
}

// What XLA's plugins publish and JAX reads, then the pjrtx attributes.
// The current version is the newest VHLO the compiler's bytecode reader
// handles (compiler_stub/bytecode/vhlo_ops.h, kNewestVhloVersion; a test
// keeps the two equal), and at least 1.11.0, from which JAX sends VHLO for
// every module; 0.9.0 is the oldest VHLO the reader reads. JAX serializes
// for the older of this and its own current version.
absl::StatusOr<const std::vector<PJRT_NamedValue>*> PluginAttributeList() {
  static const std::vector<int64_t>* const current =
      new std::vector<int64_t>{1, 25, 3};
  static const std::vector<int64_t>* const minimum =
      new std::vector<int64_t>{0, 9, 0};
  static const absl::StatusOr<std::vector<PJRT_NamedValue>>* const list =
      new absl::StatusOr<std::vector<PJRT_NamedValue>>(
          [&]() -> absl::StatusOr<std::vector<PJRT_NamedValue>> {
            PJRTX_ASSIGN_OR_RETURN(PJRTX_Plugin_Attributes_Args pjrtx,
                                   PjrtxPluginAttributes());
            std::vector<PJRT_NamedValue> values = {
                Int64Value("xla_version", 2),
                Int64ListValue("stablehlo_current_version", *current),
                Int64ListValue("stablehlo_minimum_version", *minimum)};
            for (const PJRT_NamedValue& v :
                 ToPjrtAttributes(pjrtx.attributes, pjrtx.num_attributes)) {
              values.push_back(v);
            }
            return values;
          }());
  if (!list->ok()) return list->status();
  return &**list;
}

absl::Status PluginAttributes(PJRT_Plugin_Attributes_Args& args) {
  PJRTX_ASSIGN_OR_RETURN(const std::vector<PJRT_NamedValue>* list,
                         PluginAttributeList());
  args.attributes = list->data();
  args.num_attributes = list->size();
  return absl::OkStatus();
}

// A plugin without usable hardware makes clients with no devices; PJRT
// clients are told why instead, so that JAX reports it.
absl::Status CheckAvailable() {
  PJRTX_ASSIGN_OR_RETURN(PJRTX_Plugin_Attributes_Args attributes,
                         PjrtxPluginAttributes());
  for (size_t i = 0; i < attributes.num_attributes; ++i) {
    const PJRTX_NamedValue& v = attributes.attributes[i];
    if (absl::string_view(v.name, v.name_size) == "pjrtx.unavailable_reason" &&
        v.type == PJRTX_NamedValue_kString) {
      return absl::UnavailableError(
          absl::string_view(v.value.string_value, v.value_size));
    }
  }
  return absl::OkStatus();
}

// The framework's key-value callbacks behind pjrtx's. PJRT errors made by
// MakePjrtCallbackError carry the callback's status back.
PJRT_Error* MakePjrtCallbackError(PJRT_Error_Code code, const char* message,
                                  size_t message_size) {
  return new PJRT_Error{absl::Status(
      static_cast<absl::StatusCode>(code),
      message == nullptr ? absl::string_view()
                         : absl::string_view(message, message_size))};
}
PJRT_CallbackError g_make_pjrt_callback_error = MakePjrtCallbackError;

PJRTX_Error* ToPjrtxCallbackError(PJRT_Error* error,
                                  PJRTX_CallbackError make_error) {
  std::unique_ptr<PJRT_Error> owned(error);
  return make_error(static_cast<PJRTX_Error_Code>(owned->status.code()),
                    owned->status.message().data(),
                    owned->status.message().size());
}

PJRTX_Error* KeyValueGet(PJRTX_KeyValueGetCallback_Args* args) {
  const auto* callbacks = static_cast<const KeyValueCallbacks*>(args->user_arg);
  PJRT_KeyValueGetCallback_Args get{};
  get.struct_size = PJRT_KeyValueGetCallback_Args_STRUCT_SIZE;
  get.key = args->key;
  get.key_size = args->key_size;
  get.timeout_in_ms = static_cast<int>(std::clamp<int64_t>(
      args->timeout_in_ms, 0, std::numeric_limits<int>::max()));
  get.callback_error = &g_make_pjrt_callback_error;
  get.user_arg = callbacks->get_user_arg;
  if (PJRT_Error* error = callbacks->get(&get)) {
    return ToPjrtxCallbackError(error, args->callback_error);
  }
  args->value = get.value;
  args->value_size = get.value_size;
  args->value_deleter_callback = get.value_deleter_callback;
  return nullptr;
}

PJRTX_Error* KeyValuePut(PJRTX_KeyValuePutCallback_Args* args) {
  const auto* callbacks = static_cast<const KeyValueCallbacks*>(args->user_arg);
  PJRT_KeyValuePutCallback_Args put{};
  put.struct_size = PJRT_KeyValuePutCallback_Args_STRUCT_SIZE;
  put.key = args->key;
  put.key_size = args->key_size;
  put.value = args->value;
  put.value_size = args->value_size;
  put.callback_error = &g_make_pjrt_callback_error;
  put.user_arg = callbacks->put_user_arg;
  if (PJRT_Error* error = callbacks->put(&put)) {
    return ToPjrtxCallbackError(error, args->callback_error);
  }
  return nullptr;
}

absl::Status ClientCreate(PJRT_Client_Create_Args& args) {
  args.client = nullptr;
  PJRTX_RETURN_IF_ERROR(CheckAvailable());
  if (args.num_options > 0 && args.create_options == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "create_options is NULL but num_options is ", args.num_options));
  }
  auto schema = PJRTX_ARGS(PJRTX_Plugin_OptionSchema_Args);
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Plugin_OptionSchema, schema));
  const std::vector<PJRTX_NamedValue> options =
      ToPjrtxOptions(args.create_options, args.num_options, schema.options,
                     schema.num_options);

  auto client = std::make_unique<PJRT_Client>();
  auto create = PJRTX_ARGS(PJRTX_Client_Create_Args);
  create.create_options = options.data();
  create.num_options = options.size();
  if (args.kv_get_callback != nullptr || args.kv_put_callback != nullptr) {
    client->key_value_callbacks = std::make_unique<KeyValueCallbacks>(
        KeyValueCallbacks{args.kv_get_callback, args.kv_get_user_arg,
                          args.kv_put_callback, args.kv_put_user_arg});
    // pjrtx requires both and says so when one is missing.
    if (args.kv_get_callback != nullptr) {
      create.kv_get_callback = KeyValueGet;
      create.kv_get_user_arg = client->key_value_callbacks.get();
    }
    if (args.kv_put_callback != nullptr) {
      create.kv_put_callback = KeyValuePut;
      create.kv_put_user_arg = client->key_value_callbacks.get();
    }
  }
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Client_Create, create));
  client->client.reset(create.client);
  client->platform_name = Platform().name;
  client->platform_version = Platform().version;
  PJRTX_RETURN_IF_ERROR(BuildClientViews(*client));
  args.client = client.release();
  return absl::OkStatus();
}

absl::Status ClientDestroy(PJRT_Client_Destroy_Args& args) {
  delete args.client;
  return absl::OkStatus();
}

absl::Status ClientPlatformName(PJRT_Client_PlatformName_Args& args) {
  args.platform_name = args.client->platform_name.data();
  args.platform_name_size = args.client->platform_name.size();
  return absl::OkStatus();
}

absl::Status ClientPlatformVersion(PJRT_Client_PlatformVersion_Args& args) {
  args.platform_version = args.client->platform_version.data();
  args.platform_version_size = args.client->platform_version.size();
  return absl::OkStatus();
}

absl::Status ClientProcessIndex(PJRT_Client_ProcessIndex_Args& args) {
  auto index = PJRTX_ARGS(PJRTX_Client_ProcessIndex_Args);
  index.client = args.client->client.get();
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Client_ProcessIndex, index));
  args.process_index = index.process_index;
  return absl::OkStatus();
}

absl::Status ClientDevices(PJRT_Client_Devices_Args& args) {
  args.devices = args.client->devices.data();
  args.num_devices = args.client->devices.size();
  return absl::OkStatus();
}

absl::Status ClientAddressableDevices(
    PJRT_Client_AddressableDevices_Args& args) {
  args.addressable_devices = args.client->addressable_devices.data();
  args.num_addressable_devices = args.client->addressable_devices.size();
  return absl::OkStatus();
}

// Upstream's message and code, which its conformance test asserts.
absl::Status ClientLookupDevice(PJRT_Client_LookupDevice_Args& args) {
  args.device = nullptr;
  auto lookup = PJRTX_ARGS(PJRTX_Client_LookupDevice_Args);
  lookup.client = args.client->client.get();
  lookup.id = args.id;
  if (!CallPjrtx(Pjrtx().Client_LookupDevice, lookup).ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("No matching device found for device_id ", args.id));
  }
  PJRTX_ASSIGN_OR_RETURN(args.device, DeviceOf(*args.client, lookup.device));
  return absl::OkStatus();
}

absl::Status ClientLookupAddressableDevice(
    PJRT_Client_LookupAddressableDevice_Args& args) {
  args.addressable_device = nullptr;
  for (PJRT_Device* device : args.client->addressable_devices) {
    if (device->local_hardware_id == args.local_hardware_id) {
      args.addressable_device = device;
      return absl::OkStatus();
    }
  }
  return absl::InvalidArgumentError(
      absl::StrCat("No matching device found for local_hardware_id ",
                   args.local_hardware_id));
}

absl::Status ClientAddressableMemories(
    PJRT_Client_AddressableMemories_Args& args) {
  args.addressable_memories = args.client->memories.data();
  args.num_addressable_memories = args.client->memories.size();
  return absl::OkStatus();
}

absl::Status ClientTopologyDescription(
    PJRT_Client_TopologyDescription_Args& args) {
  args.topology = &args.client->topology;
  return absl::OkStatus();
}

// A too-small buffer is upstream's FAILED_PRECONDITION, message and all
// (its conformance test asserts both).
absl::Status ClientDefaultDeviceAssignment(
    PJRT_Client_DefaultDeviceAssignment_Args& args) {
  const int64_t needed = int64_t{args.num_replicas} * args.num_partitions;
  if (static_cast<int64_t>(args.default_assignment_size) < needed) {
    return absl::FailedPreconditionError(absl::StrCat(
        "PJRT_Client_DefaultDeviceAssignment: `default_assignment_size` ",
        args.default_assignment_size, " < `num_replicas * num_partitions`, ",
        args.num_replicas, " * ", args.num_partitions, " = ", needed));
  }
  PJRTX_ASSIGN_OR_RETURN(
      std::vector<int64_t> ids,
      DefaultDeviceAssignment(*args.client, args.num_replicas,
                              args.num_partitions));
  std::copy(ids.begin(), ids.end(), args.default_assignment);
  return absl::OkStatus();
}

// jaxlib reports the state of the job's processes whenever it changes and
// aborts if this fails. The runtime has no use for it: a peer that dies
// fails the operations waiting on it through their own timeouts.
absl::Status ClientUpdateGlobalProcessInfo(
    PJRT_Client_UpdateGlobalProcessInfo_Args& args) {
  if (args.num_process_infos > 0 && args.process_infos == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("process_infos is NULL but num_process_infos is ",
                     args.num_process_infos));
  }
  return absl::OkStatus();
}

}  // namespace

void FillPluginAndClientSlots(PJRT_Api& api) {
  PJRTX_PJRT_SLOT(api, PJRT_Plugin_Initialize, PluginInitialize);
  PJRTX_PJRT_SLOT(api, PJRT_Plugin_Attributes, PluginAttributes);
  PJRTX_PJRT_SLOT(api, PJRT_Client_Create, ClientCreate);
  PJRTX_PJRT_SLOT(api, PJRT_Client_Destroy, ClientDestroy);
  PJRTX_PJRT_SLOT(api, PJRT_Client_PlatformName, ClientPlatformName);
  PJRTX_PJRT_SLOT(api, PJRT_Client_PlatformVersion, ClientPlatformVersion);
  PJRTX_PJRT_SLOT(api, PJRT_Client_ProcessIndex, ClientProcessIndex);
  PJRTX_PJRT_SLOT(api, PJRT_Client_Devices, ClientDevices);
  PJRTX_PJRT_SLOT(api, PJRT_Client_AddressableDevices,
                  ClientAddressableDevices);
  PJRTX_PJRT_SLOT(api, PJRT_Client_LookupDevice, ClientLookupDevice);
  PJRTX_PJRT_SLOT(api, PJRT_Client_LookupAddressableDevice,
                  ClientLookupAddressableDevice);
  PJRTX_PJRT_SLOT(api, PJRT_Client_AddressableMemories,
                  ClientAddressableMemories);
  PJRTX_PJRT_SLOT(api, PJRT_Client_TopologyDescription,
                  ClientTopologyDescription);
  PJRTX_PJRT_SLOT(api, PJRT_Client_DefaultDeviceAssignment,
                  ClientDefaultDeviceAssignment);
  PJRTX_PJRT_SLOT(api, PJRT_Client_UpdateGlobalProcessInfo,
                  ClientUpdateGlobalProcessInfo);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api, PJRT_Client_DmaMap);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api, PJRT_Client_DmaUnmap);
}

}  // namespace pjrtx::pjrt
