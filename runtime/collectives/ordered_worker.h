// A thread that runs one rank's collectives one at a time, in issue order.
#ifndef PJRTX_RUNTIME_COLLECTIVES_ORDERED_WORKER_H_
#define PJRTX_RUNTIME_COLLECTIVES_ORDERED_WORKER_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>

#include "absl/functional/any_invocable.h"

namespace pjrtx::collectives {

// Collectives block in their transport until every rank arrives, so each
// rank gets a thread of its own rather than a device queue's pool thread
// (pools are small, and ranks blocking there would starve each other).
// Tasks run in the order they were added, each only once it was released:
// a later task whose inputs are ready never overtakes an earlier one,
// because every rank must run the same operations in the same order.
// Thread-safe.
class OrderedWorker {
 public:
  using Task = absl::AnyInvocable<void() &&>;

  OrderedWorker();
  // Runs every task added so far, waiting for their release, then stops.
  ~OrderedWorker();

  OrderedWorker(const OrderedWorker&) = delete;
  OrderedWorker& operator=(const OrderedWorker&) = delete;

  // Adds `task` behind the earlier ones; it runs once Release(ticket) is
  // called with the returned ticket.
  uint64_t Add(Task task);

  // Lets the task of `ticket` run when its turn comes. Safe to call from an
  // Event continuation: it only takes a lock briefly.
  void Release(uint64_t ticket);

 private:
  struct Entry {
    uint64_t ticket = 0;
    bool released = false;
    Task task;
  };

  void Loop();

  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<Entry> queue_;   // Guarded by mu_.
  uint64_t next_ticket_ = 0;  // Guarded by mu_.
  bool stopping_ = false;     // Guarded by mu_.
  std::thread thread_;        // Started last, once the members exist.
};

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_ORDERED_WORKER_H_
