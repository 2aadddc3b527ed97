#include "runtime/core/base/event.h"

#include <utility>

namespace pjrtx {

EventRef Event::Create() { return std::make_shared<Event>(); }

EventRef Event::MakeReady(absl::Status status) {
  EventRef event = Create();
  event->Set(std::move(status));
  return event;
}

absl::Status Event::Await() const {
  if (!IsReady()) {
    std::unique_lock<std::mutex> lock(mu_);
    ready_cv_.wait(lock, [this] { return IsReady(); });
  }
  return status_;
}

absl::Status Event::AwaitHelping() const {
  if (!IsReady()) {
    absl::AnyInvocable<void() &&> helper;
    {
      std::lock_guard<std::mutex> lock(mu_);
      helper = std::exchange(await_helper_, nullptr);
    }
    if (helper) std::move(helper)();
  }
  return Await();
}

void Event::SetAwaitHelper(absl::AnyInvocable<void() &&> helper) {
  std::lock_guard<std::mutex> lock(mu_);
  if (ready_.load(std::memory_order_relaxed)) return;
  await_helper_ = std::move(helper);
}

void Event::AndThen(Continuation fn) {
  if (!IsReady()) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!ready_.load(std::memory_order_relaxed)) {
      continuations_.push_back(std::move(fn));
      return;
    }
  }
  std::move(fn)(status_);
}

bool Event::Set(absl::Status status) {
  std::vector<Continuation> continuations;
  // Destroyed outside the lock, like anything else the event let go of.
  absl::AnyInvocable<void() &&> unused_helper;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (ready_.load(std::memory_order_relaxed)) return false;
    status_ = std::move(status);
    ready_.store(true, std::memory_order_release);
    continuations.swap(continuations_);
    unused_helper = std::exchange(await_helper_, nullptr);
  }
  // After the lock is released: a waiter woken while this thread still
  // held it would only block again on the lock, a second sleep and wake-up
  // for every operation it waits for. This thread holds a reference (see
  // EventRef), so the event outlives a waiter that drops its own at once.
  ready_cv_.notify_all();
  // Run outside the lock: a continuation may register more work on this
  // event or drop the last reference to an object that owns it (so each
  // gets a copy of the status, not this event's).
  if (!continuations.empty()) {
    const absl::Status final_status = status_;
    for (Continuation& fn : continuations) std::move(fn)(final_status);
  }
  return true;
}

namespace {

// Shared state of an AfterAll: counts down the pending inputs.
struct Countdown {
  explicit Countdown(size_t n) : pending(n) {}
  std::atomic<size_t> pending;
  std::mutex mu;
  // Index of the failed input with the lowest position, and its status.
  // Guarded by mu.
  size_t first_error_index = SIZE_MAX;
  absl::Status first_error;
  EventRef result = Event::Create();

  void Arrive(size_t index, const absl::Status& status) {
    if (!status.ok()) {
      std::lock_guard<std::mutex> lock(mu);
      if (index < first_error_index) {
        first_error_index = index;
        first_error = status;
      }
    }
    if (pending.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      absl::Status final_status;
      {
        std::lock_guard<std::mutex> lock(mu);
        final_status = first_error;
      }
      result->Set(std::move(final_status));
    }
  }
};

}  // namespace

EventRef AfterAll(absl::Span<const EventRef> events) {
  if (events.empty()) return Event::MakeReady();
  if (events.size() == 1) return events[0];
  auto countdown = std::make_shared<Countdown>(events.size());
  EventRef result = countdown->result;
  for (size_t i = 0; i < events.size(); ++i) {
    events[i]->AndThen([countdown, i](const absl::Status& status) {
      countdown->Arrive(i, status);
    });
  }
  return result;
}

}  // namespace pjrtx
