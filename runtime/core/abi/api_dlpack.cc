// Entry points of the DLPack exchange (ABI 0.2).
#include <utility>

#include "runtime/core/abi/api_support.h"
#include "runtime/core/abi/handles.h"
#include "runtime/core/base/dlpack_exchange.h"

namespace pjrtx::abi {
namespace {

PJRTX_Error* BufferToDLPack(PJRTX_Buffer_ToDLPack_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Buffer_ToDLPack_Args, args);
  args->dl_managed_tensor = nullptr;
  args->ready_event = nullptr;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->buffer, "buffer"));
  absl::StatusOr<ExportedTensor> exported =
      ExportToDLPack(*args->buffer->buffer);
  if (!exported.ok()) return ToError(exported.status());
  auto* ready = new PJRTX_Event();
  ready->event = std::move(exported->ready);
  args->dl_managed_tensor = exported->tensor;
  args->ready_event = ready;
  return nullptr;
}

PJRTX_Error* ClientBufferFromDLPack(PJRTX_Client_BufferFromDLPack_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Client_BufferFromDLPack_Args, args);
  args->buffer = nullptr;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->client, "client"));
  PJRTX_Client* client = args->client;
  int device = -1;
  if (args->device != nullptr) {
    PJRTX_RETURN_ERROR_IF(CheckHandle(args->device, "device"));
    if (args->device->client != client || args->device->local_hardware_id < 0) {
      return ToError(absl::InvalidArgumentError(
          "device is not an addressable device of this client"));
    }
    device = args->device->index;
  } else if (!client->addressable_devices.empty()) {
    device = client->addressable_devices.front()->index;
  } else {
    return ToError(absl::FailedPreconditionError(
        "The client has no addressable device to import a tensor into"));
  }
  absl::StatusOr<std::unique_ptr<Buffer>> buffer =
      ImportFromDLPack(client->state, device, args->dl_managed_tensor);
  if (!buffer.ok()) return ToError(buffer.status());
  auto* handle = new PJRTX_Buffer();
  handle->client = client;
  handle->buffer = *std::move(buffer);
  args->buffer = handle;
  return nullptr;
}

}  // namespace

void FillDLPackSlots(PJRTX_Api& api) {
  api.Buffer_ToDLPack = BufferToDLPack;
  api.Client_BufferFromDLPack = ClientBufferFromDLPack;
}

}  // namespace pjrtx::abi
