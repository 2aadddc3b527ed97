#include "runtime/collectives/ordered_worker.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace pjrtx::collectives {
namespace {

// Arms a one-shot timer `after` (positive) from now; false if it could not.
bool SetTimer(int timer_fd, std::chrono::microseconds after) {
  itimerspec spec{};
  const int64_t us = after.count();
  spec.it_value.tv_sec = us / 1'000'000;
  spec.it_value.tv_nsec = (us % 1'000'000) * 1000;
  return timerfd_settime(timer_fd, 0, &spec, nullptr) == 0;
}

}  // namespace

absl::StatusOr<std::unique_ptr<OrderedWorker>> OrderedWorker::Create(
    const Options& options) {
  // A zero timer would be no timer: the task would wait for its waiter
  // for ever.
  if (options.grace.count() <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("a collectives worker's grace must be positive; got ",
                     options.grace.count(), " us"));
  }
  const int wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wake_fd < 0) {
    return absl::InternalError(
        absl::StrCat("a collectives worker could not create its eventfd: ",
                     std::strerror(errno)));
  }
  const int timer_fd =
      timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  if (timer_fd < 0) {
    const int error = errno;
    close(wake_fd);
    return absl::InternalError(
        absl::StrCat("a collectives worker could not create its timerfd: ",
                     std::strerror(error)));
  }
  return std::unique_ptr<OrderedWorker>(
      new OrderedWorker(std::make_shared<Queue>(options, wake_fd, timer_fd)));
}

OrderedWorker::OrderedWorker(std::shared_ptr<Queue> queue)
    : queue_(std::move(queue)), thread_([queue = queue_] { queue->Serve(); }) {}

OrderedWorker::~OrderedWorker() {
  queue_->Stop();
  thread_.join();
}

uint64_t OrderedWorker::Add(Task task) { return queue_->Add(std::move(task)); }

void OrderedWorker::Release(uint64_t ticket) { queue_->Release(ticket); }

absl::AnyInvocable<void() &&> OrderedWorker::InlineRunner(uint64_t ticket) {
  return [queue = queue_, ticket] { queue->RunThrough(ticket); };
}

OrderedWorker::Queue::Queue(const Options& options, int wake_fd, int timer_fd)
    : options_(options), wake_fd_(wake_fd), timer_fd_(timer_fd) {}

OrderedWorker::Queue::~Queue() {
  close(wake_fd_);
  close(timer_fd_);
}

uint64_t OrderedWorker::Queue::Add(Task task) {
  std::lock_guard<std::mutex> lock(mu_);
  const uint64_t ticket = next_ticket_++;
  entries_.push_back(Entry{ticket, false, std::move(task)});
  return ticket;
}

bool OrderedWorker::Queue::FrontDue() const {
  return !running_ && !entries_.empty() && entries_.front().released;
}

void OrderedWorker::Queue::Release(uint64_t ticket) {
  std::lock_guard<std::mutex> lock(mu_);
  for (Entry& entry : entries_) {
    if (entry.ticket == ticket) entry.released = true;
  }
  // A task behind a running or unreleased one is started by whoever
  // finishes the one before it.
  if (FrontDue()) Dispatch();
}

OrderedWorker::Queue::Runner OrderedWorker::Queue::ChooseRunner() const {
  if (!waiting_.empty() && entries_.front().ticket <= *waiting_.rbegin()) {
    // A thread in RunThrough is waiting for this task or a later one.
    return Runner::kWaiter;
  }
  if (options_.defer_to_waiters && waited_recently_ && !stopping_) {
    return Runner::kWorkerAfterGrace;
  }
  return Runner::kWorkerNow;
}

void OrderedWorker::Queue::Dispatch() {
  switch (ChooseRunner()) {
    case Runner::kWaiter:
      waiting_changed_.notify_all();
      break;
    case Runner::kWorkerAfterGrace:
      WakeWorkerAfterGrace();
      break;
    case Runner::kWorkerNow:
      WakeWorker();
      break;
  }
}

