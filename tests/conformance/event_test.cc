// Events: readiness, errors, on-ready callbacks and their threading rules.

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "api_helpers.h"
#include "callback_probe.h"
#include "conformance_test.h"
#include "gtest/gtest.h"
#include "pjrtx/pjrtx_c_api.h"

namespace pjrtx::conformance {
namespace {

using std::chrono::milliseconds;

// Long enough for a wrongly early callback or copy to show up.
constexpr milliseconds kSettle(20);

ScopedError EventError(PJRTX_Event* event) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Event_Error_Args);
  args.event = event;
  return ScopedError(Api()->Event_Error(&args));
}

ScopedError Await(PJRTX_Event* event) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Event_Await_Args);
  args.event = event;
  return ScopedError(Api()->Event_Await(&args));
}

class EventTest : public ConformanceTest {
 protected:
  // A fresh event made by Event_Create; fails the test if there is none.
  EventPtr NewEvent() {
    EventPtr event;
    EXPECT_PJRTX_OK(CreateEvent(&event));
    EXPECT_NE(event, nullptr);
    return event;
  }
};

TEST_F(EventTest, CreatedEventIsNotReady) {
  EventPtr event = NewEvent();
  ASSERT_NE(event, nullptr);
  EXPECT_FALSE(IsReady(event.get()));
}

TEST_F(EventTest, CallbackRegisteredBeforeSetRunsOnceOnTheCallbackThread) {
  EventPtr event = NewEvent();
  ASSERT_NE(event, nullptr);
  CallbackProbe probe;
  ASSERT_PJRTX_OK(probe.RegisterOn(event.get()));
  std::this_thread::sleep_for(kSettle);
  EXPECT_EQ(probe.calls(), 0) << "the callback ran before the event was set";

  ASSERT_PJRTX_OK(SetEvent(event.get()));
  ASSERT_TRUE(probe.WaitForCalls(1)) << "the callback never ran";
  EXPECT_NE(probe.thread(), std::this_thread::get_id())
      << "a callback of an event that was not ready must run on the plugin's "
         "callback thread, not inline in Event_Set";
  EXPECT_EQ(probe.code(), PJRTX_Error_Code_OK)
      << "a successful event passes a NULL error";
  std::this_thread::sleep_for(kSettle);
  EXPECT_EQ(probe.calls(), 1) << "the callback ran more than once";
  EXPECT_TRUE(IsReady(event.get()));
  EXPECT_PJRTX_OK(Await(event.get()));
  EXPECT_PJRTX_OK(EventError(event.get()));
}

TEST_F(EventTest, ErrorOfASetEventReachesAwaitErrorAndCallbacks) {
  EventPtr event = NewEvent();
  ASSERT_NE(event, nullptr);
  CallbackProbe before;
  ASSERT_PJRTX_OK(before.RegisterOn(event.get()));
  ASSERT_PJRTX_OK(SetEvent(event.get(), PJRTX_Error_Code_INTERNAL, "boom"));
  ASSERT_TRUE(before.WaitForCalls(1));
  EXPECT_EQ(before.code(), PJRTX_Error_Code_INTERNAL);
  EXPECT_TRUE(ContainsWord(before.message(), "boom")) << before.message();

  EXPECT_TRUE(IsError(Await(event.get()), PJRTX_Error_Code_INTERNAL, {"boom"}));

  // Each Event_Error call returns a new error the caller owns.
  auto first = PJRTX_CONFORMANCE_ARGS(PJRTX_Event_Error_Args);
  first.event = event.get();
  PJRTX_Error* raw_first = api()->Event_Error(&first);
  auto second = PJRTX_CONFORMANCE_ARGS(PJRTX_Event_Error_Args);
  second.event = event.get();
  PJRTX_Error* raw_second = api()->Event_Error(&second);
  const bool same = raw_first != nullptr && raw_first == raw_second;
  ScopedError error_first(raw_first);
  ScopedError error_second(same ? nullptr : raw_second);
  EXPECT_FALSE(same) << "Event_Error returned the same error twice; each "
                        "call must return a new one the caller frees";
  EXPECT_TRUE(IsError(error_first, PJRTX_Error_Code_INTERNAL, {"boom"}));
  EXPECT_TRUE(IsError(error_second, PJRTX_Error_Code_INTERNAL, {"boom"}));

  CallbackProbe after;
  ASSERT_PJRTX_OK(after.RegisterOn(event.get()));
  EXPECT_EQ(after.calls(), 1);
  EXPECT_EQ(after.code(), PJRTX_Error_Code_INTERNAL);
}

