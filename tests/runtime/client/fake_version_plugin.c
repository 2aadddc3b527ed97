/* A library that claims to be a pjrtx plugin of another API version
 * (FAKE_MAJOR.FAKE_MINOR). Only its version is ever read. */
#include "pjrtx/pjrtx_c_api.h"

const PJRTX_Api* GetPjrtxApi(void) {
  static PJRTX_Api api;
  api.struct_size = PJRTX_Api_STRUCT_SIZE;
  api.pjrtx_api_version.struct_size = PJRTX_Api_Version_STRUCT_SIZE;
  api.pjrtx_api_version.major_version = FAKE_MAJOR;
  api.pjrtx_api_version.minor_version = FAKE_MINOR;
  return &api;
}
