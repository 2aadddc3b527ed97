// Entry points of devices, device descriptions, memories and topology.
#include "absl/strings/str_cat.h"
#include "runtime/core/abi/api_support.h"
#include "runtime/core/abi/handles.h"

namespace pjrtx::abi {
namespace {

// Checks that `device` is an addressable device.
absl::Status CheckAddressable(const PJRTX_Device* device) {
  if (device->local_hardware_id < 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Device ", device->description.spec->global_id, " belongs to process ",
        device->description.spec->process_index,
        " and is not addressable from this process"));
  }
  return absl::OkStatus();
}

PJRTX_Error* DeviceGetDescription(PJRTX_Device_GetDescription_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Device_GetDescription_Args, args);
  args->device_description = nullptr;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->device, "device"));
  args->device_description = &args->device->description;
  return nullptr;
}

PJRTX_Error* DeviceIsAddressable(PJRTX_Device_IsAddressable_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Device_IsAddressable_Args, args);
  args->is_addressable = false;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->device, "device"));
  args->is_addressable = args->device->local_hardware_id >= 0;
  return nullptr;
}

PJRTX_Error* DeviceLocalHardwareId(PJRTX_Device_LocalHardwareId_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Device_LocalHardwareId_Args, args);
  args->local_hardware_id = -1;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->device, "device"));
  PJRTX_RETURN_ERROR_IF(CheckAddressable(args->device));
  args->local_hardware_id = args->device->local_hardware_id;
  return nullptr;
}

PJRTX_Error* DeviceAddressableMemories(
    PJRTX_Device_AddressableMemories_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Device_AddressableMemories_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->device, "device"));
  args->memories = args->device->memories.data();
  args->num_memories = args->device->memories.size();
  return nullptr;
}

PJRTX_Error* DeviceDefaultMemory(PJRTX_Device_DefaultMemory_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Device_DefaultMemory_Args, args);
  args->memory = nullptr;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->device, "device"));
  PJRTX_RETURN_ERROR_IF(CheckAddressable(args->device));
  args->memory = args->device->memories.front();
  return nullptr;
}

PJRTX_Error* DeviceMemoryStats(PJRTX_Device_MemoryStats_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Device_MemoryStats_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->device, "device"));
  PJRTX_RETURN_ERROR_IF(CheckAddressable(args->device));
  ClientState& state = *args->device->client->state;
  MemoryStats stats =
      state.memory(state.default_memory(args->device->index)).stats();
  args->bytes_in_use = stats.bytes_in_use;
  args->peak_bytes_in_use = stats.peak_bytes_in_use;
  args->num_allocs = stats.num_allocs;
  args->bytes_limit = stats.bytes_limit;
  return nullptr;
}

PJRTX_Error* DeviceTransferCounters(PJRTX_Device_TransferCounters_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Device_TransferCounters_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->device, "device"));
  PJRTX_RETURN_ERROR_IF(CheckAddressable(args->device));
  const TransferCounters& c =
      args->device->client->state->counters(args->device->index);
  args->host_to_device_bytes = c.host_to_device.bytes();
  args->host_to_device_ops = c.host_to_device.ops();
  args->device_to_host_bytes = c.device_to_host.bytes();
  args->device_to_host_ops = c.device_to_host.ops();
  args->device_to_device_bytes = c.device_to_device.bytes();
  args->device_to_device_ops = c.device_to_device.ops();
  args->staging_bytes = c.staging.bytes();
  args->staging_ops = c.staging.ops();
  args->dcn_sent_bytes = c.dcn_sent.bytes();
  args->dcn_sent_ops = c.dcn_sent.ops();
  args->dcn_received_bytes = c.dcn_received.bytes();
  args->dcn_received_ops = c.dcn_received.ops();
  return nullptr;
}

PJRTX_Error* DescriptionId(PJRTX_DeviceDescription_Id_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_DeviceDescription_Id_Args, args);
  PJRTX_RETURN_ERROR_IF(
      CheckHandle(args->device_description, "device_description"));
  args->id = args->device_description->spec->global_id;
  return nullptr;
}

PJRTX_Error* DescriptionProcessIndex(
    PJRTX_DeviceDescription_ProcessIndex_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_DeviceDescription_ProcessIndex_Args, args);
  PJRTX_RETURN_ERROR_IF(
      CheckHandle(args->device_description, "device_description"));
  args->process_index = args->device_description->spec->process_index;
  return nullptr;
}

PJRTX_Error* DescriptionKind(PJRTX_DeviceDescription_Kind_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_DeviceDescription_Kind_Args, args);
  PJRTX_RETURN_ERROR_IF(
      CheckHandle(args->device_description, "device_description"));
  const std::string& kind = args->device_description->spec->kind;
  args->device_kind = kind.c_str();
  args->device_kind_size = kind.size();
  return nullptr;
}