TEST_F(EventTest, SetCopiesTheMessage) {
  EventPtr event = NewEvent();
  ASSERT_NE(event, nullptr);
  std::string message = "transient message";
  ASSERT_PJRTX_OK(SetEvent(event.get(), PJRTX_Error_Code_ABORTED, message));
  message.assign(message.size(), 'x');
  EXPECT_TRUE(IsError(Await(event.get()), PJRTX_Error_Code_ABORTED,
                      {"transient message"}));
}

TEST_F(EventTest, ErrorOfAnEventNotReadyIsFailedPrecondition) {
  EventPtr event = NewEvent();
  ASSERT_NE(event, nullptr);
  EXPECT_TRUE(
      IsError(EventError(event.get()), PJRTX_Error_Code_FAILED_PRECONDITION));
}

TEST_F(EventTest, SettingTwiceIsFailedPrecondition) {
  EventPtr event = NewEvent();
  ASSERT_NE(event, nullptr);
  ASSERT_PJRTX_OK(SetEvent(event.get()));
  EXPECT_TRUE(
      IsError(SetEvent(event.get()), PJRTX_Error_Code_FAILED_PRECONDITION));
  EXPECT_TRUE(IsError(SetEvent(event.get(), PJRTX_Error_Code_INTERNAL, "late"),
                      PJRTX_Error_Code_FAILED_PRECONDITION));
  EXPECT_PJRTX_OK(Await(event.get())) << "a second Set changed the outcome";
}

TEST_F(EventTest, CallbackOnAReadyEventRunsInlineBeforeOnReadyReturns) {
  EventPtr event = NewEvent();
  ASSERT_NE(event, nullptr);
  ASSERT_PJRTX_OK(SetEvent(event.get()));
  CallbackProbe probe;
  ASSERT_PJRTX_OK(probe.RegisterOn(event.get()));
  EXPECT_EQ(probe.calls(), 1)
      << "the callback had not run when OnReady returned";
  EXPECT_EQ(probe.thread(), std::this_thread::get_id());
}

// Arguments of a callback that destroys its own event.
struct DestroyingCallback {
  PJRTX_Event* event;
  CallbackProbe probe;

  static void Run(PJRTX_Error* error, void* user_arg) {
    ScopedError owned(error);
    auto* self = static_cast<DestroyingCallback*>(user_arg);
    auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Event_Destroy_Args);
    args.event = self->event;
    ScopedError destroyed(Api()->Event_Destroy(&args));
    self->probe.Record(destroyed.code(), destroyed.message());
  }
};

ScopedError RegisterDestroyingCallback(DestroyingCallback* callback) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Event_OnReady_Args);
  args.event = callback->event;
  args.callback = &DestroyingCallback::Run;
  args.user_arg = callback;
  return ScopedError(Api()->Event_OnReady(&args));
}

TEST_F(EventTest, CallbackMayDestroyItsEvent) {
  EventPtr event = NewEvent();
  ASSERT_NE(event, nullptr);
  auto callback = std::make_unique<DestroyingCallback>();
  callback->event = event.get();
  ASSERT_PJRTX_OK(RegisterDestroyingCallback(callback.get()));
  // From here on the callback owns the event.
  PJRTX_Event* raw = event.release();
  ASSERT_PJRTX_OK(SetEvent(raw));
  if (!callback->probe.WaitForCalls(1)) {
    static_cast<void>(callback.release());  // It may still run.
    FAIL() << "the callback never ran";
  }
  EXPECT_EQ(callback->probe.code(), PJRTX_Error_Code_OK)
      << "Event_Destroy inside the callback: " << callback->probe.message();
}

