// PJRT entry points of errors and events.
#include <memory>

#include "runtime/pjrt/api_support.h"
#include "runtime/pjrt/handles.h"
#include "support/status_macros.h"

namespace pjrtx::pjrt {
namespace {

// Error_Destroy and Error_Message return nothing, so a bad struct size can
// only make them do nothing.
void ErrorDestroy(PJRT_Error_Destroy_Args* args) {
  if (args == nullptr ||
      args->struct_size < PJRT_Error_Destroy_Args_STRUCT_SIZE) {
    return;
  }
  delete args->error;
}

void ErrorMessage(PJRT_Error_Message_Args* args) {
  if (args == nullptr ||
      args->struct_size < PJRT_Error_Message_Args_STRUCT_SIZE) {
    return;
  }
  args->message = nullptr;
  args->message_size = 0;
  if (args->error == nullptr) return;
  args->message = args->error->status.message().data();
  args->message_size = args->error->status.message().size();
}

absl::Status ErrorGetCode(PJRT_Error_GetCode_Args& args) {
  if (args.error == nullptr) {
    return absl::InvalidArgumentError("PJRT_Error_GetCode: error is NULL");
  }
  args.code = static_cast<PJRT_Error_Code>(args.error->status.code());
  return absl::OkStatus();
}

PJRTX_Event* Unwrap(const PJRT_Event* event) {
  return event == nullptr ? nullptr : event->event.get();
}

absl::Status EventDestroy(PJRT_Event_Destroy_Args& args) {
  delete args.event;
  return absl::OkStatus();
}

absl::Status EventIsReady(PJRT_Event_IsReady_Args& args) {
  auto ready = PJRTX_ARGS(PJRTX_Event_IsReady_Args);
  ready.event = Unwrap(args.event);
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Event_IsReady, ready));
  args.is_ready = ready.is_ready;
  return absl::OkStatus();
}

absl::Status EventError(PJRT_Event_Error_Args& args) {
  auto error = PJRTX_ARGS(PJRTX_Event_Error_Args);
  error.event = Unwrap(args.event);
  return CallPjrtx(Pjrtx().Event_Error, error);
}

absl::Status EventAwait(PJRT_Event_Await_Args& args) {
  auto await = PJRTX_ARGS(PJRTX_Event_Await_Args);
  await.event = Unwrap(args.event);
  return CallPjrtx(Pjrtx().Event_Await, await);
}

// The framework's callback, carried through pjrtx's, which runs it inline
// when the event is ready already and on the callback thread otherwise
// (never on a device worker, never under a runtime lock), so the callback
// may destroy the event.
struct OnReadyCall {
  PJRT_Event_OnReadyCallback callback;
  void* user_arg;
};

void RunOnReadyCall(PJRTX_Error* error, void* arg) {
  std::unique_ptr<OnReadyCall> call(static_cast<OnReadyCall*>(arg));
  call->callback(ToPjrtError(TakePjrtxError(error)), call->user_arg);
}

absl::Status EventOnReady(PJRT_Event_OnReady_Args& args) {
  if (args.callback == nullptr) {
    return absl::InvalidArgumentError("PJRT_Event_OnReady: callback is NULL");
  }
  auto call =
      std::make_unique<OnReadyCall>(OnReadyCall{args.callback, args.user_arg});
  auto on_ready = PJRTX_ARGS(PJRTX_Event_OnReady_Args);
  on_ready.event = Unwrap(args.event);
  on_ready.callback = RunOnReadyCall;
  on_ready.user_arg = call.get();
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Event_OnReady, on_ready));
  call.release();  // RunOnReadyCall owns it now.
  return absl::OkStatus();
}

}  // namespace

void FillErrorAndEventSlots(PJRT_Api& api) {
  api.PJRT_Error_Destroy = ErrorDestroy;
  api.PJRT_Error_Message = ErrorMessage;
  PJRTX_PJRT_SLOT(api, PJRT_Error_GetCode, ErrorGetCode);
  PJRTX_PJRT_SLOT(api, PJRT_Event_Destroy, EventDestroy);
  PJRTX_PJRT_SLOT(api, PJRT_Event_IsReady, EventIsReady);
  PJRTX_PJRT_SLOT(api, PJRT_Event_Error, EventError);
  PJRTX_PJRT_SLOT(api, PJRT_Event_Await, EventAwait);
  PJRTX_PJRT_SLOT(api, PJRT_Event_OnReady, EventOnReady);
}

}  // namespace pjrtx::pjrt
