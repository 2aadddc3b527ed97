#include "runtime/core/abi/handles.h"

#include "absl/strings/str_cat.h"

namespace pjrtx::abi {
namespace {

const char* KindName(HandleKind kind) {
  switch (kind) {
    case HandleKind::kError:
      return "PJRTX_Error";
    case HandleKind::kEvent:
      return "PJRTX_Event";
    case HandleKind::kClient:
      return "PJRTX_Client";
    case HandleKind::kDevice:
      return "PJRTX_Device";
    case HandleKind::kDeviceDescription:
      return "PJRTX_DeviceDescription";
    case HandleKind::kMemory:
      return "PJRTX_Memory";
    case HandleKind::kTopology:
      return "PJRTX_TopologyDescription";
    case HandleKind::kBuffer:
      return "PJRTX_Buffer";
    case HandleKind::kExecutable:
      return "PJRTX_LoadedExecutable";
    case HandleKind::kCommunicator:
      return "PJRTX_Communicator";
  }
  return "handle";
}

}  // namespace

const void* PluginInstanceTag() {
  static const char tag = 0;
  return &tag;
}

absl::Status CheckHandleHeader(const HandleHeader* header, HandleKind kind,
                               absl::string_view arg) {
  if (header == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument '", arg, "' is NULL; expected a ", KindName(kind)));
  }
  if (header->magic != HandleHeader::kMagic) {
    return absl::InvalidArgumentError(
        absl::StrCat("Argument '", arg, "' is not a ", KindName(kind),
                     " of any pjrtx plugin"));
  }
  if (header->owner != PluginInstanceTag()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument '", arg, "' is a ", KindName(header->kind),
        " of another plugin instance; handles cannot cross plugins"));
  }
  if (header->kind != kind) {
    return absl::InvalidArgumentError(
        absl::StrCat("Argument '", arg, "' is a ", KindName(header->kind),
                     ", expected a ", KindName(kind)));
  }
  return absl::OkStatus();
}

}  // namespace pjrtx::abi
