// PJRT entry points of devices, device descriptions and the topology.
//
// JAX aborts the process when most of these fail (REFERENCE.md 1.7), so
// for a valid handle they never do: what they report was read from pjrtx
// when the client was made, or is read from pjrtx calls that cannot fail
// for the client's own handles.
#include <limits>

#include "absl/strings/str_cat.h"
#include "runtime/pjrt/api_support.h"
#include "runtime/pjrt/client_views.h"
#include "runtime/pjrt/handles.h"
#include "support/status_macros.h"

namespace pjrtx::pjrt {
namespace {

absl::Status DeviceGetDescription(PJRT_Device_GetDescription_Args& args) {
  args.device_description = &args.device->description;
  return absl::OkStatus();
}

absl::Status DeviceIsAddressable(PJRT_Device_IsAddressable_Args& args) {
  args.is_addressable = args.device->addressable;
  return absl::OkStatus();
}

// -1 for a device of another process, which has none here.
absl::Status DeviceLocalHardwareId(PJRT_Device_LocalHardwareId_Args& args) {
  args.local_hardware_id = args.device->local_hardware_id;
  return absl::OkStatus();
}

absl::Status DeviceAddressableMemories(
    PJRT_Device_AddressableMemories_Args& args) {
  args.memories = args.device->memories.data();
  args.num_memories = args.device->memories.size();
  return absl::OkStatus();
}

absl::Status DeviceDefaultMemory(PJRT_Device_DefaultMemory_Args& args) {
  args.memory = nullptr;
  if (args.device->memories.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("Device ", GlobalId(*args.device),
                     " belongs to another process and has no memory here"));
  }
  args.memory = args.device->memories.front();
  return absl::OkStatus();
}

absl::Status DeviceMemoryStats(PJRT_Device_MemoryStats_Args& args) {
  auto stats = PJRTX_ARGS(PJRTX_Device_MemoryStats_Args);
  stats.device = args.device->device;
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Device_MemoryStats, stats));
  args.bytes_in_use = stats.bytes_in_use;
  args.peak_bytes_in_use = stats.peak_bytes_in_use;
  args.peak_bytes_in_use_is_set = true;
  args.num_allocs = stats.num_allocs;
  args.num_allocs_is_set = true;
  args.bytes_limit = stats.bytes_limit;
  args.bytes_limit_is_set = stats.bytes_limit > 0;
  args.largest_alloc_size_is_set = false;
  args.bytes_reserved_is_set = false;
  args.peak_bytes_reserved_is_set = false;
  args.bytes_reservable_limit_is_set = false;
  args.largest_free_block_bytes_is_set = false;
  args.pool_bytes_is_set = false;
  args.peak_pool_bytes_is_set = false;
  return absl::OkStatus();
}

absl::Status DescriptionId(PJRT_DeviceDescription_Id_Args& args) {
  auto id = PJRTX_ARGS(PJRTX_DeviceDescription_Id_Args);
  id.device_description = args.device_description->description;
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().DeviceDescription_Id, id));
  if (id.id < 0 || id.id > std::numeric_limits<int>::max()) {
    return absl::OutOfRangeError(
        absl::StrCat("Device id ", id.id, " does not fit PJRT's int"));
  }
  args.id = static_cast<int>(id.id);
  return absl::OkStatus();
}

absl::Status DescriptionProcessIndex(
    PJRT_DeviceDescription_ProcessIndex_Args& args) {
  auto index = PJRTX_ARGS(PJRTX_DeviceDescription_ProcessIndex_Args);
  index.device_description = args.device_description->description;
  PJRTX_RETURN_IF_ERROR(
      CallPjrtx(Pjrtx().DeviceDescription_ProcessIndex, index));
  args.process_index = index.process_index;
  return absl::OkStatus();
}

absl::Status DescriptionAttributes(
    PJRT_DeviceDescription_Attributes_Args& args) {
  args.attributes = args.device_description->attributes.data();
  args.num_attributes = args.device_description->attributes.size();
  return absl::OkStatus();
}

absl::Status DescriptionKind(PJRT_DeviceDescription_Kind_Args& args) {
  auto kind = PJRTX_ARGS(PJRTX_DeviceDescription_Kind_Args);
  kind.device_description = args.device_description->description;
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().DeviceDescription_Kind, kind));
  args.device_kind = kind.device_kind;
  args.device_kind_size = kind.device_kind_size;
  return absl::OkStatus();
}

