// Defines a plugin's one exported symbol.
#ifndef PJRTX_RUNTIME_CORE_ABI_PLUGIN_ENTRY_H_
#define PJRTX_RUNTIME_CORE_ABI_PLUGIN_ENTRY_H_

#include "pjrtx/pjrtx_c_api.h"
#include "runtime/core/abi/api_table.h"

// Use once in a plugin's sources, at global scope, with its pjrtx::Plugin
// subclass (default constructible):
//
//   PJRTX_DEFINE_PLUGIN(my_vendor::MyPlugin)
//
// Defines GetPjrtxApi(), the only symbol the plugin exports.
#define PJRTX_DEFINE_PLUGIN(PluginClass)                             \
  extern "C" __attribute__((visibility("default"))) const PJRTX_Api* \
  GetPjrtxApi(void) {                                                \
    static const PJRTX_Api* const api =                              \
        ::pjrtx::abi::BuildApi(new PluginClass());                   \
    return api;                                                      \
  }

#endif  // PJRTX_RUNTIME_CORE_ABI_PLUGIN_ENTRY_H_
