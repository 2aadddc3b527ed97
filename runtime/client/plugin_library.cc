#include "runtime/client/plugin_library.h"

#include <dlfcn.h>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/client/status_from_error.h"
#include "support/status_macros.h"

namespace pjrtx::client {

absl::StatusOr<std::shared_ptr<PluginLibrary>> PluginLibrary::Load(
    const std::string& path, int min_minor) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* reason = dlerror();
    return absl::NotFoundError(absl::StrCat("Cannot load plugin '", path,
                                            "': ", reason ? reason : "?"));
  }
  auto get_api = reinterpret_cast<PJRTX_GetApiFn>(dlsym(handle, "GetPjrtxApi"));
  if (get_api == nullptr) {
    return absl::NotFoundError(absl::StrCat("GetPjrtxApi not found in '", path,
                                            "'; is it a pjrtx plugin?"));
  }
  const PJRTX_Api* api = get_api();
  if (api == nullptr) {
    return absl::InternalError(
        absl::StrCat("GetPjrtxApi of '", path, "' returned NULL"));
  }
  const int major = api->pjrtx_api_version.major_version;
  const int minor = api->pjrtx_api_version.minor_version;
  if (major != PJRTX_API_MAJOR || minor < min_minor) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Plugin '", path, "' implements pjrtx API ", major, ".", minor,
        ", but this program needs API ", PJRTX_API_MAJOR, ".", min_minor,
        " or a later minor of the same major. Install a plugin built "
        "against a compatible pjrtx header, or rebuild this program against "
        "the plugin's."));
  }
  if (api->struct_size < PJRTX_Api_STRUCT_SIZE_0_1) {
    return absl::FailedPreconditionError(
        absl::StrCat("Plugin '", path, "' has a function table of ",
                     api->struct_size, " bytes, smaller than the ",
                     PJRTX_Api_STRUCT_SIZE_0_1, " bytes of API 0.1"));
  }
  PJRTX_CLIENT_ARGS(PJRTX_Plugin_Initialize_Args, init);
  PJRTX_RETURN_IF_ERROR(TakeStatus(api, api->Plugin_Initialize(&init)));

  std::shared_ptr<PluginLibrary> library(new PluginLibrary());
  library->api_ = api;
  library->path_ = path;
  PJRTX_CLIENT_ARGS(PJRTX_Plugin_Attributes_Args, attributes);
  PJRTX_RETURN_IF_ERROR(TakeStatus(api, api->Plugin_Attributes(&attributes)));
  library->attributes_ =
      ReadNamedValues(attributes.attributes, attributes.num_attributes);
  PJRTX_CLIENT_ARGS(PJRTX_Plugin_OptionSchema_Args, schema);
  PJRTX_RETURN_IF_ERROR(TakeStatus(api, api->Plugin_OptionSchema(&schema)));
  library->option_defaults_ =
      ReadNamedValues(schema.options, schema.num_options);
  for (size_t i = 0; i < schema.num_options; ++i) {
    library->option_descriptions_.push_back(schema.descriptions[i]);
  }
  return library;
}

std::optional<std::string> PluginLibrary::StringAttribute(
    const std::string& name) const {
  for (const NamedValue& attribute : attributes_) {
    if (attribute.name == name && attribute.value.index() == 0) {
      return std::get<std::string>(attribute.value);
    }
  }
  return std::nullopt;
}

}  // namespace pjrtx::client
