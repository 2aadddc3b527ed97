// Entry points of PJRTX_Buffer, and buffer creation from host data.
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "runtime/core/abi/api_support.h"
#include "runtime/core/abi/handles.h"
#include "support/status_macros.h"

namespace pjrtx::abi {
namespace {

absl::Status CheckSameClient(const PJRTX_Client* expected,
                             const PJRTX_Client* actual,
                             absl::string_view what) {
  if (expected != actual) {
    return absl::InvalidArgumentError(absl::StrCat(
        what, " belongs to another client; handles cannot cross clients"));
  }
  return absl::OkStatus();
}

absl::Status CheckAddressableDevice(const PJRTX_Device* device) {
  if (device->local_hardware_id < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("Device ", device->description.spec->global_id,
                     " is not addressable from this process"));
  }
  return absl::OkStatus();
}

// Resolves the (device, memory) pair a new buffer goes to.
absl::Status ResolvePlacement(PJRTX_Client* client, PJRTX_Device* device,
                              PJRTX_Memory* memory, int* device_index,
                              int* memory_index) {
  if (device == nullptr && memory == nullptr) {
    return absl::InvalidArgumentError(
        "Neither 'device' nor 'memory' is set; one of them must be");
  }
  if (device != nullptr) {
    PJRTX_RETURN_IF_ERROR(CheckHandle(device, "device"));
    PJRTX_RETURN_IF_ERROR(CheckSameClient(client, device->client, "device"));
    PJRTX_RETURN_IF_ERROR(CheckAddressableDevice(device));
  }
  if (memory != nullptr) {
    PJRTX_RETURN_IF_ERROR(CheckHandle(memory, "memory"));
    PJRTX_RETURN_IF_ERROR(CheckSameClient(client, memory->client, "memory"));
  }
  ClientState& state = *client->state;
  if (memory == nullptr) {
    *device_index = device->index;
    *memory_index = state.default_memory(device->index);
    return absl::OkStatus();
  }
  *memory_index = memory->index;
  if (device == nullptr) {
    if (memory->devices.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          memory->to_string, " is addressed by no device of this process"));
    }
    *device_index = memory->devices.front()->index;
    return absl::OkStatus();
  }
  if (!state.DeviceAddressesMemory(device->index, memory->index)) {
    return absl::InvalidArgumentError(
        absl::StrCat(memory->to_string, " is not addressable by device ",
                     device->description.spec->global_id));
  }
  *device_index = device->index;
  return absl::OkStatus();
}

PJRTX_Event* WrapEvent(EventRef event) {
  auto* handle = new PJRTX_Event();
  handle->event = std::move(event);
  return handle;
}

PJRTX_Buffer* WrapBuffer(PJRTX_Client* client, std::unique_ptr<Buffer> buffer) {
  auto* handle = new PJRTX_Buffer();
  handle->client = client;
  handle->buffer = std::move(buffer);
  return handle;
}

PJRTX_Error* BufferFromHostBuffer(
    PJRTX_Client_BufferFromHostBuffer_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Client_BufferFromHostBuffer_Args, args);
  args->done_with_host_buffer = nullptr;
  args->buffer = nullptr;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->client, "client"));
  int device = 0;
  int memory = 0;
  PJRTX_RETURN_ERROR_IF(ResolvePlacement(args->client, args->device,
                                         args->memory, &device, &memory));
  if (args->num_dims > 0 && args->dims == nullptr) {
    return ToError(absl::InvalidArgumentError(
        absl::StrCat("dims is NULL but num_dims is ", args->num_dims)));
  }
  if (args->byte_strides != nullptr &&
      args->num_byte_strides != args->num_dims) {
    return ToError(absl::InvalidArgumentError(absl::StrCat(
        "Got ", args->num_byte_strides, " byte strides for ", args->num_dims,
        " dimensions; expected one stride per dimension")));
  }
  HostArray host;
  host.data = args->data;
  host.type = args->type;
  host.dims.assign(args->dims, args->dims + args->num_dims);
  if (args->byte_strides != nullptr) {
    host.byte_strides.assign(args->byte_strides,
                             args->byte_strides + args->num_byte_strides);
  }
  std::vector<EventRef> wait_for;
  PJRTX_RETURN_ERROR_IF(
      ReadWaitEvents(args->wait_events, args->num_wait_events, &wait_for));
  EventRef done_with_host;
  absl::StatusOr<std::unique_ptr<Buffer>> buffer = Buffer::FromHost(
      args->client->state, host, device, memory, args->host_buffer_semantics,
      std::move(wait_for), &done_with_host);
  if (!buffer.ok()) return ToError(buffer.status());
  args->done_with_host_buffer = WrapEvent(std::move(done_with_host));
  args->buffer = WrapBuffer(args->client, *std::move(buffer));
  return nullptr;
}

