/* Compiled with -std=c99 -pedantic -Werror and as C++ by CTest: the public
 * header must stay valid in both. */
#include "pjrtx/pjrtx_c_api.h"

int pjrtx_header_check(const PJRTX_Api* api) {
  PJRTX_Error_Destroy_Args args;
  args.struct_size = PJRTX_Error_Destroy_Args_STRUCT_SIZE;
  args.extension_start = NULL;
  args.error = NULL;
  api->Error_Destroy(&args);
  return (int)PJRTX_Api_STRUCT_SIZE_0_1;
}
