// Helpers shared by the C ABI entry points: argument-struct checks, Status
// to PJRTX_Error conversion, the plugin of this shared object.
#ifndef PJRTX_RUNTIME_CORE_ABI_API_SUPPORT_H_
#define PJRTX_RUNTIME_CORE_ABI_API_SUPPORT_H_

#include <cstddef>
#include <vector>

#include "absl/status/status.h"
#include "pjrtx/pjrtx_c_api.h"
#include "runtime/core/base/event.h"
#include "runtime/core/base/plugin.h"

namespace pjrtx::abi {

// Converts to the ABI's convention: NULL for OK, else a new error.
PJRTX_Error* ToError(const absl::Status& status);

// INVALID_ARGUMENT naming both sizes when `given` < `expected`, or when the
// args pointer itself is NULL.
absl::Status CheckStructSize(const char* struct_name, const void* args,
                             size_t given, size_t expected);

// Reads an array of wait events.
absl::Status ReadWaitEvents(PJRTX_Event* const* events, size_t num_events,
                            std::vector<EventRef>* out);

// The plugin this shared object was built around (see PJRTX_DEFINE_PLUGIN).
Plugin& ThePlugin();
void InstallPlugin(Plugin* plugin);

// The plugin's published attributes (PJRTX_Plugin_Attributes).
const std::vector<Attribute>& PluginAttributeList();

// The slots of each family of entry points, filled by its own file.
void FillErrorAndEventSlots(PJRTX_Api& api);
void FillPluginSlots(PJRTX_Api& api);
void FillClientSlots(PJRTX_Api& api);
void FillDeviceSlots(PJRTX_Api& api);
void FillBufferSlots(PJRTX_Api& api);
void FillDLPackSlots(PJRTX_Api& api);
void FillExecutableSlots(PJRTX_Api& api);
void FillCommunicatorSlots(PJRTX_Api& api);

}  // namespace pjrtx::abi

// First statement of every entry point: checks the args pointer and size,
// returning the error. `Type` is the args struct type.
#define PJRTX_CHECK_ARGS(Type, args)                                   \
  do {                                                                 \
    ::absl::Status pjrtx_size_status_ = ::pjrtx::abi::CheckStructSize( \
        #Type, (args), (args) == nullptr ? 0 : (args)->struct_size,    \
        Type##_STRUCT_SIZE);                                           \
    if (!pjrtx_size_status_.ok())                                      \
      return ::pjrtx::abi::ToError(pjrtx_size_status_);                \
  } while (0)

// Returns the error of a failed absl::Status expression from an entry point.
#define PJRTX_RETURN_ERROR_IF(expr)                                       \
  do {                                                                    \
    ::absl::Status pjrtx_status_ = (expr);                                \
    if (!pjrtx_status_.ok()) return ::pjrtx::abi::ToError(pjrtx_status_); \
  } while (0)

#endif  // PJRTX_RUNTIME_CORE_ABI_API_SUPPORT_H_
