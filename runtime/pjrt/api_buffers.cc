// PJRT entry points of buffers, and buffer creation from host data.
//
// Buffers are dense and row-major on every memory; the only layouts taken
// are that one, as a tiled layout without tiles or as its byte strides.
// Device memory is never exposed to the framework, so IsOnCpu is false and
// the raw-pointer calls are not implemented: the framework copies through
// ToHostBuffer.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/core/abi/handles.h"
#include "runtime/core/base/element_type.h"
#include "runtime/pjrt/api_support.h"
#include "runtime/pjrt/client_views.h"
#include "runtime/pjrt/handles.h"
#include "support/status_macros.h"

namespace pjrtx::pjrt {
namespace {

// minor_to_major of the dense row-major layout of rank n: the last n
// entries, n-1 down to 0.
constexpr size_t kMaxLayoutRank = 64;
constexpr std::array<int64_t, kMaxLayoutRank> kDescending = [] {
  std::array<int64_t, kMaxLayoutRank> order{};
  for (size_t i = 0; i < kMaxLayoutRank; ++i) {
    order[i] = static_cast<int64_t>(kMaxLayoutRank - 1 - i);
  }
  return order;
}();

const int64_t* RowMajorMinorToMajor(size_t rank) {
  return kDescending.data() + (kMaxLayoutRank - rank);
}

// Byte strides of the dense row-major layout.
std::vector<int64_t> RowMajorByteStrides(const std::vector<int64_t>& dims,
                                         int64_t element_size) {
  std::vector<int64_t> strides(dims.size());
  int64_t stride = element_size;
  for (size_t i = dims.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= dims[i];
  }
  return strides;
}

// OK for no layout or the dense row-major one of `dims` of `type`;
// UNIMPLEMENTED naming `what` and the layout otherwise.
absl::Status CheckRowMajor(const PJRT_Buffer_MemoryLayout* layout,
                           const std::vector<int64_t>& dims,
                           PJRT_Buffer_Type type, absl::string_view what) {
  if (layout == nullptr) return absl::OkStatus();
  const size_t rank = dims.size();
  if (layout->type == PJRT_Buffer_MemoryLayout_Type_Tiled) {
    const PJRT_Buffer_MemoryLayout_Tiled& tiled = layout->tiled;
    const std::vector<int64_t> order(
        tiled.minor_to_major, tiled.minor_to_major + tiled.minor_to_major_size);
    if (tiled.num_tiles == 0 && rank <= kMaxLayoutRank &&
        order == std::vector<int64_t>(RowMajorMinorToMajor(rank),
                                      RowMajorMinorToMajor(rank) + rank)) {
      return absl::OkStatus();
    }
    return absl::UnimplementedError(absl::StrCat(
        what,
        ": only the dense row-major layout is supported; got "
        "minor_to_major {",
        absl::StrJoin(order, ","), "} with ", tiled.num_tiles, " tile(s)"));
  }
  if (layout->type == PJRT_Buffer_MemoryLayout_Type_Strides) {
    const PJRT_Buffer_MemoryLayout_Strides& given = layout->strides;
    const std::vector<int64_t> strides(
        given.byte_strides, given.byte_strides + given.num_byte_strides);
    PJRTX_ASSIGN_OR_RETURN(
        size_t element_size,
        SupportedElementSize(static_cast<PJRTX_Buffer_Type>(type)));
    if (strides == RowMajorByteStrides(dims, element_size)) {
      return absl::OkStatus();
    }
    return absl::UnimplementedError(
        absl::StrCat(what,
                     ": only the dense row-major layout is supported; got byte "
                     "strides {",
                     absl::StrJoin(strides, ","), "}"));
  }
  return absl::InvalidArgumentError(absl::StrCat(
      what, ": unknown layout type ", static_cast<int>(layout->type)));
}

PJRTX_Buffer* Unwrap(const PJRT_Buffer* buffer) {
  return buffer == nullptr ? nullptr : buffer->buffer.get();
}

absl::StatusOr<std::vector<int64_t>> Dims(PJRTX_Buffer* buffer) {
  auto dims = PJRTX_ARGS(PJRTX_Buffer_Dimensions_Args);
  dims.buffer = buffer;
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Buffer_Dimensions, dims));
  return std::vector<int64_t>(dims.dims, dims.dims + dims.num_dims);
}

