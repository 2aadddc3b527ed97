// The LayoutTable of OpenXLA's PJRT C API header, the copy in the shared
// folder (test data only). Built only when that file exists; the build
// puts its directory, PJRTX_UPSTREAM_PJRT_HEADER_DIR, on the include path
// of this one source.

#include "pjrt_c_api.h"

#ifndef XLA_PJRT_C_PJRT_C_API_H_
#error "pjrt_c_api.h is not OpenXLA's header; check the include path"
#endif

#define PJRTX_LAYOUT_TABLE_FUNCTION UpstreamLayout
#define PJRTX_LAYOUT_SUFFIXED_SLOTS_ALLOWED 1
#include "tests/runtime/pjrt/pjrt_layout_fill.inc"