PJRTX_Error* DescriptionAttributes(
    PJRTX_DeviceDescription_Attributes_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_DeviceDescription_Attributes_Args, args);
  PJRTX_RETURN_ERROR_IF(
      CheckHandle(args->device_description, "device_description"));
  args->attributes = args->device_description->attributes.data();
  args->num_attributes = args->device_description->attributes.size();
  return nullptr;
}

PJRTX_Error* DescriptionToString(PJRTX_DeviceDescription_String_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_DeviceDescription_String_Args, args);
  PJRTX_RETURN_ERROR_IF(
      CheckHandle(args->device_description, "device_description"));
  const std::string& text = args->device_description->spec->to_string;
  args->text = text.c_str();
  args->text_size = text.size();
  return nullptr;
}

PJRTX_Error* DescriptionDebugString(PJRTX_DeviceDescription_String_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_DeviceDescription_String_Args, args);
  PJRTX_RETURN_ERROR_IF(
      CheckHandle(args->device_description, "device_description"));
  const std::string& text = args->device_description->spec->debug_string;
  args->text = text.c_str();
  args->text_size = text.size();
  return nullptr;
}

PJRTX_Error* MemoryId(PJRTX_Memory_Id_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Memory_Id_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->memory, "memory"));
  args->id = args->memory->index;
  return nullptr;
}

PJRTX_Error* MemoryKind(PJRTX_Memory_Kind_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Memory_Kind_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->memory, "memory"));
  const MemorySpec& spec =
      args->memory->client->state->topology().memories[args->memory->index];
  args->kind = spec.kind.c_str();
  args->kind_size = spec.kind.size();
  args->kind_code = static_cast<int>(spec.kind_code);
  return nullptr;
}

PJRTX_Error* MemoryToString(PJRTX_Memory_String_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Memory_String_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->memory, "memory"));
  args->text = args->memory->to_string.c_str();
  args->text_size = args->memory->to_string.size();
  return nullptr;
}

PJRTX_Error* MemoryAddressableByDevices(
    PJRTX_Memory_AddressableByDevices_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Memory_AddressableByDevices_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->memory, "memory"));
  args->devices = args->memory->devices.data();
  args->num_devices = args->memory->devices.size();
  return nullptr;
}

PJRTX_Error* TopologyPlatformName(
    PJRTX_TopologyDescription_PlatformName_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_TopologyDescription_PlatformName_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->topology, "topology"));
  const std::string& name = args->topology->client->platform_name;
  args->platform_name = name.c_str();
  args->platform_name_size = name.size();
  return nullptr;
}

PJRTX_Error* TopologyDeviceDescriptions(
    PJRTX_TopologyDescription_GetDeviceDescriptions_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_TopologyDescription_GetDeviceDescriptions_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->topology, "topology"));
  args->descriptions = args->topology->descriptions.data();
  args->num_descriptions = args->topology->descriptions.size();
  return nullptr;
}

PJRTX_Error* TopologyAttributes(
    PJRTX_TopologyDescription_Attributes_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_TopologyDescription_Attributes_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->topology, "topology"));
  args->attributes = args->topology->attributes.data();
  args->num_attributes = args->topology->attributes.size();
  return nullptr;
}

}  // namespace

void FillDeviceSlots(PJRTX_Api& api) {
  api.Device_GetDescription = DeviceGetDescription;
  api.Device_IsAddressable = DeviceIsAddressable;
  api.Device_LocalHardwareId = DeviceLocalHardwareId;
  api.Device_AddressableMemories = DeviceAddressableMemories;
  api.Device_DefaultMemory = DeviceDefaultMemory;
  api.Device_MemoryStats = DeviceMemoryStats;
  api.Device_TransferCounters = DeviceTransferCounters;
  api.DeviceDescription_Id = DescriptionId;
  api.DeviceDescription_ProcessIndex = DescriptionProcessIndex;
  api.DeviceDescription_Kind = DescriptionKind;
  api.DeviceDescription_Attributes = DescriptionAttributes;
  api.DeviceDescription_ToString = DescriptionToString;
  api.DeviceDescription_DebugString = DescriptionDebugString;
  api.Memory_Id = MemoryId;
  api.Memory_Kind = MemoryKind;
  api.Memory_ToString = MemoryToString;
  api.Memory_AddressableByDevices = MemoryAddressableByDevices;
  api.TopologyDescription_PlatformName = TopologyPlatformName;
  api.TopologyDescription_GetDeviceDescriptions = TopologyDeviceDescriptions;
  api.TopologyDescription_Attributes = TopologyAttributes;
}

}  // namespace pjrtx::abi