absl::StatusOr<PJRT_Buffer_Type> ElementType(PJRTX_Buffer* buffer) {
  auto type = PJRTX_ARGS(PJRTX_Buffer_ElementType_Args);
  type.buffer = buffer;
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Buffer_ElementType, type));
  return static_cast<PJRT_Buffer_Type>(type.type);
}

absl::Status ClientBufferFromHostBuffer(
    PJRT_Client_BufferFromHostBuffer_Args& args) {
  args.done_with_host_buffer = nullptr;
  args.buffer = nullptr;
  if (args.num_dims > 0 && args.dims == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("dims is NULL but num_dims is ", args.num_dims));
  }
  PJRTX_RETURN_IF_ERROR(CheckRowMajor(
      args.device_layout,
      std::vector<int64_t>(args.dims, args.dims + args.num_dims), args.type,
      "PJRT_Client_BufferFromHostBuffer's device_layout"));
  auto from_host = PJRTX_ARGS(PJRTX_Client_BufferFromHostBuffer_Args);
  from_host.client = args.client->client.get();
  from_host.data = args.data;
  from_host.type = static_cast<PJRTX_Buffer_Type>(args.type);
  from_host.dims = args.dims;
  from_host.num_dims = args.num_dims;
  from_host.byte_strides = args.byte_strides;
  from_host.num_byte_strides = args.num_byte_strides;
  // The same four semantics, numbered alike; pjrtx aliases the host data
  // for the zero-copy ones where the memory allows it.
  from_host.host_buffer_semantics =
      static_cast<PJRTX_HostBufferSemantics>(args.host_buffer_semantics);
  // As upstream: the memory wins when both are given.
  if (args.memory != nullptr) {
    from_host.memory = args.memory->memory;
    from_host.device = args.memory->devices.front()->device;
  } else if (args.device != nullptr) {
    from_host.device = args.device->device;
  }
  PJRTX_RETURN_IF_ERROR(
      CallPjrtx(Pjrtx().Client_BufferFromHostBuffer, from_host));
  args.done_with_host_buffer = WrapEvent(from_host.done_with_host_buffer);
  args.buffer = WrapBuffer(args.client, from_host.buffer);
  return absl::OkStatus();
}

absl::Status BufferDestroy(PJRT_Buffer_Destroy_Args& args) {
  delete args.buffer;
  return absl::OkStatus();
}

absl::Status BufferElementType(PJRT_Buffer_ElementType_Args& args) {
  PJRTX_ASSIGN_OR_RETURN(args.type, ElementType(Unwrap(args.buffer)));
  return absl::OkStatus();
}

absl::Status BufferDimensions(PJRT_Buffer_Dimensions_Args& args) {
  auto dims = PJRTX_ARGS(PJRTX_Buffer_Dimensions_Args);
  dims.buffer = Unwrap(args.buffer);
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Buffer_Dimensions, dims));
  args.dims = dims.dims;
  args.num_dims = dims.num_dims;
  return absl::OkStatus();
}

// No dimension is dynamic, so the unpadded dimensions are the dimensions.
absl::Status BufferUnpaddedDimensions(
    PJRT_Buffer_UnpaddedDimensions_Args& args) {
  auto dims = PJRTX_ARGS(PJRTX_Buffer_Dimensions_Args);
  dims.buffer = Unwrap(args.buffer);
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Buffer_Dimensions, dims));
  args.unpadded_dims = dims.dims;
  args.num_dims = dims.num_dims;
  return absl::OkStatus();
}

absl::Status BufferDynamicDimensionIndices(
    PJRT_Buffer_DynamicDimensionIndices_Args& args) {
  args.dynamic_dim_indices = nullptr;
  args.num_dynamic_dims = 0;
  return absl::OkStatus();
}

