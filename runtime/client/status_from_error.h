// PJRTX_Error -> absl::Status on the framework side.
#ifndef PJRTX_RUNTIME_CLIENT_STATUS_FROM_ERROR_H_
#define PJRTX_RUNTIME_CLIENT_STATUS_FROM_ERROR_H_

#include "absl/status/status.h"
#include "pjrtx/pjrtx_c_api.h"

namespace pjrtx::client {

// Converts and destroys `error` (NULL is OK).
absl::Status TakeStatus(const PJRTX_Api* api, PJRTX_Error* error);

// Fills the two header fields of an args struct.
template <typename Args>
Args MakeArgs(size_t struct_size) {
  Args args{};
  args.struct_size = struct_size;
  return args;
}

}  // namespace pjrtx::client

// Declares `args` of type Type with its header set.
#define PJRTX_CLIENT_ARGS(Type, args) \
  Type args = ::pjrtx::client::MakeArgs<Type>(Type##_STRUCT_SIZE)

#endif  // PJRTX_RUNTIME_CLIENT_STATUS_FROM_ERROR_H_
