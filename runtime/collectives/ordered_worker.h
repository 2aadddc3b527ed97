// A thread that runs one rank's collectives one at a time, in issue order,
// unless the thread waiting for one runs it.
#ifndef PJRTX_RUNTIME_COLLECTIVES_ORDERED_WORKER_H_
#define PJRTX_RUNTIME_COLLECTIVES_ORDERED_WORKER_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "absl/functional/any_invocable.h"
#include "absl/status/statusor.h"

namespace pjrtx::collectives {

// Collectives block in their transport until every rank arrives, so each
// rank gets a thread of its own rather than a device queue's pool thread
// (pools are small, and ranks blocking there would starve each other).
// Tasks run in the order they were added, each only once it was released:
// a later task whose inputs are ready never overtakes an earlier one,
// because every rank must run the same operations in the same order.
//
// A thread that waits for a task's result may run the task itself
// (InlineRunner). Otherwise it would sleep while the worker wakes up to run
// the task and then wakes it in turn: two hand-offs that, on a machine whose
// cores are all busy, each wait for a core, and a woken worker even pushes
// the releasing thread off its own core. So the worker is woken only where
// no waiting thread will run the task: a waiting thread gets the task as
// soon as it is released, and with `Options::defer_to_waiters` a task
// released after a waiter came for the rank's previous task before it
// started (a caller that issues and then waits) is left to a waiter for up
// to `grace` before the worker takes it. A kernel timer armed at most once
// per grace provides that fallback, so a stream of collectives run by
// their callers costs no wake-up per collective. Either way tasks run one
// at a time and in order. Thread-safe.
class OrderedWorker {
 public:
  using Task = absl::AnyInvocable<void() &&>;

  struct Options {
    // Worth it where one thread would run the tasks of several ranks
    // otherwise: with one local rank. With several, a thread waiting for
    // one rank's task is not there to run the others', which would each
    // wait out the grace.
    bool defer_to_waiters = false;
    // How long a task may wait for its waiter before the worker runs it: a
    // caller that issues and then waits comes back well within it. It is
    // also the delay a caller sees once when it stops waiting for each
    // collective as it issues it.
    std::chrono::microseconds grace = std::chrono::microseconds(1000);
  };

  // INVALID_ARGUMENT for a grace that is not positive; INTERNAL if the
  // descriptors the worker sleeps on cannot be created.
  static absl::StatusOr<std::unique_ptr<OrderedWorker>> Create(
      const Options& options);

  // Runs every task added so far, waiting for their release, then stops.
  ~OrderedWorker();

  OrderedWorker(const OrderedWorker&) = delete;
  OrderedWorker& operator=(const OrderedWorker&) = delete;

  // Adds `task` behind the earlier ones; it runs once Release(ticket) is
  // called with the returned ticket.
  uint64_t Add(Task task);

  // Lets the task of `ticket` run when its turn comes. Safe to call from an
  // Event continuation: it never blocks for long.
  void Release(uint64_t ticket);

  // A callable for a thread about to wait for the task of `ticket`: on the
  // calling thread it runs, in order, every task up to and including that
  // one, each as soon as it is released and due, and returns once that task
  // has run or another thread took it. Safe to call at any time from any
  // thread other than a task's, even after the worker is gone (then it does
  // nothing).
  absl::AnyInvocable<void() &&> InlineRunner(uint64_t ticket);

 private:
  struct Entry {
    uint64_t ticket = 0;
    bool released = false;
    Task task;
  };

  // Shared with InlineRunner callables, which may outlive the worker.
  class Queue {
   public:
    Queue(const Options& options, int wake_fd, int timer_fd);
    ~Queue();  // Closes the descriptors.

    uint64_t Add(Task task);
    void Release(uint64_t ticket);
    void RunThrough(uint64_t ticket);
    void Stop();
    // The worker thread's loop.
    void Serve();

   private:
    // Whether the front task may start now. Requires mu_.
    bool FrontDue() const;
    // Takes the front task and runs it on this thread. Requires mu_, which
    // it releases while the task runs.
    void RunFront(std::unique_lock<std::mutex>& lock);
    // Who is to run the due front task: a thread waiting in RunThrough for
    // it or a later one, else the worker, now or after the grace (for a
    // waiter who is likely to come). Requires mu_.
    enum class Runner { kWaiter, kWorkerAfterGrace, kWorkerNow };
    Runner ChooseRunner() const;
    // Gets the due front task run by that runner. Requires mu_.
    void Dispatch();
    // Wakes the worker thread now, or after the grace; takes back a
    // wake-up now. Require mu_.
    void WakeWorker();
    void WakeWorkerAfterGrace();
    void CancelWake();

    const Options options_;
    const int wake_fd_;   // eventfd: a wake-up now.
    const int timer_fd_;  // timerfd: a wake-up after the grace.
    std::mutex mu_;
    std::deque<Entry> entries_;  // Guarded by mu_.
    uint64_t next_ticket_ = 0;   // Guarded by mu_.
    bool running_ = false;       // A task is running. Guarded by mu_.
    bool stopping_ = false;      // Guarded by mu_.
    bool wake_pending_ = false;  // Guarded by mu_.
    bool timer_armed_ = false;   // Guarded by mu_.
    // Whether a thread waited for the last task the worker did not run
    // (the grace is worth waiting only for callers that wait). Guarded by
    // mu_.
    bool waited_recently_ = false;
    // Tickets of the threads in RunThrough waiting for a task to become
    // due, and how they are woken. Guarded by mu_.
    std::multiset<uint64_t> waiting_;
    std::condition_variable waiting_changed_;
  };

  explicit OrderedWorker(std::shared_ptr<Queue> queue);

  std::shared_ptr<Queue> queue_;
  std::thread thread_;  // Started last, once the members exist.
};

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_ORDERED_WORKER_H_