absl::Status BufferGetMemoryLayout(PJRT_Buffer_GetMemoryLayout_Args& args) {
  auto dims = PJRTX_ARGS(PJRTX_Buffer_Dimensions_Args);
  dims.buffer = Unwrap(args.buffer);
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Buffer_Dimensions, dims));
  if (dims.num_dims > kMaxLayoutRank) {
    return absl::UnimplementedError(
        absl::StrCat("PJRT_Buffer_GetMemoryLayout: rank ", dims.num_dims,
                     " is above ", kMaxLayoutRank));
  }
  PJRT_Buffer_MemoryLayout& layout = args.layout;
  layout = PJRT_Buffer_MemoryLayout{};
  layout.struct_size = PJRT_Buffer_MemoryLayout_STRUCT_SIZE;
  layout.type = PJRT_Buffer_MemoryLayout_Type_Tiled;
  layout.tiled.struct_size = PJRT_Buffer_MemoryLayout_Tiled_STRUCT_SIZE;
  layout.tiled.minor_to_major = RowMajorMinorToMajor(dims.num_dims);
  layout.tiled.minor_to_major_size = dims.num_dims;
  return absl::OkStatus();
}

absl::Status BufferOnDeviceSizeInBytes(
    PJRT_Buffer_OnDeviceSizeInBytes_Args& args) {
  auto size = PJRTX_ARGS(PJRTX_Buffer_OnDeviceSizeInBytes_Args);
  size.buffer = Unwrap(args.buffer);
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Buffer_OnDeviceSizeInBytes, size));
  args.on_device_size_in_bytes = size.on_device_size_in_bytes;
  return absl::OkStatus();
}

absl::Status BufferDevice(PJRT_Buffer_Device_Args& args) {
  auto device = PJRTX_ARGS(PJRTX_Buffer_Device_Args);
  device.buffer = Unwrap(args.buffer);
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Buffer_Device, device));
  PJRTX_ASSIGN_OR_RETURN(args.device,
                         DeviceOf(*args.buffer->client, device.device));
  return absl::OkStatus();
}

absl::Status BufferMemory(PJRT_Buffer_Memory_Args& args) {
  auto device = PJRTX_ARGS(PJRTX_Buffer_Device_Args);
  device.buffer = Unwrap(args.buffer);
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Buffer_Device, device));
  auto memory = PJRTX_ARGS(PJRTX_Buffer_Memory_Args);
  memory.buffer = device.buffer;
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Buffer_Memory, memory));
  PJRTX_ASSIGN_OR_RETURN(args.memory, MemoryOf(*args.buffer->client,
                                               memory.memory, device.device));
  return absl::OkStatus();
}

absl::Status BufferDelete(PJRT_Buffer_Delete_Args& args) {
  auto del = PJRTX_ARGS(PJRTX_Buffer_Delete_Args);
  del.buffer = Unwrap(args.buffer);
  return CallPjrtx(Pjrtx().Buffer_Delete, del);
}

absl::Status BufferIsDeleted(PJRT_Buffer_IsDeleted_Args& args) {
  auto deleted = PJRTX_ARGS(PJRTX_Buffer_IsDeleted_Args);
  deleted.buffer = Unwrap(args.buffer);
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Buffer_IsDeleted, deleted));
  args.is_deleted = deleted.is_deleted;
  return absl::OkStatus();
}

absl::Status BufferIsOnCpu(PJRT_Buffer_IsOnCpu_Args& args) {
  args.is_on_cpu = false;
  return absl::OkStatus();
}

// PJRT's event of a deleted (or donated) buffer fires at once with an
// error; pjrtx gives the definition event, which may have succeeded.
absl::StatusOr<PJRTX_Event*> DeletedBufferEvent() {
  auto create = PJRTX_ARGS(PJRTX_Event_Create_Args);
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Event_Create, create));
  PjrtxPtr<PJRTX_Event> event(create.event);
  constexpr absl::string_view kMessage =
      "PJRT_Buffer_ReadyEvent: the buffer was deleted or donated";
  auto set = PJRTX_ARGS(PJRTX_Event_Set_Args);
  set.event = event.get();
  set.error_code = PJRTX_Error_Code_INVALID_ARGUMENT;
  set.error_message = kMessage.data();
  set.error_message_size = kMessage.size();
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Event_Set, set));
  return event.release();
}

