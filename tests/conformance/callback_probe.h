// Records the runs of an on-ready callback so tests can wait for them with a
// deadline and check how often, where and with what error they ran.

#ifndef PJRTX_TESTS_CONFORMANCE_CALLBACK_PROBE_H_
#define PJRTX_TESTS_CONFORMANCE_CALLBACK_PROBE_H_

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "api_helpers.h"
#include "pjrtx/pjrtx_c_api.h"

namespace pjrtx::conformance {

class CallbackProbe {
 public:
  CallbackProbe() = default;
  CallbackProbe(const CallbackProbe&) = delete;
  CallbackProbe& operator=(const CallbackProbe&) = delete;

  // A PJRTX_Event_OnReadyCallback; `user_arg` is a CallbackProbe*. Takes
  // ownership of `error`, as the callback contract says.
  static void OnReady(PJRTX_Error* error, void* user_arg);

  // Registers OnReady on `event` with this probe as its argument.
  ScopedError RegisterOn(PJRTX_Event* event);

  // Records one run on the calling thread.
  void Record(PJRTX_Error_Code code, std::string message);

  // Waits until at least `calls` runs were recorded; false on timeout.
  bool WaitForCalls(int calls, std::chrono::milliseconds timeout = kDeadline);

  int calls() const;
  // Of the last run.
  PJRTX_Error_Code code() const;
  std::string message() const;
  std::thread::id thread() const;

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  int calls_ = 0;
  PJRTX_Error_Code code_ = PJRTX_Error_Code_OK;
  std::string message_;
  std::thread::id thread_;
};

// Runs a task on its own thread, for steps that may block in a broken
// plugin. Finish() waits with a deadline; if the task is still running the
// thread is detached, and the test must then leak whatever the task uses.
class BackgroundTask {
 public:
  explicit BackgroundTask(std::function<void()> task);
  ~BackgroundTask();
  BackgroundTask(const BackgroundTask&) = delete;
  BackgroundTask& operator=(const BackgroundTask&) = delete;

  // True if the task finished within `timeout`.
  bool Finish(std::chrono::milliseconds timeout = kDeadline);

 private:
  struct State {
    std::mutex mutex;
    std::condition_variable done_changed;
    bool done = false;
  };
  std::shared_ptr<State> state_;
  std::thread thread_;
  bool detached_ = false;
};

}  // namespace pjrtx::conformance

#endif  // PJRTX_TESTS_CONFORMANCE_CALLBACK_PROBE_H_
