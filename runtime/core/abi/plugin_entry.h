// Defines a plugin's two exported symbols.
#ifndef PJRTX_RUNTIME_CORE_ABI_PLUGIN_ENTRY_H_
#define PJRTX_RUNTIME_CORE_ABI_PLUGIN_ENTRY_H_

#include "pjrtx/pjrtx_c_api.h"
#include "runtime/core/abi/api_table.h"
#include "runtime/pjrt/api_table.h"
#include "runtime/pjrt/pjrt_c_api.h"

// Use once in a plugin's sources, at global scope, with its pjrtx::Plugin
// subclass (default constructible):
//
//   PJRTX_DEFINE_PLUGIN(my_vendor::MyPlugin)
//
// Defines GetPjrtxApi(), the pjrtx ABI, and GetPjrtApi(), OpenXLA's PJRT C
// API over it (runtime/pjrt), the only symbols the plugin exports. Link
// pjrtx::pjrt (pjrtx_add_plugin does).
#define PJRTX_DEFINE_PLUGIN(PluginClass)                             \
  extern "C" __attribute__((visibility("default"))) const PJRTX_Api* \
  GetPjrtxApi(void) {                                                \
    static const PJRTX_Api* const api =                              \
        ::pjrtx::abi::BuildApi(new PluginClass());                   \
    return api;                                                      \
  }                                                                  \
  extern "C" __attribute__((visibility("default"))) const PJRT_Api*  \
  GetPjrtApi(void) {                                                 \
    static const PJRT_Api* const api =                               \
        ::pjrtx::pjrt::BuildPjrtApi(GetPjrtxApi());                  \
    return api;                                                      \
  }

#endif  // PJRTX_RUNTIME_CORE_ABI_PLUGIN_ENTRY_H_