void OrderedWorker::Queue::RunFront(std::unique_lock<std::mutex>& lock) {
  Task task = std::move(entries_.front().task);
  entries_.pop_front();
  running_ = true;
  // Threads waiting for this task learn that it is taken.
  if (!waiting_.empty()) waiting_changed_.notify_all();
  lock.unlock();
  std::move(task)();
  lock.lock();
  running_ = false;
  // And those waiting for a later one, that its turn may have come.
  if (!waiting_.empty()) waiting_changed_.notify_all();
}

void OrderedWorker::Queue::RunThrough(uint64_t ticket) {
  std::unique_lock<std::mutex> lock(mu_);
  // Tickets leave the queue in order, so `ticket` is still queued while the
  // front's is not above it. A waiter that comes only once its task is
  // taken does not tell that callers wait: one that overlaps its work with
  // the collective and finds it still running must not delay the next.
  if (!entries_.empty() && entries_.front().ticket <= ticket) {
    waited_recently_ = true;
  }
  while (!entries_.empty() && entries_.front().ticket <= ticket) {
    if (FrontDue()) {
      RunFront(lock);
      continue;
    }
    // Not released yet, or another thread runs the task before it.
    auto waiting = waiting_.insert(ticket);
    waiting_changed_.wait(lock);
    waiting_.erase(waiting);
  }
  // A wake-up asked for the tasks this thread ran would only send the
  // worker after whatever is due next at once, grace or not.
  CancelWake();
  if (FrontDue()) {
    // A later task is due, which nobody was woken for while this thread
    // ran the earlier ones.
    Dispatch();
  } else if (stopping_ && entries_.empty()) {
    WakeWorker();
  }
}

void OrderedWorker::Queue::Stop() {
  std::lock_guard<std::mutex> lock(mu_);
  stopping_ = true;
  WakeWorker();
}

void OrderedWorker::Queue::Serve() {
  std::unique_lock<std::mutex> lock(mu_);
  // Whether this thread was sent for: a wake-up another thread took back
  // (a waiter ran the task) must not make it run a task left to a waiter.
  // Until woken, nothing is this thread's: a task released before it
  // started was either sent for, so the descriptor is ready, or left to a
  // waiter.
  bool sent_for = false;
  while (true) {
    if (sent_for && FrontDue()) {
      // Nobody came for this task in time (or nobody was expected).
      waited_recently_ = false;
      RunFront(lock);
      // Tasks released meanwhile were left to whoever finished this one:
      // this thread goes on with them only if nobody else is to.
      sent_for = !FrontDue() || ChooseRunner() == Runner::kWorkerNow;
      if (!sent_for) Dispatch();
      continue;
    }
    if (stopping_ && entries_.empty() && !running_) return;
    lock.unlock();
    pollfd fds[2] = {{wake_fd_, POLLIN, 0}, {timer_fd_, POLLIN, 0}};
    // EINTR only means a look at the queue.
    poll(fds, 2, -1);
    lock.lock();
    sent_for = false;
    uint64_t count = 0;
    if (read(wake_fd_, &count, sizeof(count)) > 0) {
      wake_pending_ = false;
      sent_for = true;
    }
    if (read(timer_fd_, &count, sizeof(count)) > 0) {
      timer_armed_ = false;
      sent_for = true;
    }
  }
}

void OrderedWorker::Queue::WakeWorker() {
  if (wake_pending_) return;
  const uint64_t one = 1;
  // Cannot fail short of a closed descriptor: the counter saturates only
  // after 2^64 - 2 wake-ups nobody read.
  [[maybe_unused]] const ssize_t written = write(wake_fd_, &one, sizeof(one));
  wake_pending_ = true;
}

void OrderedWorker::Queue::WakeWorkerAfterGrace() {
  // Armed once for all the tasks released within one grace, and never
  // disarmed: on a virtual machine each change of a timer due within the
  // scheduler tick costs microseconds, more than a collective of a few
  // bytes, while one spare wake-up per grace costs nothing noticeable.
  if (timer_armed_) return;
  if (!SetTimer(timer_fd_, options_.grace)) {
    WakeWorker();  // No timer to fall back on: no grace either.
    return;
  }
  timer_armed_ = true;
}

void OrderedWorker::Queue::CancelWake() {
  if (!wake_pending_) return;
  uint64_t count = 0;
  [[maybe_unused]] const ssize_t got = read(wake_fd_, &count, sizeof(count));
  wake_pending_ = false;
}

}  // namespace pjrtx::collectives
