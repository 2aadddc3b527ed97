#include "plugin_under_test.h"

#include <dlfcn.h>

#include "api_helpers.h"

namespace pjrtx::conformance {

bool OpenPlugin(const std::string& path, OpenedPlugin* plugin,
                std::string* error) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* reason = dlerror();
    *error = "dlopen(\"" + path +
             "\") failed: " + (reason != nullptr ? reason : "unknown error");
    return false;
  }
  auto get_api = reinterpret_cast<PJRTX_GetApiFn>(dlsym(handle, "GetPjrtxApi"));
  if (get_api == nullptr) {
    *error = "\"" + path + "\" does not export GetPjrtxApi";
    return false;
  }
  plugin->handle = handle;
  plugin->api = get_api();
  return true;
}

std::string ApiUnusableReason(const PJRTX_Api* api) {
  if (api == nullptr) return "GetPjrtxApi returned NULL";
  const int major = api->pjrtx_api_version.major_version;
  const int minor = api->pjrtx_api_version.minor_version;
  if (major != PJRTX_API_MAJOR || minor < 1) {
    return "the plugin implements pjrtx C API " + std::to_string(major) + "." +
           std::to_string(minor) + "; this suite needs " +
           std::to_string(PJRTX_API_MAJOR) + ".x with x >= 1";
  }
  if (api->struct_size < PJRTX_Api_STRUCT_SIZE_0_1) {
    return "the plugin's PJRTX_Api is " + std::to_string(api->struct_size) +
           " bytes, smaller than the " +
           std::to_string(PJRTX_Api_STRUCT_SIZE_0_1) + " bytes of version 0.1";
  }
  return "";
}

std::string InitializePlugin(const PJRTX_Api* api) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Plugin_Initialize_Args);
  ScopedError error(api->Plugin_Initialize(&args), api);
  return error.ok() ? "" : "Plugin_Initialize failed: " + error.ToString();
}

PluginUnderTest& Plugin() {
  // Never destroyed: tests may still run plugin callbacks during exit.
  static PluginUnderTest* const plugin = new PluginUnderTest;
  return *plugin;
}

bool LoadPluginUnderTest(const std::string& path, std::string* error) {
  PluginUnderTest& plugin = Plugin();
  plugin.path = path;
  if (!OpenPlugin(path, &plugin.opened, error)) return false;
  const PJRTX_Api* api = plugin.opened.api;
  plugin.unusable_reason = ApiUnusableReason(api);
  if (!plugin.unusable_reason.empty()) return true;
  plugin.unusable_reason = InitializePlugin(api);
  if (!plugin.unusable_reason.empty()) return true;

  // Failures here are left to the ABI tests that check these calls; the
  // copies just stay empty.
  auto schema = PJRTX_CONFORMANCE_ARGS(PJRTX_Plugin_OptionSchema_Args);
  if (ScopedError(api->Plugin_OptionSchema(&schema), api).ok()) {
    plugin.option_schema =
        NamedValueList::Copy(schema.options, schema.num_options);
  }
  auto attributes = PJRTX_CONFORMANCE_ARGS(PJRTX_Plugin_Attributes_Args);
  if (ScopedError(api->Plugin_Attributes(&attributes), api).ok()) {
    plugin.attributes =
        NamedValueList::Copy(attributes.attributes, attributes.num_attributes);
  }
  return true;
}

std::optional<std::string> UnavailableReason() {
  const OwnedNamedValue* reason =
      Plugin().attributes.Find(kUnavailableReasonAttribute);
  if (reason == nullptr) return std::nullopt;
  return reason->type == PJRTX_NamedValue_kString ? reason->string_value
                                                  : reason->ValueToString();
}

bool HasCapability(std::string_view name) {
  const OwnedNamedValue* capabilities =
      Plugin().attributes.Find(kCapabilitiesAttribute);
  if (capabilities == nullptr ||
      capabilities->type != PJRTX_NamedValue_kString) {
    return false;
  }
  std::string_view list = capabilities->string_value;
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view entry = list.substr(0, comma);
    while (!entry.empty() && entry.front() == ' ') entry.remove_prefix(1);
    while (!entry.empty() && entry.back() == ' ') entry.remove_suffix(1);
    if (entry == name) return true;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return false;
}

}  // namespace pjrtx::conformance
