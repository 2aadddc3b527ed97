#include "runtime/core/abi/api_support.h"

#include "absl/strings/str_cat.h"
#include "runtime/core/abi/handles.h"
#include "support/status_macros.h"

namespace pjrtx::abi {
namespace {
Plugin* g_plugin = nullptr;
}  // namespace

PJRTX_Error* ToError(const absl::Status& status) {
  if (status.ok()) return nullptr;
  auto* error = new PJRTX_Error();
  error->code = status.code();
  error->message = std::string(status.message());
  return error;
}

absl::Status CheckStructSize(const char* struct_name, const void* args,
                             size_t given, size_t expected) {
  if (args == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("Arguments pointer to ", struct_name, " is NULL"));
  }
  if (given < expected) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Unexpected ", struct_name, " size: expected ", expected, ", got ",
        given,
        ". The caller is likely built against an older pjrtx header "
        "than the plugin, which implements API ",
        PJRTX_API_MAJOR, ".", PJRTX_API_MINOR,
        "; rebuild the caller against this header or newer."));
  }
  return absl::OkStatus();
}

absl::Status ReadWaitEvents(PJRTX_Event* const* events, size_t num_events,
                            std::vector<EventRef>* out) {
  if (num_events > 0 && events == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "wait_events is NULL but num_wait_events is ", num_events));
  }
  for (size_t i = 0; i < num_events; ++i) {
    PJRTX_RETURN_IF_ERROR(CheckHandle(events[i], "wait_events", i));
    out->push_back(events[i]->event);
  }
  return absl::OkStatus();
}

Plugin& ThePlugin() { return *g_plugin; }
void InstallPlugin(Plugin* plugin) { g_plugin = plugin; }

}  // namespace pjrtx::abi
