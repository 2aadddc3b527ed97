#include "runtime/core/base/buffer.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "runtime/core/base/element_type.h"
#include "support/status_macros.h"

namespace pjrtx {
namespace {

std::vector<int64_t> DenseByteStrides(const std::vector<int64_t>& dims,
                                      size_t element_size) {
  std::vector<int64_t> strides(dims.size());
  int64_t stride = static_cast<int64_t>(element_size);
  for (size_t i = dims.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= dims[i];
  }
  return strides;
}

// Copies a strided host array into dense row-major `dst`.
void GatherStrided(const char* src, const std::vector<int64_t>& dims,
                   const std::vector<int64_t>& strides, size_t element_size,
                   size_t dim, char*& dst) {
  if (dim == dims.size()) {
    std::memcpy(dst, src, element_size);
    dst += element_size;
    return;
  }
  for (int64_t i = 0; i < dims[dim]; ++i) {
    GatherStrided(src + i * strides[dim], dims, strides, element_size, dim + 1,
                  dst);
  }
}

}  // namespace

Buffer::Buffer(std::shared_ptr<ClientState> client, int device, int memory,
               PJRTX_Buffer_Type type, std::vector<int64_t> dims,
               size_t size_in_bytes,
               std::shared_ptr<DeviceAllocation> allocation,
               EventRef definition_event)
    : client_(std::move(client)),
      device_(device),
      memory_(memory),
      type_(type),
      dims_(std::move(dims)),
      size_in_bytes_(size_in_bytes),
      definition_event_(std::move(definition_event)),
      allocation_(std::move(allocation)) {}

absl::StatusOr<std::unique_ptr<Buffer>> Buffer::FromHost(
    std::shared_ptr<ClientState> client, const HostArray& host, int device,
    int memory, PJRTX_HostBufferSemantics semantics,
    std::vector<EventRef> wait_for, EventRef* done_with_host) {
  PJRTX_ASSIGN_OR_RETURN(size_t element_size, SupportedElementSize(host.type));
  PJRTX_ASSIGN_OR_RETURN(int64_t count, ElementCount(host.dims));
  if (count > 0 && static_cast<uint64_t>(count) > SIZE_MAX / element_size) {
    return absl::OutOfRangeError(
        absl::StrCat("Array of ", count, " elements does not fit in memory"));
  }
  const size_t bytes = static_cast<size_t>(count) * element_size;
  if (host.data == nullptr && bytes > 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("Host data is NULL for an array of ", bytes, " bytes"));
  }
  if (semantics < PJRTX_HostBufferSemantics_kImmutableOnlyDuringCall ||
      semantics > PJRTX_HostBufferSemantics_kMutableZeroCopy) {
    return absl::InvalidArgumentError(
        absl::StrCat("Unknown host buffer semantics ",
                     static_cast<int>(semantics), "; expected 0..3"));
  }
  if (!host.byte_strides.empty() &&
      host.byte_strides.size() != host.dims.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Got ", host.byte_strides.size(), " byte strides for ",
                     host.dims.size(), " dimensions"));
  }
  const bool dense =
      host.byte_strides.empty() || count == 0 ||
      host.byte_strides == DenseByteStrides(host.dims, element_size);
  MemorySpace& space = client->memory(memory);

  const bool zero_copy =
      semantics == PJRTX_HostBufferSemantics_kImmutableZeroCopy ||
      semantics == PJRTX_HostBufferSemantics_kMutableZeroCopy;
  void* const in_place = const_cast<void*>(host.data);
  if (zero_copy && dense && space.spec().host_addressable &&
      (bytes == 0 ||
       space.driver().AdoptHostMemory(memory, in_place, bytes).ok())) {
    EventRef released = Event::Create();
    Driver* driver = &space.driver();
    std::shared_ptr<DeviceAllocation> alias = space.WrapExternal(
        DeviceAddress{reinterpret_cast<uintptr_t>(host.data)}, bytes,
        [released, driver, memory, in_place, bytes] {
          if (bytes > 0) driver->ReleaseHostMemory(memory, in_place, bytes);
          released->Set(absl::OkStatus());
        });
    *done_with_host = std::move(released);
    return std::unique_ptr<Buffer>(
        new Buffer(std::move(client), device, memory, host.type, host.dims,
                   bytes, std::move(alias), AfterAll(wait_for)));
  }

  PJRTX_ASSIGN_OR_RETURN(std::shared_ptr<DeviceAllocation> allocation,
                         space.Allocate(bytes));
  if (semantics == PJRTX_HostBufferSemantics_kImmutableOnlyDuringCall &&
      dense && wait_for.empty()) {
    // Nothing orders a fresh allocation against queued work, so the copy
    // the caller must wait for anyway is made here, once, without staging.
    if (bytes > 0) {
      PJRTX_RETURN_IF_ERROR(space.driver().CopyFromHost(
          memory, allocation->address(), host.data, bytes));
      client->CountCopy(-1, device, memory, device, bytes);
    }
    *done_with_host = Event::MakeReady();
    return std::unique_ptr<Buffer>(
        new Buffer(std::move(client), device, memory, host.type, host.dims,
                   bytes, std::move(allocation), Event::MakeReady()));
  }
  // Data the queued copy reads: the caller's memory while it stays valid,
  // else a dense host copy taken now.
  const void* source = host.data;
  std::shared_ptr<std::vector<char>> staging;
  if (!dense ||
      semantics == PJRTX_HostBufferSemantics_kImmutableOnlyDuringCall) {
    staging = std::make_shared<std::vector<char>>(bytes);
    if (dense) {
      std::memcpy(staging->data(), host.data, bytes);
    } else {
      char* out = staging->data();
      GatherStrided(static_cast<const char*>(host.data), host.dims,
                    host.byte_strides, element_size, 0, out);
    }
    source = staging->data();
  }
  ClientState* state = client.get();
  EventRef copied = client->queue(device).Enqueue(
      std::move(wait_for),
      [state, allocation, source, staging, bytes, memory, device]() {
        if (bytes == 0) return absl::OkStatus();
        PJRTX_RETURN_IF_ERROR(state->memory(memory).driver().CopyFromHost(
            memory, allocation->address(), source, bytes));
        state->CountCopy(-1, device, memory, device, bytes);
        return absl::OkStatus();
      });
  *done_with_host = staging != nullptr ? Event::MakeReady() : copied;
  return std::unique_ptr<Buffer>(new Buffer(std::move(client), device, memory,
                                            host.type, host.dims, bytes,
                                            std::move(allocation), copied));
}