absl::Status BufferReadyEvent(PJRT_Buffer_ReadyEvent_Args& args) {
  args.event = nullptr;
  auto deleted = PJRTX_ARGS(PJRTX_Buffer_IsDeleted_Args);
  deleted.buffer = Unwrap(args.buffer);
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Buffer_IsDeleted, deleted));
  if (deleted.is_deleted) {
    PJRTX_ASSIGN_OR_RETURN(PJRTX_Event * event, DeletedBufferEvent());
    args.event = WrapEvent(event);
    return absl::OkStatus();
  }
  auto ready = PJRTX_ARGS(PJRTX_Buffer_ReadyEvent_Args);
  ready.buffer = Unwrap(args.buffer);
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Buffer_ReadyEvent, ready));
  args.event = WrapEvent(ready.event);
  return absl::OkStatus();
}

// A size query (dst NULL) returns no event, as upstream; a copy always
// returns one (JAX checks).
absl::Status BufferToHostBuffer(PJRT_Buffer_ToHostBuffer_Args& args) {
  args.event = nullptr;
  if (args.host_layout != nullptr) {
    PJRTX_ASSIGN_OR_RETURN(std::vector<int64_t> dims, Dims(Unwrap(args.src)));
    PJRTX_ASSIGN_OR_RETURN(PJRT_Buffer_Type type,
                           ElementType(Unwrap(args.src)));
    PJRTX_RETURN_IF_ERROR(
        CheckRowMajor(args.host_layout, dims, type,
                      "PJRT_Buffer_ToHostBuffer's host_layout"));
  }
  auto to_host = PJRTX_ARGS(PJRTX_Buffer_ToHostBuffer_Args);
  to_host.src = Unwrap(args.src);
  to_host.dst = args.dst;
  to_host.dst_size = args.dst_size;
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Buffer_ToHostBuffer, to_host));
  if (args.dst == nullptr) {
    args.dst_size = to_host.dst_size;
    return absl::OkStatus();
  }
  args.event = WrapEvent(to_host.event);
  return absl::OkStatus();
}

absl::Status BufferCopyToDevice(PJRT_Buffer_CopyToDevice_Args& args) {
  args.dst_buffer = nullptr;
  auto copy = PJRTX_ARGS(PJRTX_Buffer_CopyToDevice_Args);
  copy.buffer = Unwrap(args.buffer);
  copy.dst_device =
      args.dst_device == nullptr ? nullptr : args.dst_device->device;
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Buffer_CopyToDevice, copy));
  args.dst_buffer = WrapBuffer(args.buffer->client, copy.dst_buffer);
  return absl::OkStatus();
}

// The pjrtx ABI copies into a memory on the source's device whenever that
// device addresses it; a PJRT memory names its device, so the copy is made
// on the core buffer directly, to that device.
absl::Status BufferCopyToMemory(PJRT_Buffer_CopyToMemory_Args& args) {
  args.dst_buffer = nullptr;
  if (args.dst_memory == nullptr) {
    return absl::InvalidArgumentError(
        "PJRT_Buffer_CopyToMemory: dst_memory is NULL");
  }
  if (args.dst_memory->client != args.buffer->client) {
    return absl::InvalidArgumentError(
        "PJRT_Buffer_CopyToMemory: dst_memory belongs to another client");
  }
  PJRTX_Buffer& source = *args.buffer->buffer;
  const PJRTX_Memory& memory = *args.dst_memory->memory;
  const PJRTX_Device& device = *args.dst_memory->devices.front()->device;
  PJRTX_ASSIGN_OR_RETURN(std::unique_ptr<Buffer> copy,
                         source.buffer->CopyTo(device.index, memory.index, {}));
  auto* handle = new PJRTX_Buffer();
  handle->client = source.client;
  handle->buffer = std::move(copy);
  args.dst_buffer = WrapBuffer(args.buffer->client, handle);
  return absl::OkStatus();
}

}  // namespace

