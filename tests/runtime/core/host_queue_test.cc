#include "runtime/core/base/host_queue.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace pjrtx {
namespace {

TEST(HostQueueTest, RunsTasksInEnqueueOrder) {
  ThreadPool pool(4);
  HostQueue queue(&pool);
  std::mutex mu;
  std::vector<int> order;
  std::vector<EventRef> done;
  for (int i = 0; i < 100; ++i) {
    done.push_back(queue.Enqueue({}, [&, i] {
      std::lock_guard<std::mutex> lock(mu);
      order.push_back(i);
      return absl::OkStatus();
    }));
  }
  done.back()->Await().IgnoreError();
  queue.WaitIdle();
  ASSERT_EQ(order.size(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(order[i], i);
}

TEST(HostQueueTest, WaitsForEventsWithoutHoldingAThread) {
  // One thread, two queues: the first queue's task waits on an event that a
  // task of the second queue sets. With a blocking wait this would deadlock.
  ThreadPool pool(1);
  HostQueue first(&pool);
  HostQueue second(&pool);
  EventRef gate = Event::Create();
  std::atomic<bool> ran{false};
  EventRef waiting = first.Enqueue({gate}, [&] {
    ran = true;
    return absl::OkStatus();
  });
  EventRef opener = second.Enqueue({}, [&] {
    gate->Set(absl::OkStatus());
    return absl::OkStatus();
  });
  EXPECT_TRUE(opener->Await().ok());
  EXPECT_TRUE(waiting->Await().ok());
  EXPECT_TRUE(ran);
}

TEST(HostQueueTest, LaterTasksWaitForBlockedHead) {
  ThreadPool pool(2);
  HostQueue queue(&pool);
  EventRef gate = Event::Create();
  EventRef head = queue.Enqueue({gate}, [] { return absl::OkStatus(); });
  EventRef next = queue.Enqueue({}, [] { return absl::OkStatus(); });
  EXPECT_FALSE(next->IsReady());
  gate->Set(absl::OkStatus());
  EXPECT_TRUE(next->Await().ok());
  EXPECT_TRUE(head->IsReady());
}

TEST(HostQueueTest, FailedDependencySkipsTaskAndPropagatesError) {
  ThreadPool pool(2);
  HostQueue queue(&pool);
  EventRef failed = Event::MakeReady(absl::DataLossError("lost"));
  bool ran = false;
  EventRef done = queue.Enqueue({failed}, [&] {
    ran = true;
    return absl::OkStatus();
  });
  absl::Status status = done->Await();
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(status.message(), "lost");
  EXPECT_FALSE(ran);
}

TEST(HostQueueTest, TaskErrorReachesItsEvent) {
  ThreadPool pool(1);
  HostQueue queue(&pool);
  EventRef done =
      queue.Enqueue({}, [] { return absl::UnavailableError("device gone"); });
  EXPECT_EQ(done->Await().code(), absl::StatusCode::kUnavailable);
}

TEST(HostQueueTest, WaitIdleWaitsForRunningWork) {
  ThreadPool pool(2);
  HostQueue queue(&pool);
  std::atomic<int> finished{0};
  for (int i = 0; i < 50; ++i) {
    queue.Enqueue({}, [&] {
      finished.fetch_add(1);
      return absl::OkStatus();
    });
  }
  queue.WaitIdle();
  EXPECT_EQ(finished.load(), 50);
}

TEST(HostQueueTest, EnqueueOrRunRunsOnTheCallerWhenNothingIsAhead) {
  ThreadPool pool(2);
  HostQueue queue(&pool);
  std::thread::id ran_on;
  EventRef ready = Event::MakeReady();
  EventRef done = queue.EnqueueOrRun({ready}, [&] {
    ran_on = std::this_thread::get_id();
    return absl::OkStatus();
  });
  // Ran before returning, on this thread.
  EXPECT_TRUE(done->IsReady());
  EXPECT_EQ(ran_on, std::this_thread::get_id());
  // Its error reaches its event as a queued task's would.
  EventRef failed = queue.EnqueueOrRun(
      {}, [] { return absl::InternalError("inline failure"); });
  ASSERT_TRUE(failed->IsReady());
  EXPECT_EQ(failed->status().message(), "inline failure");
}

TEST(HostQueueTest, EnqueueOrRunQueuesBehindEarlierWorkAndPendingEvents) {
  ThreadPool pool(2);
  HostQueue queue(&pool);
  std::mutex mu;
  std::vector<int> order;
  auto record = [&](int i) {
    return [&, i] {
      std::lock_guard<std::mutex> lock(mu);
      order.push_back(i);
      return absl::OkStatus();
    };
  };
  EventRef gate = Event::Create();
  EventRef first = queue.Enqueue({gate}, record(1));
  // The queue is busy: this one must not overtake the first.
  EventRef second = queue.EnqueueOrRun({}, record(2));
  EXPECT_FALSE(second->IsReady());
  // An awaited event not ready: queued, not run here.
  EventRef other_gate = Event::Create();
  EventRef third = queue.EnqueueOrRun({other_gate}, record(3));
  gate->Set(absl::OkStatus());
  ASSERT_TRUE(second->Await().ok());
  EXPECT_FALSE(third->IsReady());
  other_gate->Set(absl::OkStatus());
  ASSERT_TRUE(third->Await().ok());
  queue.WaitIdle();
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
}

TEST(HostQueueTest, TasksEnqueuedWhileAnInlineTaskRunsWaitForIt) {
  ThreadPool pool(2);
  HostQueue queue(&pool);
  std::atomic<bool> inline_done{false};
  std::atomic<bool> later_saw_inline_done{false};
  EventRef later;
  EventRef inline_task = queue.EnqueueOrRun({}, [&] {
    // Enqueued from inside the running task: must run after it.
    later = queue.Enqueue({}, [&] {
      later_saw_inline_done = inline_done.load();
      return absl::OkStatus();
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    inline_done = true;
    return absl::OkStatus();
  });
  EXPECT_TRUE(inline_task->IsReady());
  ASSERT_TRUE(later->Await().ok());
  EXPECT_TRUE(later_saw_inline_done);
  queue.WaitIdle();
}

}  // namespace
}  // namespace pjrtx
