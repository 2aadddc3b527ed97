#include "runtime/client/event_future.h"

#include <utility>

#include "runtime/client/status_from_error.h"

namespace pjrtx::client {

EventFuture::EventFuture(EventFuture&& other) noexcept
    : api_(other.api_), event_(std::exchange(other.event_, nullptr)) {}

EventFuture& EventFuture::operator=(EventFuture&& other) noexcept {
  if (this != &other) {
    this->~EventFuture();
    api_ = other.api_;
    event_ = std::exchange(other.event_, nullptr);
  }
  return *this;
}

EventFuture::~EventFuture() {
  if (event_ == nullptr) return;
  PJRTX_CLIENT_ARGS(PJRTX_Event_Destroy_Args, args);
  args.event = event_;
  TakeStatus(api_, api_->Event_Destroy(&args)).IgnoreError();
  event_ = nullptr;
}

bool EventFuture::IsReady() const {
  PJRTX_CLIENT_ARGS(PJRTX_Event_IsReady_Args, args);
  args.event = event_;
  if (!TakeStatus(api_, api_->Event_IsReady(&args)).ok()) return true;
  return args.is_ready;
}

absl::Status EventFuture::Await() const {
  PJRTX_CLIENT_ARGS(PJRTX_Event_Await_Args, args);
  args.event = event_;
  return TakeStatus(api_, api_->Event_Await(&args));
}

void EventFuture::OnReady(std::function<void(absl::Status)> fn) const {
  struct Context {
    const PJRTX_Api* api;
    std::function<void(absl::Status)> fn;
  };
  auto* context = new Context{api_, std::move(fn)};
  PJRTX_CLIENT_ARGS(PJRTX_Event_OnReady_Args, args);
  args.event = event_;
  args.user_arg = context;
  args.callback = [](PJRTX_Error* error, void* user_arg) {
    auto* context = static_cast<Context*>(user_arg);
    context->fn(TakeStatus(context->api, error));
    delete context;
  };
  absl::Status status = TakeStatus(api_, api_->Event_OnReady(&args));
  if (!status.ok()) {
    context->fn(status);
    delete context;
  }
}

}  // namespace pjrtx::client
