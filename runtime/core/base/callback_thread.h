// The thread that runs framework callbacks.
#ifndef PJRTX_RUNTIME_CORE_BASE_CALLBACK_THREAD_H_
#define PJRTX_RUNTIME_CORE_BASE_CALLBACK_THREAD_H_

#include "absl/functional/any_invocable.h"

namespace pjrtx {

// Posts `fn` to the process-wide callback thread of this plugin. Framework
// callbacks (PJRTX_Event_OnReady) run there, in posting order, so that they
// never run on a device worker and may block (e.g. await another event)
// without stalling device work. Started on first use; it lives for the life
// of the process (plugins are never unloaded, see cmake/PjrtxPlugin.cmake).
void PostToCallbackThread(absl::AnyInvocable<void() &&> fn);

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_CORE_BASE_CALLBACK_THREAD_H_
