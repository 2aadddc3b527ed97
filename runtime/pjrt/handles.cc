#include "runtime/pjrt/handles.h"

#include "runtime/pjrt/api_support.h"

namespace pjrtx::pjrt {
namespace {

// Destroys a pjrtx handle with `destroy`; a failure (a handle that is not
// one) is dropped, as destruction has no caller to report it to.
template <typename Args, typename Handle>
void Destroy(PJRTX_Error* (*destroy)(Args*), size_t struct_size, Handle* handle,
             Handle* Args::*field) {
  Args args = MakePjrtxArgs<Args>(struct_size);
  args.*field = handle;
  TakePjrtxError(destroy(&args)).IgnoreError();
}

}  // namespace

void PjrtxDeleter::operator()(PJRTX_Client* client) const {
  Destroy(Pjrtx().Client_Destroy, PJRTX_Client_Destroy_Args_STRUCT_SIZE, client,
          &PJRTX_Client_Destroy_Args::client);
}

void PjrtxDeleter::operator()(PJRTX_Event* event) const {
  Destroy(Pjrtx().Event_Destroy, PJRTX_Event_Destroy_Args_STRUCT_SIZE, event,
          &PJRTX_Event_Destroy_Args::event);
}

void PjrtxDeleter::operator()(PJRTX_Buffer* buffer) const {
  Destroy(Pjrtx().Buffer_Destroy, PJRTX_Buffer_Destroy_Args_STRUCT_SIZE, buffer,
          &PJRTX_Buffer_Destroy_Args::buffer);
}

void PjrtxDeleter::operator()(PJRTX_LoadedExecutable* executable) const {
  Destroy(Pjrtx().LoadedExecutable_Destroy,
          PJRTX_LoadedExecutable_Destroy_Args_STRUCT_SIZE, executable,
          &PJRTX_LoadedExecutable_Destroy_Args::executable);
}

PJRT_Event* WrapEvent(PJRTX_Event* event) {
  if (event == nullptr) return nullptr;
  return new PJRT_Event{PjrtxPtr<PJRTX_Event>(event)};
}

PJRT_Buffer* WrapBuffer(PJRT_Client* client, PJRTX_Buffer* buffer) {
  if (buffer == nullptr) return nullptr;
  return new PJRT_Buffer{client, PjrtxPtr<PJRTX_Buffer>(buffer)};
}

}  // namespace pjrtx::pjrt
