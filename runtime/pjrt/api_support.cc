#include "runtime/pjrt/api_support.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "runtime/pjrt/handles.h"

namespace pjrtx::pjrt {
namespace {
const PJRTX_Api* g_pjrtx = nullptr;
const PjrtPlatform* g_platform = nullptr;
}  // namespace

const PJRTX_Api& Pjrtx() { return *g_pjrtx; }
const PjrtPlatform& Platform() { return *g_platform; }
void InstallPjrtx(const PJRTX_Api* api, PjrtPlatform platform) {
  g_pjrtx = api;
  g_platform = new PjrtPlatform(std::move(platform));
}

absl::Status TakePjrtxError(PJRTX_Error* error) {
  if (error == nullptr) return absl::OkStatus();
  auto code_args = PJRTX_ARGS(PJRTX_Error_GetCode_Args);
  code_args.error = error;
  PJRTX_Error* code_error = Pjrtx().Error_GetCode(&code_args);
  auto message_args = PJRTX_ARGS(PJRTX_Error_Message_Args);
  message_args.error = error;
  Pjrtx().Error_Message(&message_args);
  absl::Status status(
      code_error == nullptr ? static_cast<absl::StatusCode>(code_args.code)
                            : absl::StatusCode::kUnknown,
      absl::string_view(message_args.message, message_args.message_size));
  for (PJRTX_Error* e : {error, code_error}) {
    auto destroy_args = PJRTX_ARGS(PJRTX_Error_Destroy_Args);
    destroy_args.error = e;
    Pjrtx().Error_Destroy(&destroy_args);
  }
  return status;
}

PJRT_Error* ToPjrtError(const absl::Status& status) {
  if (status.ok()) return nullptr;
  return new PJRT_Error{status};
}

absl::Status CheckStructSize(absl::string_view struct_name, const void* args,
                             size_t given, size_t expected) {
  if (args == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("Arguments pointer to ", struct_name, " is NULL"));
  }
  if (given < expected) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Unexpected ", struct_name, " size: expected ", expected, ", got ",
        given,
        ". The plugin is likely built with a later version than the "
        "framework. This plugin is built with PJRT API version ",
        PJRT_API_MAJOR, ".", PJRT_API_MINOR, "."));
  }
  return absl::OkStatus();
}

absl::Status Unimplemented(absl::string_view function) {
  return absl::UnimplementedError(
      absl::StrCat(function, " is not implemented by pjrtx"));
}

}  // namespace pjrtx::pjrt
