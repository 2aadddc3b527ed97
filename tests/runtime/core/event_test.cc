#include "runtime/core/base/event.h"

#include <atomic>
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

}  // namespace
}  // namespace pjrtx
