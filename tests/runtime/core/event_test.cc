#include "runtime/core/base/event.h"

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace pjrtx {
namespace {

TEST(EventTest, ContinuationRunsOnceWhenSet) {
  EventRef event = Event::Create();
  int calls = 0;
  absl::Status seen;
  event->AndThen([&](const absl::Status& s) {
    ++calls;
    seen = s;
  });
  EXPECT_FALSE(event->IsReady());
  EXPECT_EQ(calls, 0);
  EXPECT_TRUE(event->Set(absl::InternalError("boom")));
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(seen.code(), absl::StatusCode::kInternal);
  EXPECT_FALSE(event->Set(absl::OkStatus()));
  EXPECT_EQ(event->status().code(), absl::StatusCode::kInternal);
  EXPECT_EQ(calls, 1);
}

TEST(EventTest, ContinuationOnReadyEventRunsInline) {
  EventRef event = Event::MakeReady();
  bool ran = false;
  event->AndThen([&](const absl::Status& s) { ran = s.ok(); });
  EXPECT_TRUE(ran);
}

TEST(EventTest, AwaitReturnsStatusSetByAnotherThread) {
  EventRef event = Event::Create();
  std::thread setter([&] { event->Set(absl::CancelledError("stop")); });
  EXPECT_EQ(event->Await().code(), absl::StatusCode::kCancelled);
  setter.join();
}

TEST(EventTest, AfterAllWaitsForEveryInputAndKeepsFirstErrorByPosition) {
  std::vector<EventRef> inputs = {Event::Create(), Event::Create(),
                                  Event::Create()};
  EventRef all = AfterAll(inputs);
  inputs[2]->Set(absl::InternalError("third"));
  inputs[1]->Set(absl::AbortedError("second"));
  EXPECT_FALSE(all->IsReady());
  inputs[0]->Set(absl::OkStatus());
  ASSERT_TRUE(all->IsReady());
  EXPECT_EQ(all->status().code(), absl::StatusCode::kAborted);
}

TEST(EventTest, AfterAllOfNothingIsReady) {
  EXPECT_TRUE(AfterAll({})->IsReady());
}

TEST(EventTest, ConcurrentRegistrationAndSetRunEveryContinuationOnce) {
  constexpr int kEvents = 200;
  constexpr int kPerEvent = 8;
  std::atomic<int> calls{0};
  std::vector<EventRef> events;
  for (int i = 0; i < kEvents; ++i) events.push_back(Event::Create());
  std::thread setter([&] {
    for (EventRef& e : events) e->Set(absl::OkStatus());
  });
  for (EventRef& e : events) {
    for (int j = 0; j < kPerEvent; ++j) {
      e->AndThen([&](const absl::Status&) { calls.fetch_add(1); });
    }
  }
  setter.join();
  EXPECT_EQ(calls.load(), kEvents * kPerEvent);
}

TEST(EventTest, AwaitHelpingRunsTheHelperOnceOnTheWaitingThread) {
  EventRef event = Event::Create();
  int runs = 0;
  std::thread::id ran_on;
  event->SetAwaitHelper([&] {
    ++runs;
    ran_on = std::this_thread::get_id();
    event->Set(absl::DataLossError("set by the helper"));
  });
  EXPECT_EQ(event->AwaitHelping().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(event->AwaitHelping().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(ran_on, std::this_thread::get_id());
}

TEST(EventTest, AwaitHelpingSleepsWhenTheHelperLeavesTheEventPending) {
  EventRef event = Event::Create();
  std::atomic<int> runs{0};
  std::promise<void> helped;
  // The setter waits for the helper, so the event cannot be ready before
  // AwaitHelping looks at it.
  std::thread setter([event, future = helped.get_future()]() mutable {
    future.wait();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    event->Set(absl::OkStatus());
  });
  event->SetAwaitHelper([&] {
    runs.fetch_add(1);
    helped.set_value();
  });
  EXPECT_TRUE(event->AwaitHelping().ok());
  setter.join();
  EXPECT_EQ(runs.load(), 1);
}

TEST(EventTest, PlainAwaitNeverRunsTheHelper) {
  // Runtime threads await with Await: the helper may need them.
  EventRef event = Event::Create();
  std::atomic<bool> ran{false};
  event->SetAwaitHelper([&] { ran = true; });
  std::thread setter([event] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    event->Set(absl::OkStatus());
  });
  EXPECT_TRUE(event->Await().ok());
  setter.join();
  EXPECT_FALSE(ran.load());
}

TEST(EventTest, SetDropsAnUnrunHelperAndAReadyEventTakesNone) {
  auto owned = std::make_shared<int>(0);
  std::weak_ptr<int> watch = owned;
  EventRef event = Event::Create();
  bool ran = false;
  event->SetAwaitHelper([&ran, owned = std::move(owned)] { ran = true; });
  event->Set(absl::OkStatus());
  EXPECT_TRUE(watch.expired());  // Whatever the helper held is let go.
  event->SetAwaitHelper([&ran] { ran = true; });
  EXPECT_TRUE(event->AwaitHelping().ok());
  EXPECT_FALSE(ran);
}

}  // namespace
}  // namespace pjrtx
