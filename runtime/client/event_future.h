// A PJRTX_Event owned as a future.
#ifndef PJRTX_RUNTIME_CLIENT_EVENT_FUTURE_H_
#define PJRTX_RUNTIME_CLIENT_EVENT_FUTURE_H_

#include <functional>

#include "absl/status/status.h"
#include "pjrtx/pjrtx_c_api.h"

namespace pjrtx::client {

// Owns the event; move-only. Thread-compatible.
class EventFuture {
 public:
  EventFuture() = default;
  EventFuture(const PJRTX_Api* api, PJRTX_Event* event)
      : api_(api), event_(event) {}
  EventFuture(EventFuture&& other) noexcept;
  EventFuture& operator=(EventFuture&& other) noexcept;
  ~EventFuture();

  bool valid() const { return event_ != nullptr; }
  bool IsReady() const;
  // Blocks until ready; the event's status.
  absl::Status Await() const;
  // Runs `fn` once ready: inline if it already is, else on the plugin's
  // callback thread.
  void OnReady(std::function<void(absl::Status)> fn) const;
  PJRTX_Event* get() const { return event_; }

 private:
  const PJRTX_Api* api_ = nullptr;
  PJRTX_Event* event_ = nullptr;
};

}  // namespace pjrtx::client

#endif  // PJRTX_RUNTIME_CLIENT_EVENT_FUTURE_H_
