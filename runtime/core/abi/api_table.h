// Builds a plugin's PJRTX_Api table.
#ifndef PJRTX_RUNTIME_CORE_ABI_API_TABLE_H_
#define PJRTX_RUNTIME_CORE_ABI_API_TABLE_H_

#include "pjrtx/pjrtx_c_api.h"
#include "runtime/core/base/plugin.h"

namespace pjrtx::abi {

// Returns the table of the plugin `plugin` (taken over; it lives for the
// life of the process). Call once per shared object; PJRTX_DEFINE_PLUGIN
// does.
const PJRTX_Api* BuildApi(Plugin* plugin);

}  // namespace pjrtx::abi

#endif  // PJRTX_RUNTIME_CORE_ABI_API_TABLE_H_
