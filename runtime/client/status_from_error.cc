#include "runtime/client/status_from_error.h"

#include <string>

namespace pjrtx::client {

absl::Status TakeStatus(const PJRTX_Api* api, PJRTX_Error* error) {
  if (error == nullptr) return absl::OkStatus();
  PJRTX_CLIENT_ARGS(PJRTX_Error_Message_Args, message);
  message.error = error;
  api->Error_Message(&message);
  PJRTX_CLIENT_ARGS(PJRTX_Error_GetCode_Args, code);
  code.error = error;
  PJRTX_Error* code_error = api->Error_GetCode(&code);
  absl::StatusCode status_code = code_error == nullptr
                                     ? static_cast<absl::StatusCode>(code.code)
                                     : absl::StatusCode::kUnknown;
  std::string text(message.message, message.message_size);
  PJRTX_CLIENT_ARGS(PJRTX_Error_Destroy_Args, destroy);
  destroy.error = error;
  api->Error_Destroy(&destroy);
  if (code_error != nullptr) {
    destroy.error = code_error;
    api->Error_Destroy(&destroy);
  }
  return absl::Status(status_code, text);
}

}  // namespace pjrtx::client
