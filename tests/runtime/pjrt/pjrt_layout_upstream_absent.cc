// Stands in for pjrt_layout_upstream.cc when the shared folder lacks
// OpenXLA's header: the comparisons then skip, saying where it was looked
// for.

#include <string>

#include "tests/runtime/pjrt/pjrt_layout_table.h"

namespace pjrtx::pjrt_layout {

LayoutTable UpstreamLayout() {
  LayoutTable table;
  table.unavailable_reason =
      std::string("OpenXLA's PJRT C API header was not found at ") +
      PJRTX_UPSTREAM_PJRT_HEADER_DIR +
      "/pjrt_c_api.h when this test was built (it comes with the shared "
      "folder, PJRTX_SHARED_DIR); reconfigure once it is there";
  return table;
}

}  // namespace pjrtx::pjrt_layout