PJRTX_Error* BufferDestroy(PJRTX_Buffer_Destroy_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Buffer_Destroy_Args, args);
  if (args->buffer == nullptr) return nullptr;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->buffer, "buffer"));
  args->buffer->buffer->Delete();
  delete args->buffer;
  return nullptr;
}

PJRTX_Error* BufferElementType(PJRTX_Buffer_ElementType_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Buffer_ElementType_Args, args);
  args->type = PJRTX_Buffer_Type_INVALID;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->buffer, "buffer"));
  args->type = args->buffer->buffer->type();
  return nullptr;
}

PJRTX_Error* BufferDimensions(PJRTX_Buffer_Dimensions_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Buffer_Dimensions_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->buffer, "buffer"));
  const std::vector<int64_t>& dims = args->buffer->buffer->dims();
  args->dims = dims.data();
  args->num_dims = dims.size();
  return nullptr;
}

PJRTX_Error* BufferOnDeviceSize(PJRTX_Buffer_OnDeviceSizeInBytes_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Buffer_OnDeviceSizeInBytes_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->buffer, "buffer"));
  args->on_device_size_in_bytes = args->buffer->buffer->size_in_bytes();
  return nullptr;
}

PJRTX_Error* BufferDevice(PJRTX_Buffer_Device_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Buffer_Device_Args, args);
  args->device = nullptr;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->buffer, "buffer"));
  args->device = args->buffer->client->devices[args->buffer->buffer->device()];
  return nullptr;
}

PJRTX_Error* BufferMemory(PJRTX_Buffer_Memory_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Buffer_Memory_Args, args);
  args->memory = nullptr;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->buffer, "buffer"));
  args->memory = args->buffer->client->memories[args->buffer->buffer->memory()];
  return nullptr;
}

PJRTX_Error* BufferDelete(PJRTX_Buffer_Delete_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Buffer_Delete_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->buffer, "buffer"));
  args->buffer->buffer->Delete();
  return nullptr;
}

PJRTX_Error* BufferIsDeleted(PJRTX_Buffer_IsDeleted_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Buffer_IsDeleted_Args, args);
  args->is_deleted = false;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->buffer, "buffer"));
  args->is_deleted = args->buffer->buffer->IsDeleted();
  return nullptr;
}

PJRTX_Error* BufferReadyEvent(PJRTX_Buffer_ReadyEvent_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Buffer_ReadyEvent_Args, args);
  args->event = nullptr;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->buffer, "buffer"));
  args->event = WrapEvent(args->buffer->buffer->definition_event());
  return nullptr;
}

PJRTX_Error* BufferToHostBuffer(PJRTX_Buffer_ToHostBuffer_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Buffer_ToHostBuffer_Args, args);
  args->event = nullptr;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->src, "src"));
  Buffer& buffer = *args->src->buffer;
  if (args->dst == nullptr) {
    args->dst_size = buffer.size_in_bytes();
    return nullptr;
  }
  std::vector<EventRef> wait_for;
  PJRTX_RETURN_ERROR_IF(
      ReadWaitEvents(args->wait_events, args->num_wait_events, &wait_for));
  absl::StatusOr<EventRef> done =
      buffer.ToHost(args->dst, args->dst_size, std::move(wait_for));
  if (!done.ok()) return ToError(done.status());
  args->event = WrapEvent(*std::move(done));
  return nullptr;
}

