// PJRT entry points of memories: each is one device's view of a pjrtx
// memory (client_views.h), described when the client was made.
#include "runtime/pjrt/api_support.h"
#include "runtime/pjrt/handles.h"

namespace pjrtx::pjrt {
namespace {

absl::Status MemoryId(PJRT_Memory_Id_Args& args) {
  args.id = args.memory->id;
  return absl::OkStatus();
}

absl::Status MemoryKind(PJRT_Memory_Kind_Args& args) {
  args.kind = args.memory->kind.data();
  args.kind_size = args.memory->kind.size();
  return absl::OkStatus();
}

absl::Status MemoryKindId(PJRT_Memory_Kind_Id_Args& args) {
  args.kind_id = args.memory->kind_code;
  return absl::OkStatus();
}

absl::Status MemoryDebugString(PJRT_Memory_DebugString_Args& args) {
  args.debug_string = args.memory->debug_string.data();
  args.debug_string_size = args.memory->debug_string.size();
  return absl::OkStatus();
}

absl::Status MemoryToString(PJRT_Memory_ToString_Args& args) {
  args.to_string = args.memory->to_string.data();
  args.to_string_size = args.memory->to_string.size();
  return absl::OkStatus();
}

absl::Status MemoryAddressableByDevices(
    PJRT_Memory_AddressableByDevices_Args& args) {
  args.devices = args.memory->devices.data();
  args.num_devices = args.memory->devices.size();
  return absl::OkStatus();
}

}  // namespace

void FillMemorySlots(PJRT_Api& api) {
  PJRTX_PJRT_SLOT(api, PJRT_Memory_Id, MemoryId);
  PJRTX_PJRT_SLOT(api, PJRT_Memory_Kind, MemoryKind);
  PJRTX_PJRT_SLOT(api, PJRT_Memory_Kind_Id, MemoryKindId);
  PJRTX_PJRT_SLOT(api, PJRT_Memory_DebugString, MemoryDebugString);
  PJRTX_PJRT_SLOT(api, PJRT_Memory_ToString, MemoryToString);
  PJRTX_PJRT_SLOT(api, PJRT_Memory_AddressableByDevices,
                  MemoryAddressableByDevices);
}

}  // namespace pjrtx::pjrt
