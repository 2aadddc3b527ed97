// Entry points of PJRTX_Client.
#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "runtime/core/abi/api_support.h"
#include "runtime/core/abi/callback_key_value_store.h"
#include "runtime/core/abi/handles.h"
#include "support/status_macros.h"

namespace pjrtx::abi {
namespace {

absl::StatusOr<std::unique_ptr<PJRTX_Client>> MakeClient(
    const PJRTX_Client_Create_Args& args) {
  Plugin& plugin = ThePlugin();
  PJRTX_ASSIGN_OR_RETURN(
      std::vector<Attribute> given,
      ReadNamedValues(args.create_options, args.num_options));
  PJRTX_ASSIGN_OR_RETURN(OptionSet options,
                         OptionSet::Validate(plugin.OptionSchema(), given));
  if ((args.kv_get_callback == nullptr) != (args.kv_put_callback == nullptr)) {
    return absl::InvalidArgumentError(
        "kv_get_callback and kv_put_callback must be given together");
  }
  std::shared_ptr<KeyValueStore> kv;
  if (args.kv_get_callback != nullptr) {
    kv = std::make_shared<CallbackKeyValueStore>(
        args.kv_get_callback, args.kv_get_user_arg, args.kv_put_callback,
        args.kv_put_user_arg);
  }
  PJRTX_ASSIGN_OR_RETURN(std::unique_ptr<Driver> driver,
                         plugin.CreateDriver(options, kv.get()));
  PJRTX_ASSIGN_OR_RETURN(std::shared_ptr<ClientState> state,
                         ClientState::Create(std::move(driver), kv));

  auto client = std::make_unique<PJRTX_Client>();
  client->state = state;
  client->platform_name = plugin.PlatformName();
  const TopologySpec& topology = state->topology();
  for (size_t m = 0; m < topology.memories.size(); ++m) {
    auto memory = std::make_unique<PJRTX_Memory>();
    memory->client = client.get();
    memory->index = static_cast<int>(m);
    memory->to_string = absl::StrCat("Memory(id=", m,
                                     ", kind=", topology.memories[m].kind, ")");
    client->memories.push_back(memory.get());
    client->memory_storage.push_back(std::move(memory));
  }
  int next_local_id = 0;
  for (size_t d = 0; d < topology.devices.size(); ++d) {
    const DeviceSpec& spec = topology.devices[d];
    auto device = std::make_unique<PJRTX_Device>();
    device->client = client.get();
    device->index = static_cast<int>(d);
    device->description.spec = &spec;
    device->description.attributes.Assign(spec.attributes);
    if (spec.addressable) {
      device->local_hardware_id = next_local_id++;
      client->addressable_devices.push_back(device.get());
    }
    for (int m : spec.memories) device->memories.push_back(client->memories[m]);
    client->devices.push_back(device.get());
    client->topology.descriptions.push_back(&device->description);
    client->device_storage.push_back(std::move(device));
  }
  for (size_t m = 0; m < topology.memories.size(); ++m) {
    for (int d : topology.memories[m].devices) {
      client->memories[m]->devices.push_back(client->devices[d]);
    }
  }
  client->topology.client = client.get();
  client->topology.attributes.Assign(topology.attributes);
  std::vector<Attribute> attributes = PluginAttributeList();
  attributes.insert(attributes.end(), topology.attributes.begin(),
                    topology.attributes.end());
  client->attributes.Assign(std::move(attributes));
  return client;
}

PJRTX_Error* ClientCreate(PJRTX_Client_Create_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Client_Create_Args, args);
  args->client = nullptr;
  absl::StatusOr<std::unique_ptr<PJRTX_Client>> client = MakeClient(*args);
  if (!client.ok()) return ToError(client.status());
  args->client = client->release();
  return nullptr;
}

PJRTX_Error* ClientDestroy(PJRTX_Client_Destroy_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Client_Destroy_Args, args);
  if (args->client == nullptr) return nullptr;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->client, "client"));
  delete args->client;
  return nullptr;
}

PJRTX_Error* ClientPlatform(PJRTX_Client_Platform_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Client_Platform_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->client, "client"));
  args->platform_name = args->client->platform_name.c_str();
  args->platform_name_size = args->client->platform_name.size();
  const std::string& version = args->client->state->topology().platform_version;
  args->platform_version = version.c_str();
  args->platform_version_size = version.size();
  return nullptr;
}

PJRTX_Error* ClientProcessIndex(PJRTX_Client_ProcessIndex_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Client_ProcessIndex_Args, args);
  args->process_index = 0;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->client, "client"));
  args->process_index = args->client->state->topology().process_index;
  return nullptr;
}

PJRTX_Error* ClientAttributes(PJRTX_Client_Attributes_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Client_Attributes_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->client, "client"));
  args->attributes = args->client->attributes.data();
  args->num_attributes = args->client->attributes.size();
  return nullptr;
}

PJRTX_Error* ClientDevices(PJRTX_Client_Devices_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Client_Devices_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->client, "client"));
  args->devices = args->client->devices.data();
  args->num_devices = args->client->devices.size();
  return nullptr;
}

PJRTX_Error* ClientAddressableDevices(PJRTX_Client_Devices_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Client_Devices_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->client, "client"));
  args->devices = args->client->addressable_devices.data();
  args->num_devices = args->client->addressable_devices.size();
  return nullptr;
}

PJRTX_Error* ClientLookupDevice(PJRTX_Client_LookupDevice_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Client_LookupDevice_Args, args);
  args->device = nullptr;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->client, "client"));
  for (PJRTX_Device* device : args->client->devices) {
    if (device->description.spec->global_id == args->id) {
      args->device = device;
      return nullptr;
    }
  }
  std::vector<int64_t> ids;
  for (PJRTX_Device* device : args->client->devices) {
    ids.push_back(device->description.spec->global_id);
  }
  return ToError(absl::NotFoundError(absl::StrCat(
      "No device with global id ", args->id, "; the client has ", ids.size(),
      " devices",
      ids.empty() ? ""
                  : absl::StrCat(
                        " with ids ", *std::min_element(ids.begin(), ids.end()),
                        "..", *std::max_element(ids.begin(), ids.end())))));
}

PJRTX_Error* ClientAddressableMemories(
    PJRTX_Client_AddressableMemories_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Client_AddressableMemories_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->client, "client"));
  args->memories = args->client->memories.data();
  args->num_memories = args->client->memories.size();
  return nullptr;
}

PJRTX_Error* ClientTopologyDescription(
    PJRTX_Client_TopologyDescription_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Client_TopologyDescription_Args, args);
  args->topology = nullptr;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->client, "client"));
  args->topology = &args->client->topology;
  return nullptr;
}

}  // namespace

void FillClientSlots(PJRTX_Api& api) {
  api.Client_Create = ClientCreate;
  api.Client_Destroy = ClientDestroy;
  api.Client_Platform = ClientPlatform;
  api.Client_ProcessIndex = ClientProcessIndex;
  api.Client_Attributes = ClientAttributes;
  api.Client_Devices = ClientDevices;
  api.Client_AddressableDevices = ClientAddressableDevices;
  api.Client_LookupDevice = ClientLookupDevice;
  api.Client_AddressableMemories = ClientAddressableMemories;
  api.Client_TopologyDescription = ClientTopologyDescription;
}

}  // namespace pjrtx::abi