PJRTX_Error* CopyBuffer(PJRTX_Buffer* source, PJRTX_Client* dst_client,
                        int dst_device, int dst_memory,
                        PJRTX_Event* const* wait_events, size_t num_wait_events,
                        PJRTX_Buffer** dst_buffer) {
  PJRTX_RETURN_ERROR_IF(
      CheckSameClient(source->client, dst_client, "The destination"));
  std::vector<EventRef> wait_for;
  PJRTX_RETURN_ERROR_IF(
      ReadWaitEvents(wait_events, num_wait_events, &wait_for));
  absl::StatusOr<std::unique_ptr<Buffer>> copy =
      source->buffer->CopyTo(dst_device, dst_memory, std::move(wait_for));
  if (!copy.ok()) return ToError(copy.status());
  *dst_buffer = WrapBuffer(source->client, *std::move(copy));
  return nullptr;
}

PJRTX_Error* BufferCopyToDevice(PJRTX_Buffer_CopyToDevice_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Buffer_CopyToDevice_Args, args);
  args->dst_buffer = nullptr;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->buffer, "buffer"));
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->dst_device, "dst_device"));
  PJRTX_Device* device = args->dst_device;
  PJRTX_RETURN_ERROR_IF(
      CheckSameClient(args->buffer->client, device->client, "dst_device"));
  PJRTX_RETURN_ERROR_IF(CheckAddressableDevice(device));
  return CopyBuffer(args->buffer, device->client, device->index,
                    device->client->state->default_memory(device->index),
                    args->wait_events, args->num_wait_events,
                    &args->dst_buffer);
}

PJRTX_Error* BufferCopyToMemory(PJRTX_Buffer_CopyToMemory_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Buffer_CopyToMemory_Args, args);
  args->dst_buffer = nullptr;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->buffer, "buffer"));
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->dst_memory, "dst_memory"));
  PJRTX_Memory* memory = args->dst_memory;
  PJRTX_RETURN_ERROR_IF(
      CheckSameClient(args->buffer->client, memory->client, "dst_memory"));
  ClientState& state = *memory->client->state;
  int device = args->buffer->buffer->device();
  if (!state.DeviceAddressesMemory(device, memory->index)) {
    if (memory->devices.empty()) {
      return ToError(absl::InvalidArgumentError(absl::StrCat(
          memory->to_string, " is addressed by no device of this process")));
    }
    device = memory->devices.front()->index;
  }
  return CopyBuffer(args->buffer, memory->client, device, memory->index,
                    args->wait_events, args->num_wait_events,
                    &args->dst_buffer);
}

}  // namespace

void FillBufferSlots(PJRTX_Api& api) {
  api.Client_BufferFromHostBuffer = BufferFromHostBuffer;
  api.Buffer_Destroy = BufferDestroy;
  api.Buffer_ElementType = BufferElementType;
  api.Buffer_Dimensions = BufferDimensions;
  api.Buffer_OnDeviceSizeInBytes = BufferOnDeviceSize;
  api.Buffer_Device = BufferDevice;
  api.Buffer_Memory = BufferMemory;
  api.Buffer_Delete = BufferDelete;
  api.Buffer_IsDeleted = BufferIsDeleted;
  api.Buffer_ReadyEvent = BufferReadyEvent;
  api.Buffer_ToHostBuffer = BufferToHostBuffer;
  api.Buffer_CopyToDevice = BufferCopyToDevice;
  api.Buffer_CopyToMemory = BufferCopyToMemory;
}

}  // namespace pjrtx::abi
