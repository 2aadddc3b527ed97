#include "runtime/client/device.h"

#include "runtime/client/status_from_error.h"
#include "support/status_macros.h"

namespace pjrtx::client {

// The queries below cannot fail on a device handle the client handed out,
// so their errors are dropped and defaults returned.

PJRTX_DeviceDescription* Device::description() const {
  PJRTX_CLIENT_ARGS(PJRTX_Device_GetDescription_Args, args);
  args.device = handle_;
  TakeStatus(api_, api_->Device_GetDescription(&args)).IgnoreError();
  return args.device_description;
}

int64_t Device::id() const {
  PJRTX_CLIENT_ARGS(PJRTX_DeviceDescription_Id_Args, args);
  args.device_description = description();
  TakeStatus(api_, api_->DeviceDescription_Id(&args)).IgnoreError();
  return args.id;
}

int Device::process_index() const {
  PJRTX_CLIENT_ARGS(PJRTX_DeviceDescription_ProcessIndex_Args, args);
  args.device_description = description();
  TakeStatus(api_, api_->DeviceDescription_ProcessIndex(&args)).IgnoreError();
  return args.process_index;
}

std::string Device::kind() const {
  PJRTX_CLIENT_ARGS(PJRTX_DeviceDescription_Kind_Args, args);
  args.device_description = description();
  TakeStatus(api_, api_->DeviceDescription_Kind(&args)).IgnoreError();
  return std::string(args.device_kind, args.device_kind_size);
}

std::string Device::ToString() const {
  PJRTX_CLIENT_ARGS(PJRTX_DeviceDescription_String_Args, args);
  args.device_description = description();
  TakeStatus(api_, api_->DeviceDescription_ToString(&args)).IgnoreError();
  return std::string(args.text, args.text_size);
}

bool Device::is_addressable() const {
  PJRTX_CLIENT_ARGS(PJRTX_Device_IsAddressable_Args, args);
  args.device = handle_;
  TakeStatus(api_, api_->Device_IsAddressable(&args)).IgnoreError();
  return args.is_addressable;
}

std::vector<NamedValue> Device::attributes() const {
  PJRTX_CLIENT_ARGS(PJRTX_DeviceDescription_Attributes_Args, args);
  args.device_description = description();
  TakeStatus(api_, api_->DeviceDescription_Attributes(&args)).IgnoreError();
  return ReadNamedValues(args.attributes, args.num_attributes);
}

absl::StatusOr<std::vector<MemoryInfo>> Device::memories() const {
  PJRTX_CLIENT_ARGS(PJRTX_Device_AddressableMemories_Args, args);
  args.device = handle_;
  PJRTX_RETURN_IF_ERROR(
      TakeStatus(api_, api_->Device_AddressableMemories(&args)));
  std::vector<MemoryInfo> result;
  for (size_t i = 0; i < args.num_memories; ++i) {
    MemoryInfo info;
    info.handle = args.memories[i];
    PJRTX_CLIENT_ARGS(PJRTX_Memory_Id_Args, id);
    id.memory = info.handle;
    PJRTX_RETURN_IF_ERROR(TakeStatus(api_, api_->Memory_Id(&id)));
    PJRTX_CLIENT_ARGS(PJRTX_Memory_Kind_Args, kind);
    kind.memory = info.handle;
    PJRTX_RETURN_IF_ERROR(TakeStatus(api_, api_->Memory_Kind(&kind)));
    info.id = id.id;
    info.kind.assign(kind.kind, kind.kind_size);
    result.push_back(std::move(info));
  }
  return result;
}

absl::StatusOr<MemoryStats> Device::memory_stats() const {
  PJRTX_CLIENT_ARGS(PJRTX_Device_MemoryStats_Args, args);
  args.device = handle_;
  PJRTX_RETURN_IF_ERROR(TakeStatus(api_, api_->Device_MemoryStats(&args)));
  return MemoryStats{args.bytes_in_use, args.peak_bytes_in_use, args.num_allocs,
                     args.bytes_limit};
}

absl::StatusOr<TransferCounters> Device::transfer_counters() const {
  PJRTX_CLIENT_ARGS(PJRTX_Device_TransferCounters_Args, args);
  args.device = handle_;
  PJRTX_RETURN_IF_ERROR(TakeStatus(api_, api_->Device_TransferCounters(&args)));
  TransferCounters c;
  c.host_to_device_bytes = args.host_to_device_bytes;
  c.host_to_device_ops = args.host_to_device_ops;
  c.device_to_host_bytes = args.device_to_host_bytes;
  c.device_to_host_ops = args.device_to_host_ops;
  c.device_to_device_bytes = args.device_to_device_bytes;
  c.device_to_device_ops = args.device_to_device_ops;
  c.staging_bytes = args.staging_bytes;
  c.staging_ops = args.staging_ops;
  c.dcn_sent_bytes = args.dcn_sent_bytes;
  c.dcn_sent_ops = args.dcn_sent_ops;
  c.dcn_received_bytes = args.dcn_received_bytes;
  c.dcn_received_ops = args.dcn_received_ops;
  return c;
}

}  // namespace pjrtx::client
