// Builds a plugin's PJRT_Api table, the OpenXLA PJRT C API front door over
// the plugin's own PJRTX_Api (DESIGN.md section 3a).
#ifndef PJRTX_RUNTIME_PJRT_API_TABLE_H_
#define PJRTX_RUNTIME_PJRT_API_TABLE_H_

#include "pjrtx/pjrtx_c_api.h"
#include "runtime/pjrt/pjrt_c_api.h"

namespace pjrtx::pjrt {

// Returns the PJRT table of the plugin whose pjrtx table is `pjrtx_api`
// (that of the same shared object, built by abi::BuildApi). Every slot is
// filled; the table lives for the life of the process and has no
// extensions. Call once per shared object; PJRTX_DEFINE_PLUGIN does.
const PJRT_Api* BuildPjrtApi(const PJRTX_Api* pjrtx_api);

}  // namespace pjrtx::pjrt

#endif  // PJRTX_RUNTIME_PJRT_API_TABLE_H_