TEST_F(EventTest, InlineCallbackMayDestroyItsEvent) {
  EventPtr event = NewEvent();
  ASSERT_NE(event, nullptr);
  ASSERT_PJRTX_OK(SetEvent(event.get()));
  DestroyingCallback callback;
  callback.event = event.release();
  ASSERT_PJRTX_OK(RegisterDestroyingCallback(&callback));
  EXPECT_EQ(callback.probe.calls(), 1);
  EXPECT_EQ(callback.probe.code(), PJRTX_Error_Code_OK)
      << "Event_Destroy inside the callback: " << callback.probe.message();
}

// Arguments of a callback that awaits another event, then records.
struct AwaitingCallback {
  PJRTX_Event* other;
  CallbackProbe probe;

  static void Run(PJRTX_Error* error, void* user_arg) {
    ScopedError owned(error);
    auto* self = static_cast<AwaitingCallback*>(user_arg);
    ScopedError awaited = Await(self->other);
    self->probe.Record(awaited.code(), awaited.message());
  }
};

// Registers an AwaitingCallback on `first` that awaits `awaited`, sets
// `first`, and 50 ms later sets `gate` (on which `awaited` depends) from
// another thread. A plugin that runs the callback where `awaited` needs to
// make progress deadlocks here; the test then fails within the deadline and
// leaks what the stuck threads may still use.
void ExpectAwaitInCallbackCompletes(EventPtr first, PJRTX_Event* awaited,
                                    EventPtr gate) {
  auto callback = std::make_unique<AwaitingCallback>();
  callback->other = awaited;
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Event_OnReady_Args);
  args.event = first.get();
  args.callback = &AwaitingCallback::Run;
  args.user_arg = callback.get();
  ASSERT_PJRTX_OK(Api()->Event_OnReady(&args));

  auto set_failures = std::make_shared<std::atomic<int>>(0);
  BackgroundTask setter([first = first.get(), gate = gate.get(), set_failures] {
    if (!SetEvent(first).ok()) ++*set_failures;
    std::this_thread::sleep_for(milliseconds(50));
    if (!SetEvent(gate).ok()) ++*set_failures;
  });
  const bool ran = callback->probe.WaitForCalls(1);
  // One deadline for the whole step: a setter stuck with the callback
  // is given no second one.
  if (!setter.Finish(ran ? kDeadline : milliseconds(0)) || !ran) {
    static_cast<void>(callback.release());
    static_cast<void>(first.release());
    static_cast<void>(gate.release());
    FAIL() << "an on-ready callback awaiting another event deadlocked";
  }
  EXPECT_EQ(*set_failures, 0) << "Event_Set failed";
  EXPECT_EQ(callback->probe.code(), PJRTX_Error_Code_OK)
      << callback->probe.message();
}

TEST_F(EventTest, CallbackMayAwaitAnotherEvent) {
  EventPtr first = NewEvent();
  EventPtr second = NewEvent();
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  PJRTX_Event* awaited = second.get();
  ExpectAwaitInCallbackCompletes(std::move(first), awaited, std::move(second));
}

