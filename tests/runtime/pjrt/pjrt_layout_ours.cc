// The LayoutTable of the project's PJRT C API header.

#include "runtime/pjrt/pjrt_c_api.h"

#define PJRTX_LAYOUT_TABLE_FUNCTION OurLayout
#define PJRTX_LAYOUT_SUFFIXED_SLOTS_ALLOWED 0
#include "tests/runtime/pjrt/pjrt_layout_fill.inc"
