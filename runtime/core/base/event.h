// A one-shot completion signal carrying an absl::Status.
#ifndef PJRTX_RUNTIME_CORE_BASE_EVENT_H_
#define PJRTX_RUNTIME_CORE_BASE_EVENT_H_

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

#include "absl/functional/any_invocable.h"
#include "absl/status/status.h"
#include "absl/types/span.h"

namespace pjrtx {

class Event;
// Events are shared: the operation that sets one and every waiter hold a
// reference, so an event outlives whichever side finishes first.
using EventRef = std::shared_ptr<Event>;

// Becomes ready exactly once, with a status. Thread-safe.
//
// Continuations registered with AndThen run inline: on the registering
// thread if the event is already ready, otherwise on the thread that calls
// Set (often a device worker). They must therefore be short and must never
// block; anything user-facing is posted elsewhere (see CallbackThread).
class Event {
 public:
  using Continuation = absl::AnyInvocable<void(const absl::Status&) &&>;

  static EventRef Create();
  static EventRef MakeReady(absl::Status status = absl::OkStatus());

  Event() = default;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  bool IsReady() const { return ready_.load(std::memory_order_acquire); }

  // The final status. Requires IsReady().
  const absl::Status& status() const { return status_; }

  // Blocks until ready and returns the status.
  absl::Status Await() const;

  // Await for a thread that owns nothing of the runtime's (a user's thread,
  // through the ABI): if the event has a helper (SetAwaitHelper), the first
  // such thread to find it not ready runs the helper before it sleeps.
  // Runtime threads use Await: a helper may need the very thread (a device
  // queue's, say) that would be running it.
  absl::Status AwaitHelping() const;

  // Gives the event work that may make it ready and that a thread about to
  // block in AwaitHelping may as well do itself rather than sleep while
  // another thread does it (e.g. run the task that sets it, see
  // OrderedWorker::InlineRunner). It runs at most once, on one waiting
  // thread, and is dropped unrun once the event is set. Ignored if the
  // event is already ready.
  void SetAwaitHelper(absl::AnyInvocable<void() &&> helper);

  // Runs `fn` once the event is ready (inline if it already is).
  void AndThen(Continuation fn);

  // Makes the event ready. Returns false (and changes nothing) if it was
  // already set. The caller keeps the event alive until Set returns (holds
  // an EventRef of its own): waiters may drop theirs as soon as it is
  // ready.
  bool Set(absl::Status status);

 private:
  // std::mutex rather than absl::Mutex throughout the runtime: Debian's
  // Abseil is not built for ThreadSanitizer, which then cannot see the
  // ordering absl::Mutex provides; pthread-based locks it can.
  mutable std::mutex mu_;
  mutable std::condition_variable ready_cv_;
  std::atomic<bool> ready_{false};
  absl::Status status_;  // Written once under mu_ before ready_ is published.
  std::vector<Continuation> continuations_;  // Guarded by mu_.
  // Taken by the first AwaitHelping that finds the event not ready, hence
  // mutable.
  mutable absl::AnyInvocable<void() &&> await_helper_;  // Guarded by mu_.
};

// An event ready when all of `events` are; its status is the first error
// among them (in argument order), or OK.
EventRef AfterAll(absl::Span<const EventRef> events);

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_CORE_BASE_EVENT_H_
