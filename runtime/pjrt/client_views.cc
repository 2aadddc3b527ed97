#include "runtime/pjrt/client_views.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "runtime/pjrt/api_support.h"
#include "runtime/pjrt/named_values.h"
#include "support/status_macros.h"

namespace pjrtx::pjrt {
namespace {

absl::Status DescribeDevice(PJRT_Device& device) {
  auto description = PJRTX_ARGS(PJRTX_Device_GetDescription_Args);
  description.device = device.device;
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Device_GetDescription, description));
  device.description.description = description.device_description;

  auto attributes = PJRTX_ARGS(PJRTX_DeviceDescription_Attributes_Args);
  attributes.device_description = description.device_description;
  PJRTX_RETURN_IF_ERROR(
      CallPjrtx(Pjrtx().DeviceDescription_Attributes, attributes));
  device.description.attributes =
      ToPjrtAttributes(attributes.attributes, attributes.num_attributes);

  auto addressable = PJRTX_ARGS(PJRTX_Device_IsAddressable_Args);
  addressable.device = device.device;
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Device_IsAddressable, addressable));
  device.addressable = addressable.is_addressable;
  if (!device.addressable) return absl::OkStatus();

  auto hardware_id = PJRTX_ARGS(PJRTX_Device_LocalHardwareId_Args);
  hardware_id.device = device.device;
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Device_LocalHardwareId, hardware_id));
  device.local_hardware_id = hardware_id.local_hardware_id;
  return absl::OkStatus();
}

absl::Status AddDevices(PJRT_Client& client) {
  auto devices = PJRTX_ARGS(PJRTX_Client_Devices_Args);
  devices.client = client.client.get();
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Client_Devices, devices));
  for (size_t i = 0; i < devices.num_devices; ++i) {
    auto device = std::make_unique<PJRT_Device>();
    device->client = &client;
    device->device = devices.devices[i];
    PJRTX_RETURN_IF_ERROR(DescribeDevice(*device));
    client.devices.push_back(device.get());
    client.device_of[device->device] = device.get();
    client.topology.descriptions.push_back(&device->description);
    client.device_storage.push_back(std::move(device));
  }
  auto addressable = PJRTX_ARGS(PJRTX_Client_Devices_Args);
  addressable.client = client.client.get();
  PJRTX_RETURN_IF_ERROR(
      CallPjrtx(Pjrtx().Client_AddressableDevices, addressable));
  for (size_t i = 0; i < addressable.num_devices; ++i) {
    PJRTX_ASSIGN_OR_RETURN(PJRT_Device * device,
                           DeviceOf(client, addressable.devices[i]));
    client.addressable_devices.push_back(device);
  }
  return absl::OkStatus();
}

// The view of `memory` as `device` addresses it, made on first sight.
absl::StatusOr<PJRT_Memory*> AddMemoryView(PJRT_Client& client,
                                           PJRTX_Memory* memory,
                                           PJRT_Device& device) {
  auto [it, inserted] =
      client.memory_of.try_emplace({memory, device.device}, nullptr);
  if (!inserted) return it->second;
  auto view = std::make_unique<PJRT_Memory>();
  view->client = &client;
  view->memory = memory;
  view->id = static_cast<int>(client.memories.size());
  view->devices = {&device};

  auto kind = PJRTX_ARGS(PJRTX_Memory_Kind_Args);
  kind.memory = memory;
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Memory_Kind, kind));
  view->kind = absl::string_view(kind.kind, kind.kind_size);
  view->kind_code = kind.kind_code;
  auto text = PJRTX_ARGS(PJRTX_Memory_String_Args);
  text.memory = memory;
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Memory_ToString, text));
  view->to_string = absl::StrCat("Memory(id=", view->id, ", kind=", view->kind,
                                 ", device=", GlobalId(device), ")");
  view->debug_string =
      absl::StrCat(view->to_string, " over pjrtx ",
                   absl::string_view(text.text, text.text_size));

  it->second = view.get();
  client.memories.push_back(view.get());
  client.memory_storage.push_back(std::move(view));
  return it->second;
}

