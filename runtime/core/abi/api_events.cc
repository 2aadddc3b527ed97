// Entry points for errors and events.
#include <utility>

#include "absl/strings/str_cat.h"
#include "runtime/core/abi/api_support.h"
#include "runtime/core/abi/handles.h"
#include "runtime/core/base/callback_thread.h"

namespace pjrtx::abi {
namespace {

void ErrorDestroy(PJRTX_Error_Destroy_Args* args) {
  if (args == nullptr ||
      args->struct_size < PJRTX_Error_Destroy_Args_STRUCT_SIZE)
    return;
  delete args->error;
}

void ErrorMessage(PJRTX_Error_Message_Args* args) {
  if (args == nullptr ||
      args->struct_size < PJRTX_Error_Message_Args_STRUCT_SIZE)
    return;
  args->message = nullptr;
  args->message_size = 0;
  if (args->error == nullptr) return;
  args->message = args->error->message.c_str();
  args->message_size = args->error->message.size();
}

PJRTX_Error* ErrorGetCode(PJRTX_Error_GetCode_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Error_GetCode_Args, args);
  args->code = PJRTX_Error_Code_OK;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->error, "error"));
  args->code = static_cast<PJRTX_Error_Code>(args->error->code);
  return nullptr;
}

PJRTX_Error* EventDestroy(PJRTX_Event_Destroy_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Event_Destroy_Args, args);
  if (args->event == nullptr) return nullptr;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->event, "event"));
  delete args->event;
  return nullptr;
}

PJRTX_Error* EventIsReady(PJRTX_Event_IsReady_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Event_IsReady_Args, args);
  args->is_ready = false;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->event, "event"));
  args->is_ready = args->event->event->IsReady();
  return nullptr;
}

PJRTX_Error* EventError(PJRTX_Event_Error_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Event_Error_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->event, "event"));
  if (!args->event->event->IsReady()) {
    return ToError(absl::FailedPreconditionError(
        "PJRTX_Event_Error called on an event that is not ready yet; await "
        "it or use PJRTX_Event_OnReady"));
  }
  return ToError(args->event->event->status());
}

PJRTX_Error* EventAwait(PJRTX_Event_Await_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Event_Await_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->event, "event"));
  return ToError(args->event->event->AwaitHelping());
}

PJRTX_Error* EventOnReady(PJRTX_Event_OnReady_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Event_OnReady_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->event, "event"));
  if (args->callback == nullptr) {
    return ToError(absl::InvalidArgumentError("callback is NULL"));
  }
  PJRTX_Event_OnReadyCallback callback = args->callback;
  void* user_arg = args->user_arg;
  const EventRef& event = args->event->event;
  if (event->IsReady()) {
    callback(ToError(event->status()), user_arg);
    return nullptr;
  }
  // The continuation runs on whichever thread sets the event (maybe a device
  // worker); the framework's callback is moved to the callback thread.
  event->AndThen([callback, user_arg](const absl::Status& status) {
    PostToCallbackThread([callback, user_arg, status]() {
      callback(ToError(status), user_arg);
    });
  });
  return nullptr;
}

PJRTX_Error* EventCreate(PJRTX_Event_Create_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Event_Create_Args, args);
  auto* event = new PJRTX_Event();
  event->event = Event::Create();
  event->made_by_framework = true;
  args->event = event;
  return nullptr;
}

PJRTX_Error* EventSet(PJRTX_Event_Set_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Event_Set_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->event, "event"));
  if (!args->event->made_by_framework) {
    return ToError(absl::FailedPreconditionError(
        "PJRTX_Event_Set called on an event the runtime owns; only events "
        "made by PJRTX_Event_Create can be set"));
  }
  int code = static_cast<int>(args->error_code);
  if (code < 0 || code > 16) {
    return ToError(absl::InvalidArgumentError(
        absl::StrCat("Unknown error code ", code, "; expected 0..16")));
  }
  absl::Status status;
  if (code != 0) {
    status = absl::Status(
        static_cast<absl::StatusCode>(code),
        args->error_message == nullptr
            ? absl::string_view()
            : absl::string_view(args->error_message, args->error_message_size));
  }
  // Set runs to its end on a reference of its own: a thread awaiting this
  // handle may destroy it as soon as the event is ready.
  const EventRef event = args->event->event;
  if (!event->Set(std::move(status))) {
    return ToError(absl::FailedPreconditionError(
        "PJRTX_Event_Set called twice on the same event"));
  }
  return nullptr;
}

}  // namespace

void FillErrorAndEventSlots(PJRTX_Api& api) {
  api.Error_Destroy = ErrorDestroy;
  api.Error_Message = ErrorMessage;
  api.Error_GetCode = ErrorGetCode;
  api.Event_Destroy = EventDestroy;
  api.Event_IsReady = EventIsReady;
  api.Event_Error = EventError;
  api.Event_Await = EventAwait;
  api.Event_OnReady = EventOnReady;
  api.Event_Create = EventCreate;
  api.Event_Set = EventSet;
}

}  // namespace pjrtx::abi
