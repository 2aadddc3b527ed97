// Entry points describing the plugin itself.
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "runtime/core/abi/api_support.h"
#include "runtime/core/abi/handles.h"

namespace pjrtx::abi {
namespace {

// Built once, on first use; they live for the life of the process.
const NamedValues& PluginAttributes() {
  static const NamedValues* const attributes = [] {
    Plugin& plugin = ThePlugin();
    std::vector<Attribute> list = {
        {"pjrtx.platform_name", plugin.PlatformName()},
        {"pjrtx.plugin_version", plugin.Version()},
        {"pjrtx.api_version",
         std::vector<int64_t>{PJRTX_API_MAJOR, PJRTX_API_MINOR}},
        {"pjrtx.capabilities", absl::StrJoin(plugin.Capabilities(), ",")},
    };
    std::string reason = plugin.UnavailableReason();
    if (!reason.empty()) list.push_back({"pjrtx.unavailable_reason", reason});
    for (Attribute& extra : plugin.Attributes()) list.push_back(extra);
    auto* values = new NamedValues();
    values->Assign(std::move(list));
    return values;
  }();
  return *attributes;
}

struct OptionSchemaArrays {
  NamedValues defaults;
  std::vector<std::string> description_storage;
  std::vector<const char*> descriptions;
};

const OptionSchemaArrays& OptionSchema() {
  static const OptionSchemaArrays* const schema = [] {
    auto* arrays = new OptionSchemaArrays();
    std::vector<Attribute> defaults;
    for (OptionSpec& spec : ThePlugin().OptionSchema()) {
      defaults.push_back({spec.name, spec.default_value});
      arrays->description_storage.push_back(spec.description);
    }
    arrays->defaults.Assign(std::move(defaults));
    for (const std::string& d : arrays->description_storage) {
      arrays->descriptions.push_back(d.c_str());
    }
    return arrays;
  }();
  return *schema;
}

PJRTX_Error* PluginInitialize(PJRTX_Plugin_Initialize_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Plugin_Initialize_Args, args);
  PluginAttributes();
  OptionSchema();
  return nullptr;
}

PJRTX_Error* PluginAttributesEntry(PJRTX_Plugin_Attributes_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Plugin_Attributes_Args, args);
  const NamedValues& attributes = PluginAttributes();
  args->attributes = attributes.data();
  args->num_attributes = attributes.size();
  return nullptr;
}

PJRTX_Error* PluginOptionSchema(PJRTX_Plugin_OptionSchema_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Plugin_OptionSchema_Args, args);
  const OptionSchemaArrays& schema = OptionSchema();
  args->options = schema.defaults.data();
  args->descriptions = schema.descriptions.data();
  args->num_options = schema.defaults.size();
  return nullptr;
}

}  // namespace

const std::vector<Attribute>& PluginAttributeList() {
  return PluginAttributes().attributes();
}

void FillPluginSlots(PJRTX_Api& api) {
  api.Plugin_Initialize = PluginInitialize;
  api.Plugin_Attributes = PluginAttributesEntry;
  api.Plugin_OptionSchema = PluginOptionSchema;
}

}  // namespace pjrtx::abi