void FillBufferSlots(PJRT_Api& api) {
  PJRTX_PJRT_SLOT(api, PJRT_Client_BufferFromHostBuffer,
                  ClientBufferFromHostBuffer);
  PJRTX_PJRT_SLOT(api, PJRT_Buffer_Destroy, BufferDestroy);
  PJRTX_PJRT_SLOT(api, PJRT_Buffer_ElementType, BufferElementType);
  PJRTX_PJRT_SLOT(api, PJRT_Buffer_Dimensions, BufferDimensions);
  PJRTX_PJRT_SLOT(api, PJRT_Buffer_UnpaddedDimensions,
                  BufferUnpaddedDimensions);
  PJRTX_PJRT_SLOT(api, PJRT_Buffer_DynamicDimensionIndices,
                  BufferDynamicDimensionIndices);
  PJRTX_PJRT_SLOT(api, PJRT_Buffer_GetMemoryLayout, BufferGetMemoryLayout);
  PJRTX_PJRT_SLOT(api, PJRT_Buffer_OnDeviceSizeInBytes,
                  BufferOnDeviceSizeInBytes);
  PJRTX_PJRT_SLOT(api, PJRT_Buffer_Device, BufferDevice);
  PJRTX_PJRT_SLOT(api, PJRT_Buffer_Memory, BufferMemory);
  PJRTX_PJRT_SLOT(api, PJRT_Buffer_Delete, BufferDelete);
  PJRTX_PJRT_SLOT(api, PJRT_Buffer_IsDeleted, BufferIsDeleted);
  PJRTX_PJRT_SLOT(api, PJRT_Buffer_IsOnCpu, BufferIsOnCpu);
  PJRTX_PJRT_SLOT(api, PJRT_Buffer_ReadyEvent, BufferReadyEvent);
  PJRTX_PJRT_SLOT(api, PJRT_Buffer_ToHostBuffer, BufferToHostBuffer);
  PJRTX_PJRT_SLOT(api, PJRT_Buffer_CopyToDevice, BufferCopyToDevice);
  PJRTX_PJRT_SLOT(api, PJRT_Buffer_CopyToMemory, BufferCopyToMemory);
  // Raw device memory stays inside the runtime.
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api, PJRT_Buffer_CopyRawToHost);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api, PJRT_Buffer_UnsafePointer);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api,
                                PJRT_Buffer_IncreaseExternalReferenceCount);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api,
                                PJRT_Buffer_DecreaseExternalReferenceCount);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api, PJRT_Buffer_OpaqueDeviceMemoryDataPointer);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api, PJRT_Client_CreateViewOfDeviceBuffer);
  // Buffer creation other than from host data.
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api, PJRT_Client_CreateUninitializedBuffer);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api, PJRT_Client_CreateAliasBuffer);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api, PJRT_Client_FulfillAliasBuffer);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api,
                                PJRT_Client_CreateBuffersForAsyncHostToDevice);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api,
                                PJRT_AsyncHostToDeviceTransferManager_Destroy);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(
      api, PJRT_AsyncHostToDeviceTransferManager_TransferData);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(
      api, PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api,
                                PJRT_AsyncHostToDeviceTransferManager_Device);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(
      api, PJRT_AsyncHostToDeviceTransferManager_BufferCount);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(
      api, PJRT_AsyncHostToDeviceTransferManager_BufferSize);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(
      api, PJRT_AsyncHostToDeviceTransferManager_SetBufferError);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(
      api, PJRT_AsyncHostToDeviceTransferManager_AddMetadata);
  // Streams feeding programs' receive callbacks (no program has any).
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api, PJRT_CopyToDeviceStream_Destroy);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api, PJRT_CopyToDeviceStream_AddChunk);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api, PJRT_CopyToDeviceStream_TotalBytes);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api, PJRT_CopyToDeviceStream_GranuleSize);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api, PJRT_CopyToDeviceStream_CurrentBytes);
}

}  // namespace pjrtx::pjrt
