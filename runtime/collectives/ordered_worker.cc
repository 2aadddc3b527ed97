#include "runtime/collectives/ordered_worker.h"

#include <utility>

namespace pjrtx::collectives {

OrderedWorker::OrderedWorker() : thread_([this] { Loop(); }) {}

OrderedWorker::~OrderedWorker() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

uint64_t OrderedWorker::Add(Task task) {
  std::lock_guard<std::mutex> lock(mu_);
  const uint64_t ticket = next_ticket_++;
  queue_.push_back(Entry{ticket, false, std::move(task)});
  return ticket;
}

void OrderedWorker::Release(uint64_t ticket) {
  std::lock_guard<std::mutex> lock(mu_);
  for (Entry& entry : queue_) {
    if (entry.ticket == ticket) entry.released = true;
  }
  // Notified under the lock: once the caller lets go of it the worker (and
  // its owner) may be destroyed, so nothing of it is touched afterwards.
  changed_.notify_all();
}

void OrderedWorker::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    changed_.wait(lock, [this] {
      return (!queue_.empty() && queue_.front().released) ||
             (stopping_ && queue_.empty());
    });
    if (queue_.empty()) return;  // Stopping, and everything ran.
    Task task = std::move(queue_.front().task);
    queue_.pop_front();
    lock.unlock();
    std::move(task)();
    lock.lock();
  }
}

}  // namespace pjrtx::collectives
