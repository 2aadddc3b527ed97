#include "runtime/core/abi/api_table.h"

#include "runtime/core/abi/api_support.h"

namespace pjrtx::abi {

const PJRTX_Api* BuildApi(Plugin* plugin) {
  InstallPlugin(plugin);
  static PJRTX_Api api = [] {
    PJRTX_Api table{};
    table.struct_size = PJRTX_Api_STRUCT_SIZE;
    table.pjrtx_api_version.struct_size = PJRTX_Api_Version_STRUCT_SIZE;
    table.pjrtx_api_version.major_version = PJRTX_API_MAJOR;
    table.pjrtx_api_version.minor_version = PJRTX_API_MINOR;
    FillErrorAndEventSlots(table);
    FillPluginSlots(table);
    FillClientSlots(table);
    FillDeviceSlots(table);
    FillBufferSlots(table);
    FillDLPackSlots(table);
    FillExecutableSlots(table);
    FillCommunicatorSlots(table);
    return table;
  }();
  return &api;
}

}  // namespace pjrtx::abi