// Every addressable device's memories, default first, each a view of its
// own.
absl::Status AddMemories(PJRT_Client& client) {
  for (PJRT_Device* device : client.addressable_devices) {
    auto default_memory = PJRTX_ARGS(PJRTX_Device_DefaultMemory_Args);
    default_memory.device = device->device;
    PJRTX_RETURN_IF_ERROR(
        CallPjrtx(Pjrtx().Device_DefaultMemory, default_memory));
    auto memories = PJRTX_ARGS(PJRTX_Device_AddressableMemories_Args);
    memories.device = device->device;
    PJRTX_RETURN_IF_ERROR(
        CallPjrtx(Pjrtx().Device_AddressableMemories, memories));
    PJRTX_ASSIGN_OR_RETURN(
        PJRT_Memory * view,
        AddMemoryView(client, default_memory.memory, *device));
    device->memories.push_back(view);
    for (size_t i = 0; i < memories.num_memories; ++i) {
      if (memories.memories[i] == default_memory.memory) continue;
      PJRTX_ASSIGN_OR_RETURN(
          view, AddMemoryView(client, memories.memories[i], *device));
      device->memories.push_back(view);
    }
  }
  return absl::OkStatus();
}

absl::Status AddTopology(PJRT_Client& client) {
  auto topology = PJRTX_ARGS(PJRTX_Client_TopologyDescription_Args);
  topology.client = client.client.get();
  PJRTX_RETURN_IF_ERROR(
      CallPjrtx(Pjrtx().Client_TopologyDescription, topology));
  client.topology.client = &client;
  client.topology.topology = topology.topology;
  auto attributes = PJRTX_ARGS(PJRTX_TopologyDescription_Attributes_Args);
  attributes.topology = topology.topology;
  PJRTX_RETURN_IF_ERROR(
      CallPjrtx(Pjrtx().TopologyDescription_Attributes, attributes));
  client.topology.attributes =
      ToPjrtAttributes(attributes.attributes, attributes.num_attributes);
  return absl::OkStatus();
}

}  // namespace

absl::Status BuildClientViews(PJRT_Client& client) {
  PJRTX_RETURN_IF_ERROR(AddDevices(client));
  PJRTX_RETURN_IF_ERROR(AddMemories(client));
  return AddTopology(client);
}

absl::StatusOr<PJRT_Device*> DeviceOf(const PJRT_Client& client,
                                      const PJRTX_Device* device) {
  auto it = client.device_of.find(device);
  if (it == client.device_of.end()) {
    return absl::InternalError("A pjrtx device the client does not list");
  }
  return it->second;
}

absl::StatusOr<PJRT_Memory*> MemoryOf(const PJRT_Client& client,
                                      const PJRTX_Memory* memory,
                                      const PJRTX_Device* device) {
  auto it = client.memory_of.find({memory, device});
  if (it == client.memory_of.end()) {
    return absl::InternalError(
        "A pjrtx memory the client does not list for the device");
  }
  return it->second;
}

absl::StatusOr<std::vector<int64_t>> DefaultDeviceAssignment(
    const PJRT_Client& client, int num_replicas, int num_partitions) {
  const int64_t needed = int64_t{num_replicas} * num_partitions;
  if (num_replicas < 1 || num_partitions < 1 ||
      needed > static_cast<int64_t>(client.addressable_devices.size())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "No default device assignment of ", num_replicas, " replica(s) x ",
        num_partitions, " partition(s): the client has ",
        client.addressable_devices.size(), " addressable device(s)"));
  }
  std::vector<int64_t> ids;
  ids.reserve(needed);
  for (int r = 0; r < num_replicas; ++r) {
    for (int p = 0; p < num_partitions; ++p) {
      ids.push_back(
          GlobalId(*client.addressable_devices[p * num_replicas + r]));
    }
  }
  return ids;
}

int64_t GlobalId(const PJRT_Device& device) {
  auto id = PJRTX_ARGS(PJRTX_DeviceDescription_Id_Args);
  id.device_description = device.description.description;
  // Cannot fail: the description is the pjrtx client's own.
  TakePjrtxError(Pjrtx().DeviceDescription_Id(&id)).IgnoreError();
  return id.id;
}

}  // namespace pjrtx::pjrt