absl::Status DescriptionDebugString(
    PJRT_DeviceDescription_DebugString_Args& args) {
  auto text = PJRTX_ARGS(PJRTX_DeviceDescription_String_Args);
  text.device_description = args.device_description->description;
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().DeviceDescription_DebugString, text));
  args.debug_string = text.text;
  args.debug_string_size = text.text_size;
  return absl::OkStatus();
}

absl::Status DescriptionToString(PJRT_DeviceDescription_ToString_Args& args) {
  auto text = PJRTX_ARGS(PJRTX_DeviceDescription_String_Args);
  text.device_description = args.device_description->description;
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().DeviceDescription_ToString, text));
  args.to_string = text.text;
  args.to_string_size = text.text_size;
  return absl::OkStatus();
}

absl::Status TopologyPlatformName(
    PJRT_TopologyDescription_PlatformName_Args& args) {
  const std::string& name = args.topology->client->platform_name;
  args.platform_name = name.data();
  args.platform_name_size = name.size();
  return absl::OkStatus();
}

absl::Status TopologyPlatformVersion(
    PJRT_TopologyDescription_PlatformVersion_Args& args) {
  const std::string& version = args.topology->client->platform_version;
  args.platform_version = version.data();
  args.platform_version_size = version.size();
  return absl::OkStatus();
}

absl::Status TopologyDeviceDescriptions(
    PJRT_TopologyDescription_GetDeviceDescriptions_Args& args) {
  args.descriptions = args.topology->descriptions.data();
  args.num_descriptions = args.topology->descriptions.size();
  return absl::OkStatus();
}

absl::Status TopologyAttributes(
    PJRT_TopologyDescription_Attributes_Args& args) {
  args.attributes = args.topology->attributes.data();
  args.num_attributes = args.topology->attributes.size();
  return absl::OkStatus();
}

// The only topologies are the clients' own (TopologyDescription_Create is
// not implemented), which their clients destroy.
absl::Status TopologyDestroy(PJRT_TopologyDescription_Destroy_Args& args) {
  if (args.topology == nullptr) return absl::OkStatus();
  return absl::InvalidArgumentError(
      "PJRT_TopologyDescription_Destroy: the topology belongs to its client, "
      "which destroys it");
}

}  // namespace

void FillDeviceSlots(PJRT_Api& api) {
  PJRTX_PJRT_SLOT(api, PJRT_Device_GetDescription, DeviceGetDescription);
  PJRTX_PJRT_SLOT(api, PJRT_Device_IsAddressable, DeviceIsAddressable);
  PJRTX_PJRT_SLOT(api, PJRT_Device_LocalHardwareId, DeviceLocalHardwareId);
  PJRTX_PJRT_SLOT(api, PJRT_Device_AddressableMemories,
                  DeviceAddressableMemories);
  PJRTX_PJRT_SLOT(api, PJRT_Device_DefaultMemory, DeviceDefaultMemory);
  PJRTX_PJRT_SLOT(api, PJRT_Device_MemoryStats, DeviceMemoryStats);
  PJRTX_PJRT_SLOT(api, PJRT_DeviceDescription_Id, DescriptionId);
  PJRTX_PJRT_SLOT(api, PJRT_DeviceDescription_ProcessIndex,
                  DescriptionProcessIndex);
  PJRTX_PJRT_SLOT(api, PJRT_DeviceDescription_Attributes,
                  DescriptionAttributes);
  PJRTX_PJRT_SLOT(api, PJRT_DeviceDescription_Kind, DescriptionKind);
  PJRTX_PJRT_SLOT(api, PJRT_DeviceDescription_DebugString,
                  DescriptionDebugString);
  PJRTX_PJRT_SLOT(api, PJRT_DeviceDescription_ToString, DescriptionToString);
  PJRTX_PJRT_SLOT(api, PJRT_TopologyDescription_PlatformName,
                  TopologyPlatformName);
  PJRTX_PJRT_SLOT(api, PJRT_TopologyDescription_PlatformVersion,
                  TopologyPlatformVersion);
  PJRTX_PJRT_SLOT(api, PJRT_TopologyDescription_GetDeviceDescriptions,
                  TopologyDeviceDescriptions);
  PJRTX_PJRT_SLOT(api, PJRT_TopologyDescription_Attributes, TopologyAttributes);
  PJRTX_PJRT_SLOT(api, PJRT_TopologyDescription_Destroy, TopologyDestroy);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api, PJRT_TopologyDescription_Create);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api, PJRT_TopologyDescription_Serialize);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api, PJRT_TopologyDescription_Deserialize);
}

}  // namespace pjrtx::pjrt
