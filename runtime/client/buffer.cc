#include "runtime/client/buffer.h"

#include <utility>

#include "runtime/client/status_from_error.h"
#include "support/status_macros.h"

namespace pjrtx::client {

Buffer::Buffer(Buffer&& other) noexcept
    : api_(other.api_), handle_(std::exchange(other.handle_, nullptr)) {}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    this->~Buffer();
    api_ = other.api_;
    handle_ = std::exchange(other.handle_, nullptr);
  }
  return *this;
}

Buffer::~Buffer() {
  if (handle_ == nullptr) return;
  PJRTX_CLIENT_ARGS(PJRTX_Buffer_Destroy_Args, args);
  args.buffer = handle_;
  TakeStatus(api_, api_->Buffer_Destroy(&args)).IgnoreError();
  handle_ = nullptr;
}

PJRTX_Buffer_Type Buffer::element_type() const {
  PJRTX_CLIENT_ARGS(PJRTX_Buffer_ElementType_Args, args);
  args.buffer = handle_;
  TakeStatus(api_, api_->Buffer_ElementType(&args)).IgnoreError();
  return args.type;
}

std::vector<int64_t> Buffer::dims() const {
  PJRTX_CLIENT_ARGS(PJRTX_Buffer_Dimensions_Args, args);
  args.buffer = handle_;
  TakeStatus(api_, api_->Buffer_Dimensions(&args)).IgnoreError();
  return std::vector<int64_t>(args.dims, args.dims + args.num_dims);
}

size_t Buffer::size_in_bytes() const {
  PJRTX_CLIENT_ARGS(PJRTX_Buffer_OnDeviceSizeInBytes_Args, args);
  args.buffer = handle_;
  TakeStatus(api_, api_->Buffer_OnDeviceSizeInBytes(&args)).IgnoreError();
  return args.on_device_size_in_bytes;
}

Device Buffer::device() const {
  PJRTX_CLIENT_ARGS(PJRTX_Buffer_Device_Args, args);
  args.buffer = handle_;
  TakeStatus(api_, api_->Buffer_Device(&args)).IgnoreError();
  return Device(api_, args.device);
}

absl::StatusOr<EventFuture> Buffer::ToHost(void* dst, size_t dst_size) const {
  PJRTX_CLIENT_ARGS(PJRTX_Buffer_ToHostBuffer_Args, args);
  args.src = handle_;
  args.dst = dst;
  args.dst_size = dst_size;
  PJRTX_RETURN_IF_ERROR(TakeStatus(api_, api_->Buffer_ToHostBuffer(&args)));
  return EventFuture(api_, args.event);
}

absl::StatusOr<std::vector<uint8_t>> Buffer::ToHostSync() const {
  std::vector<uint8_t> bytes(size_in_bytes());
  // A NULL destination would be a size query; there is nothing to copy.
  if (bytes.empty()) return bytes;
  PJRTX_ASSIGN_OR_RETURN(EventFuture done, ToHost(bytes.data(), bytes.size()));
  PJRTX_RETURN_IF_ERROR(done.Await());
  return bytes;
}

absl::StatusOr<Buffer> Buffer::CopyToDevice(const Device& device) const {
  PJRTX_CLIENT_ARGS(PJRTX_Buffer_CopyToDevice_Args, args);
  args.buffer = handle_;
  args.dst_device = device.handle();
  PJRTX_RETURN_IF_ERROR(TakeStatus(api_, api_->Buffer_CopyToDevice(&args)));
  return Buffer(api_, args.dst_buffer);
}

EventFuture Buffer::ReadyEvent() const {
  PJRTX_CLIENT_ARGS(PJRTX_Buffer_ReadyEvent_Args, args);
  args.buffer = handle_;
  TakeStatus(api_, api_->Buffer_ReadyEvent(&args)).IgnoreError();
  return EventFuture(api_, args.event);
}

absl::Status Buffer::Delete() {
  PJRTX_CLIENT_ARGS(PJRTX_Buffer_Delete_Args, args);
  args.buffer = handle_;
  return TakeStatus(api_, api_->Buffer_Delete(&args));
}

}  // namespace pjrtx::client
