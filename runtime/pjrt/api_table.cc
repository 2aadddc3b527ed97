#include "runtime/pjrt/api_table.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "runtime/core/abi/api_support.h"
#include "runtime/pjrt/api_support.h"

namespace pjrtx::pjrt {

const PJRT_Api* BuildPjrtApi(const PJRTX_Api* pjrtx_api) {
  const Plugin& plugin = abi::ThePlugin();
  const std::string name = plugin.PjrtPlatformName();
  InstallPjrtx(pjrtx_api, {name, absl::StrCat("pjrtx ", plugin.Version(), " (",
                                              name, ")")});
  static PJRT_Api api = [] {
    PJRT_Api table{};
    table.struct_size = PJRT_Api_STRUCT_SIZE;
    table.extension_start = nullptr;
    table.pjrt_api_version.struct_size = PJRT_Api_Version_STRUCT_SIZE;
    table.pjrt_api_version.major_version = PJRT_API_MAJOR;
    table.pjrt_api_version.minor_version = PJRT_API_MINOR;
    FillErrorAndEventSlots(table);
    FillPluginAndClientSlots(table);
    FillDeviceSlots(table);
    FillMemorySlots(table);
    FillBufferSlots(table);
    FillExecutableSlots(table);
    return table;
  }();
  return &api;
}

}  // namespace pjrtx::pjrt