std::unique_ptr<Buffer> Buffer::FromAllocation(
    std::shared_ptr<ClientState> client, int device, int memory,
    PJRTX_Buffer_Type type, std::vector<int64_t> dims,
    std::shared_ptr<DeviceAllocation> allocation, EventRef definition_event) {
  const size_t size = allocation->size();
  return std::unique_ptr<Buffer>(
      new Buffer(std::move(client), device, memory, type, std::move(dims), size,
                 std::move(allocation), std::move(definition_event)));
}

absl::StatusOr<std::shared_ptr<DeviceAllocation>> Buffer::AcquireForUse(
    const char* operation) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (deleted_) {
    return absl::FailedPreconditionError(
        absl::StrCat(operation,
                     " called on a deleted buffer; a buffer cannot be used "
                     "after PJRTX_Buffer_Delete"));
  }
  return allocation_;
}

void Buffer::AddUsage(EventRef event) {
  std::lock_guard<std::mutex> lock(mu_);
  usage_events_.erase(
      std::remove_if(usage_events_.begin(), usage_events_.end(),
                     [](const EventRef& e) { return e->IsReady(); }),
      usage_events_.end());
  usage_events_.push_back(std::move(event));
}

std::vector<EventRef> Buffer::TakeUsageEvents() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<EventRef> events;
  events.swap(usage_events_);
  return events;
}

absl::StatusOr<EventRef> Buffer::ToHost(void* dst, size_t dst_size,
                                        std::vector<EventRef> wait_for) {
  PJRTX_ASSIGN_OR_RETURN(std::shared_ptr<DeviceAllocation> allocation,
                         AcquireForUse("ToHostBuffer"));
  if (dst == nullptr && size_in_bytes_ > 0) {
    return absl::InvalidArgumentError("Destination host pointer is NULL");
  }
  if (dst_size < size_in_bytes_) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Destination of ", dst_size, " bytes is too small for a buffer of ",
        size_in_bytes_, " bytes"));
  }
  wait_for.push_back(definition_event_);
  ClientState* state = client_.get();
  const size_t bytes = size_in_bytes_;
  const int memory = memory_;
  const int device = device_;
  EventRef done = client_->queue(device_).Enqueue(
      std::move(wait_for), [state, allocation, dst, bytes, memory, device]() {
        if (bytes == 0) return absl::OkStatus();
        PJRTX_RETURN_IF_ERROR(state->memory(memory).driver().CopyToHost(
            memory, dst, allocation->address(), bytes));
        state->CountCopy(memory, device, -1, device, bytes);
        return absl::OkStatus();
      });
  AddUsage(done);
  return done;
}

absl::StatusOr<std::unique_ptr<Buffer>> Buffer::CopyTo(
    int dst_device, int dst_memory, std::vector<EventRef> wait_for) {
  PJRTX_ASSIGN_OR_RETURN(std::shared_ptr<DeviceAllocation> source,
                         AcquireForUse("CopyToDevice/CopyToMemory"));
  PJRTX_ASSIGN_OR_RETURN(std::shared_ptr<DeviceAllocation> target,
                         client_->memory(dst_memory).Allocate(size_in_bytes_));
  wait_for.push_back(definition_event_);
  ClientState* state = client_.get();
  const size_t bytes = size_in_bytes_;
  const int src_memory = memory_;
  const int src_device = device_;
  EventRef copied =
      client_->queue(dst_device)
          .Enqueue(
              std::move(wait_for), [state, source, target, bytes, src_memory,
                                    src_device, dst_memory, dst_device]() {
                if (bytes == 0) return absl::OkStatus();
                PJRTX_RETURN_IF_ERROR(
                    state->memory(dst_memory)
                        .driver()
                        .CopyBetween(dst_memory, target->address(), src_memory,
                                     source->address(), bytes));
                state->CountCopy(src_memory, src_device, dst_memory, dst_device,
                                 bytes);
                return absl::OkStatus();
              });
  AddUsage(copied);
  return std::unique_ptr<Buffer>(new Buffer(client_, dst_device, dst_memory,
                                            type_, dims_, size_in_bytes_,
                                            std::move(target), copied));
}

void Buffer::Delete() {
  // Freeing may call into the driver: drop the reference outside the lock.
  std::shared_ptr<DeviceAllocation> released;
  {
    std::lock_guard<std::mutex> lock(mu_);
    deleted_ = true;
    released = std::move(allocation_);
  }
}

bool Buffer::IsDeleted() const {
  std::lock_guard<std::mutex> lock(mu_);
  return deleted_;
}

}  // namespace pjrtx
