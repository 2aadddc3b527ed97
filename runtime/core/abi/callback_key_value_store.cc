#include "runtime/core/abi/callback_key_value_store.h"

#include <memory>

#include "runtime/core/abi/handles.h"

namespace pjrtx::abi {
namespace {

PJRTX_Error* MakeCallbackError(PJRTX_Error_Code code, const char* message,
                               size_t message_size) {
  auto* error = new PJRTX_Error();
  error->code = static_cast<absl::StatusCode>(code);
  if (message != nullptr) error->message.assign(message, message_size);
  return error;
}

// Takes ownership of an error returned by a framework callback.
absl::Status TakeError(PJRTX_Error* error) {
  std::unique_ptr<PJRTX_Error> owned(error);
  return absl::Status(owned->code, owned->message);
}

}  // namespace

absl::StatusOr<std::string> CallbackKeyValueStore::Get(absl::string_view key,
                                                       int64_t timeout_ms) {
  PJRTX_KeyValueGetCallback_Args args{};
  args.struct_size = PJRTX_KeyValueGetCallback_Args_STRUCT_SIZE;
  args.key = key.data();
  args.key_size = key.size();
  args.timeout_in_ms = timeout_ms;
  args.callback_error = MakeCallbackError;
  args.user_arg = get_arg_;
  if (PJRTX_Error* error = get_(&args)) return TakeError(error);
  std::string value(args.value, args.value_size);
  if (args.value_deleter_callback != nullptr) {
    args.value_deleter_callback(args.value);
  }
  return value;
}

absl::Status CallbackKeyValueStore::Put(absl::string_view key,
                                        absl::string_view value) {
  PJRTX_KeyValuePutCallback_Args args{};
  args.struct_size = PJRTX_KeyValuePutCallback_Args_STRUCT_SIZE;
  args.key = key.data();
  args.key_size = key.size();
  args.value = value.data();
  args.value_size = value.size();
  args.callback_error = MakeCallbackError;
  args.user_arg = put_arg_;
  if (PJRTX_Error* error = put_(&args)) return TakeError(error);
  return absl::OkStatus();
}

}  // namespace pjrtx::abi
