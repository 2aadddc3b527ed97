#include "runtime/core/base/callback_thread.h"

#include <utility>

#include "runtime/core/base/thread_pool.h"

namespace pjrtx {

void PostToCallbackThread(absl::AnyInvocable<void() &&> fn) {
  // Leaked on purpose: destroying it at exit would join a thread that may be
  // blocked inside a framework callback.
  static ThreadPool* const thread = new ThreadPool(1);
  thread->Schedule(std::move(fn));
}

}  // namespace pjrtx