TEST_F(EventTest, ManyEventsSetFromAnotherThreadCallBackExactlyOnce) {
  constexpr int kEvents = 1000;
  struct Counter {
    std::atomic<int> calls{0};
  };
  struct Shared {
    std::vector<Counter> counters{kEvents};
    CallbackProbe all;  // Records once per callback; waited on for the total.
  };
  struct Arg {
    Shared* shared;
    int index;
  };
  auto shared = std::make_unique<Shared>();
  std::vector<Arg> args(kEvents);
  std::vector<EventPtr> events(kEvents);
  for (int i = 0; i < kEvents; ++i) {
    ASSERT_PJRTX_OK(CreateEvent(&events[i]));
    args[i] = {shared.get(), i};
  }
  std::vector<PJRTX_Event*> raw;
  for (const EventPtr& event : events) raw.push_back(event.get());

  auto set_failures = std::make_shared<std::atomic<int>>(0);
  // Registration races with Set on purpose: each callback runs exactly
  // once whether it is registered before or after its event is set.
  BackgroundTask setter([raw, set_failures] {
    for (PJRTX_Event* event : raw) {
      if (!SetEvent(event).ok()) ++*set_failures;
    }
  });
  int register_failures = 0;
  for (int i = 0; i < kEvents; ++i) {
    auto on_ready = PJRTX_CONFORMANCE_ARGS(PJRTX_Event_OnReady_Args);
    on_ready.event = raw[i];
    on_ready.callback = [](PJRTX_Error* error, void* user_arg) {
      ScopedError owned(error);
      auto* arg = static_cast<Arg*>(user_arg);
      ++arg->shared->counters[arg->index].calls;
      arg->shared->all.Record(owned.code(), "");
    };
    on_ready.user_arg = &args[i];
    if (!ScopedError(api()->Event_OnReady(&on_ready)).ok()) ++register_failures;
  }
  const bool finished = setter.Finish();
  const bool all_ran =
      finished && shared->all.WaitForCalls(kEvents - register_failures);
  if (!finished || !all_ran) {
    // Late callbacks may still use these.
    const int calls = shared->all.calls();
    static_cast<void>(shared.release());
    for (EventPtr& event : events) static_cast<void>(event.release());
    static_cast<void>(new std::vector<Arg>(std::move(args)));
    FAIL() << "only " << calls << " of " << kEvents << " callbacks ran in time";
  }
  EXPECT_EQ(register_failures, 0);
  EXPECT_EQ(*set_failures, 0);
  std::this_thread::sleep_for(kSettle);
  int wrong = 0;
  for (const Counter& counter : shared->counters) {
    if (counter.calls != 1) ++wrong;
  }
  EXPECT_EQ(wrong, 0) << "callbacks that did not run exactly once";
}

// Event tests that need a buffer.
class EventClientTest : public ClientTest {};

TEST_F(EventClientTest, CallbackMayAwaitABufferTransfer) {
  const std::vector<uint8_t> host = PatternBytes(4096);
  BufferPtr buffer;
  ASSERT_PJRTX_OK(
      BufferFromHost(client(),
                     DenseSpec(host.data(), PJRTX_Buffer_Type_U8,
                               {static_cast<int64_t>(host.size())}, device()),
                     &buffer));
  EventPtr gate;
  ASSERT_PJRTX_OK(CreateEvent(&gate));
  // Leaked if the transfer never completes, since it would write into it.
  auto dst = std::make_unique<std::vector<uint8_t>>(host.size());
  EventPtr transfer;
  ASSERT_PJRTX_OK(StartToHost(buffer.get(), dst->data(), dst->size(),
                              {gate.get()}, &transfer));
  ASSERT_NE(transfer, nullptr);
  EventPtr first;
  ASSERT_PJRTX_OK(CreateEvent(&first));
  PJRTX_Event* transfer_raw = transfer.get();
  // The callback awaits the transfer, which waits for `gate`.
  ExpectAwaitInCallbackCompletes(std::move(first), transfer_raw,
                                 std::move(gate));
  if (HasFailure() && !IsReady(transfer_raw)) {
    static_cast<void>(dst.release());
    static_cast<void>(transfer.release());
    static_cast<void>(buffer.release());
    return;
  }
  EXPECT_EQ(*dst, host);
}

TEST_F(EventClientTest, SetRejectsEventsNotMadeByCreate) {
  const std::vector<uint8_t> host = PatternBytes(16);
  BufferPtr buffer;
  ASSERT_PJRTX_OK(BufferFromHost(
      client(), DenseSpec(host.data(), PJRTX_Buffer_Type_U8, {16}, device()),
      &buffer));
  EventPtr ready;
  ASSERT_PJRTX_OK(ReadyEvent(buffer.get(), &ready));
  ASSERT_NE(ready, nullptr);
  EXPECT_TRUE(
      IsError(SetEvent(ready.get()), PJRTX_Error_Code_FAILED_PRECONDITION));
}

}  // namespace
}  // namespace pjrtx::conformance
