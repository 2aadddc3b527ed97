#include "callback_probe.h"

#include <utility>

namespace pjrtx::conformance {

void CallbackProbe::OnReady(PJRTX_Error* error, void* user_arg) {
  ScopedError owned(error);
  static_cast<CallbackProbe*>(user_arg)->Record(owned.code(), owned.message());
}

ScopedError CallbackProbe::RegisterOn(PJRTX_Event* event) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Event_OnReady_Args);
  args.event = event;
  args.callback = &CallbackProbe::OnReady;
  args.user_arg = this;
  return ScopedError(Api()->Event_OnReady(&args));
}

void CallbackProbe::Record(PJRTX_Error_Code code, std::string message) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++calls_;
  code_ = code;
  message_ = std::move(message);
  thread_ = std::this_thread::get_id();
  changed_.notify_all();
}

bool CallbackProbe::WaitForCalls(int calls, std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return calls_ >= calls; });
}

int CallbackProbe::calls() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return calls_;
}

PJRTX_Error_Code CallbackProbe::code() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return code_;
}

std::string CallbackProbe::message() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return message_;
}

std::thread::id CallbackProbe::thread() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return thread_;
}

BackgroundTask::BackgroundTask(std::function<void()> task)
    : state_(std::make_shared<State>()) {
  thread_ = std::thread([state = state_, task = std::move(task)] {
    task();
    std::lock_guard<std::mutex> lock(state->mutex);
    state->done = true;
    state->done_changed.notify_all();
  });
}

BackgroundTask::~BackgroundTask() {
  if (thread_.joinable() && !Finish()) {
    ADD_FAILURE() << "a background step of this test never finished";
  }
}

bool BackgroundTask::Finish(std::chrono::milliseconds timeout) {
  if (!thread_.joinable()) return !detached_;
  std::unique_lock<std::mutex> lock(state_->mutex);
  if (!state_->done_changed.wait_for(lock, timeout,
                                     [&] { return state_->done; })) {
    thread_.detach();
    detached_ = true;
    return false;
  }
  lock.unlock();
  thread_.join();
  return true;
}

}  // namespace pjrtx::conformance
