#include "runtime/collectives/ordered_worker.h"

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pjrtx::collectives {
namespace {

using std::chrono::milliseconds;
using ::testing::ElementsAre;

// Long enough that a deferred task never reaches the worker in a test.
constexpr std::chrono::microseconds kForever = std::chrono::hours(1);

std::unique_ptr<OrderedWorker> MakeWorker(
    bool defer_to_waiters = false,
    std::chrono::microseconds grace = std::chrono::microseconds(100)) {
  OrderedWorker::Options options;
  options.defer_to_waiters = defer_to_waiters;
  options.grace = grace;
  absl::StatusOr<std::unique_ptr<OrderedWorker>> worker =
      OrderedWorker::Create(options);
  EXPECT_TRUE(worker.ok()) << worker.status();
  return *std::move(worker);
}

// Records which thread ran each task, in the order they ran.
class Recorder {
 public:
  OrderedWorker::Task Task(int id) {
    return [this, id] {
      std::lock_guard<std::mutex> lock(mu_);
      ids_.push_back(id);
      threads_.push_back(std::this_thread::get_id());
    };
  }
  std::vector<int> ids() {
    std::lock_guard<std::mutex> lock(mu_);
    return ids_;
  }
  std::thread::id thread(int position) {
    std::lock_guard<std::mutex> lock(mu_);
    return threads_.at(position);
  }
  size_t count() {
    std::lock_guard<std::mutex> lock(mu_);
    return ids_.size();
  }

 private:
  std::mutex mu_;
  std::vector<int> ids_;
  std::vector<std::thread::id> threads_;
};

// Runs first tasks with a waiter until one ran on the waiting thread,
// which tells a deferring worker that its callers wait (the worker, woken
// at once for a first task, may take one before the waiter comes).
void PrimeWithWaiter(OrderedWorker& worker) {
  for (int attempt = 0; attempt < 1000; ++attempt) {
    // Shared: the task may still be inside set_value when the wait returns.
    auto ran_on = std::make_shared<std::promise<std::thread::id>>();
    std::future<std::thread::id> ran = ran_on->get_future();
    const uint64_t ticket =
        worker.Add([ran_on] { ran_on->set_value(std::this_thread::get_id()); });
    worker.Release(ticket);
    worker.InlineRunner(ticket)();
    if (ran.get() == std::this_thread::get_id()) return;
  }
  ADD_FAILURE() << "the worker took every first task before its waiter";
}

TEST(OrderedWorkerTest, RunsInAddOrderWhateverTheReleaseOrder) {
  Recorder recorder;
  {
    std::unique_ptr<OrderedWorker> worker = MakeWorker();
    std::vector<uint64_t> tickets;
    for (int i = 0; i < 3; ++i)
      tickets.push_back(worker->Add(recorder.Task(i)));
    // The last task is released first but must wait for the others.
    worker->Release(tickets[2]);
    std::this_thread::sleep_for(milliseconds(20));
    EXPECT_EQ(recorder.count(), 0u);
    worker->Release(tickets[1]);
    worker->Release(tickets[0]);
  }  // The destructor runs everything added.
  EXPECT_THAT(recorder.ids(), ElementsAre(0, 1, 2));
}

TEST(OrderedWorkerTest, DestructorWaitsForLateRelease) {
  std::atomic<bool> ran{false};
  std::thread releaser;
  {
    std::unique_ptr<OrderedWorker> worker = MakeWorker();
    const uint64_t ticket = worker->Add([&] { ran = true; });
    releaser = std::thread([&worker, ticket] {
      std::this_thread::sleep_for(milliseconds(50));
      worker->Release(ticket);
    });
  }
  EXPECT_TRUE(ran);
  releaser.join();
}

TEST(OrderedWorkerTest, WaiterRunsItsTaskOnItsOwnThread) {
  std::unique_ptr<OrderedWorker> worker = MakeWorker(true, kForever);
  PrimeWithWaiter(*worker);
  Recorder recorder;
  const uint64_t ticket = worker->Add(recorder.Task(1));
  worker->Release(ticket);
  worker->InlineRunner(ticket)();
  ASSERT_EQ(recorder.count(), 1u);
  EXPECT_EQ(recorder.thread(0), std::this_thread::get_id());
}

TEST(OrderedWorkerTest, WaiterRunsItsTaskOnceReleased) {
  std::unique_ptr<OrderedWorker> worker = MakeWorker(true, kForever);
  PrimeWithWaiter(*worker);
  Recorder recorder;
  const uint64_t ticket = worker->Add(recorder.Task(1));
  // The waiter comes before the release (almost always: had it not by
  // then, the deferred task would still be left to it).
  std::thread waiter([&worker, ticket] { worker->InlineRunner(ticket)(); });
  const std::thread::id waiter_id = waiter.get_id();
  std::this_thread::sleep_for(milliseconds(20));
  worker->Release(ticket);
  waiter.join();
  ASSERT_EQ(recorder.count(), 1u);
  EXPECT_EQ(recorder.thread(0), waiter_id);
}

TEST(OrderedWorkerTest, WaiterRunsEarlierTasksInOrderButNoLaterOne) {
  Recorder recorder;
  std::thread::id worker_thread;
  {
    std::unique_ptr<OrderedWorker> worker = MakeWorker(true, kForever);
    PrimeWithWaiter(*worker);
    std::vector<uint64_t> tickets;
    for (int i = 0; i < 3; ++i)
      tickets.push_back(worker->Add(recorder.Task(i)));
    for (uint64_t ticket : tickets) worker->Release(ticket);
    worker->InlineRunner(tickets[1])();
    EXPECT_THAT(recorder.ids(), ElementsAre(0, 1));
    EXPECT_EQ(recorder.thread(0), std::this_thread::get_id());
    EXPECT_EQ(recorder.thread(1), std::this_thread::get_id());
  }  // Stopping, the worker runs the last task at once.
  EXPECT_THAT(recorder.ids(), ElementsAre(0, 1, 2));
  EXPECT_NE(recorder.thread(2), std::this_thread::get_id());
}

TEST(OrderedWorkerTest, WorkerRunsADeferredTaskNobodyWaitsForAfterTheGrace) {
  const milliseconds grace(30);
  std::unique_ptr<OrderedWorker> worker = MakeWorker(true, grace);
  PrimeWithWaiter(*worker);
  auto ran_on = std::make_shared<std::promise<std::thread::id>>();
  std::future<std::thread::id> ran = ran_on->get_future();
  const auto start = std::chrono::steady_clock::now();
  worker->Release(
      worker->Add([ran_on] { ran_on->set_value(std::this_thread::get_id()); }));
  ASSERT_EQ(ran.wait_for(std::chrono::seconds(30)), std::future_status::ready);
  EXPECT_GE(std::chrono::steady_clock::now() - start, grace);
  EXPECT_NE(ran.get(), std::this_thread::get_id());
}

TEST(OrderedWorkerTest, WithoutDeferralTheWorkerStartsATaskAtOnce) {
  // A grace of an hour would show if the worker waited it out.
  std::unique_ptr<OrderedWorker> worker = MakeWorker(false, kForever);
  PrimeWithWaiter(*worker);
  auto ran = std::make_shared<std::promise<void>>();
  std::future<void> done = ran->get_future();
  worker->Release(worker->Add([ran] { ran->set_value(); }));
  EXPECT_EQ(done.wait_for(std::chrono::seconds(30)), std::future_status::ready);
}

TEST(OrderedWorkerTest, WaiterOfATaskTakenByTheWorkerReturns) {
  // Declared before the worker, which runs the task until it is joined.
  std::promise<void> started;
  std::promise<void> finish;
  std::future<void> finished = finish.get_future();
  std::unique_ptr<OrderedWorker> worker = MakeWorker();
  const uint64_t ticket = worker->Add([&] {
    started.set_value();
    finished.wait();
  });
  worker->Release(ticket);
  started.get_future().wait();
  // The worker holds the task: the runner has nothing to run.
  worker->InlineRunner(ticket)();
  finish.set_value();
}

TEST(OrderedWorkerTest, RunnerOutlivingTheWorkerDoesNothing) {
  Recorder recorder;
  absl::AnyInvocable<void() &&> runner;
  {
    std::unique_ptr<OrderedWorker> worker = MakeWorker(true);
    const uint64_t ticket = worker->Add(recorder.Task(1));
    runner = worker->InlineRunner(ticket);
    worker->Release(ticket);
  }
  ASSERT_EQ(recorder.count(), 1u);
  std::move(runner)();
  EXPECT_EQ(recorder.count(), 1u);
}

TEST(OrderedWorkerTest, GraceMustBePositive) {
  OrderedWorker::Options options;
  options.defer_to_waiters = true;
  options.grace = std::chrono::microseconds(0);
  absl::StatusOr<std::unique_ptr<OrderedWorker>> worker =
      OrderedWorker::Create(options);
  ASSERT_FALSE(worker.ok());
  EXPECT_EQ(worker.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(worker.status().message(), ::testing::HasSubstr("got 0 us"));
}

TEST(OrderedWorkerTest, StoppingWhileAWaiterRunsATaskRunsTheRestToo) {
  Recorder recorder;
  std::promise<void> started;
  std::promise<void> finish;
  std::shared_future<void> finished = finish.get_future().share();
  std::unique_ptr<OrderedWorker> worker = MakeWorker(true, kForever);
  PrimeWithWaiter(*worker);
  const uint64_t first = worker->Add([&] {
    started.set_value();
    finished.wait();
    recorder.Task(1)();
  });
  const uint64_t second = worker->Add(recorder.Task(2));
  worker->Release(first);
  worker->Release(second);
  std::thread waiter([&worker, first] { worker->InlineRunner(first)(); });
  const std::thread::id waiter_id = waiter.get_id();
  started.get_future().wait();
  // Destroying the worker waits for both tasks; the second is due only
  // once the waiter's ends, and left to nobody but the stopping worker.
  std::thread destroyer([&worker] { worker.reset(); });
  std::this_thread::sleep_for(milliseconds(20));
  finish.set_value();
  waiter.join();
  destroyer.join();
  EXPECT_THAT(recorder.ids(), ElementsAre(1, 2));
  EXPECT_EQ(recorder.thread(0), waiter_id);
  EXPECT_NE(recorder.thread(1), waiter_id);
}

TEST(OrderedWorkerTest, SeveralWaitersRunTheirTasksInOrder) {
  Recorder recorder;
  std::unique_ptr<OrderedWorker> worker = MakeWorker(true, kForever);
  std::vector<uint64_t> tickets;
  for (int i = 0; i < 4; ++i) tickets.push_back(worker->Add(recorder.Task(i)));
  std::vector<std::thread> waiters;
  for (int i = 3; i >= 0; --i) {
    waiters.emplace_back(
        [&worker, ticket = tickets[i]] { worker->InlineRunner(ticket)(); });
  }
  std::this_thread::sleep_for(milliseconds(20));
  for (int i = 3; i >= 0; --i) worker->Release(tickets[i]);
  for (std::thread& waiter : waiters) waiter.join();
  // Every waiter returned, so every task was taken; in order, and never
  // two at once (the Recorder's lock would not show that, the order does).
  worker.reset();
  EXPECT_THAT(recorder.ids(), ElementsAre(0, 1, 2, 3));
}

}  // namespace
}  // namespace pjrtx::collectives
