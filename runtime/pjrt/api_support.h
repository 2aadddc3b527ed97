// What every PJRT entry point shares: the pjrtx table it translates onto,
// the struct-size rule, and errors in both directions.
//
// An entry point is written as `absl::Status Impl(PJRT_<Name>_Args& args)`
// and installed with PJRTX_PJRT_SLOT, which checks the args pointer and
// struct size first and turns the status into a PJRT_Error. Extension nodes
// on argument structs are never read, so unknown ones are skipped.
#ifndef PJRTX_RUNTIME_PJRT_API_SUPPORT_H_
#define PJRTX_RUNTIME_PJRT_API_SUPPORT_H_

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "pjrtx/pjrtx_c_api.h"
#include "runtime/pjrt/pjrt_c_api.h"

namespace pjrtx::pjrt {

// What PJRT clients call this plugin.
struct PjrtPlatform {
  std::string name;     // JAX's platform name, e.g. "tpuemu".
  std::string version;  // e.g. "pjrtx 0.1.0 (tpuemu)".
};

// The PJRTX_Api of this shared object, which the PJRT calls are translated
// onto, and the plugin's PJRT names. Installed once, by BuildPjrtApi,
// before any PJRT call can run.
const PJRTX_Api& Pjrtx();
const PjrtPlatform& Platform();
void InstallPjrtx(const PJRTX_Api* api, PjrtPlatform platform);

// A pjrtx argument struct with its struct_size set and all else zero.
template <typename Args>
Args MakePjrtxArgs(size_t struct_size) {
  Args args{};
  args.struct_size = struct_size;
  return args;
}
#define PJRTX_ARGS(Type) ::pjrtx::pjrt::MakePjrtxArgs<Type>(Type##_STRUCT_SIZE)

// Takes ownership of a pjrtx error (NULL is OK) and returns its status.
absl::Status TakePjrtxError(PJRTX_Error* error);

// Calls the pjrtx entry point `fn` on `args`.
template <typename Args>
absl::Status CallPjrtx(PJRTX_Error* (*fn)(Args*), Args& args) {
  return TakePjrtxError(fn(&args));
}

// NULL for OK, else a new PJRT_Error holding `status`.
PJRT_Error* ToPjrtError(const absl::Status& status);

// The struct-size rule of the PJRT C API: INVALID_ARGUMENT with upstream's
// message when `given` < `expected` (a framework built with an older
// header), or when `args` is NULL. A larger struct is accepted.
absl::Status CheckStructSize(absl::string_view struct_name, const void* args,
                             size_t given, size_t expected);

// UNIMPLEMENTED naming the PJRT function.
absl::Status Unimplemented(absl::string_view function);

// Runs an entry point: the struct-size check, then `impl`.
template <typename Args>
PJRT_Error* RunEntry(absl::string_view struct_name, size_t struct_size,
                     Args* args, absl::Status (*impl)(Args&)) {
  absl::Status status = CheckStructSize(
      struct_name, args, args == nullptr ? 0 : args->struct_size, struct_size);
  if (status.ok()) status = impl(*args);
  return ToPjrtError(status);
}

// The slots of each family of entry points, filled by its own file.
void FillErrorAndEventSlots(PJRT_Api& api);
void FillPluginAndClientSlots(PJRT_Api& api);
void FillDeviceSlots(PJRT_Api& api);
void FillMemorySlots(PJRT_Api& api);
void FillBufferSlots(PJRT_Api& api);
void FillExecutableSlots(PJRT_Api& api);

}  // namespace pjrtx::pjrt

// Fills slot `fn` of `api` with `impl`, an absl::Status(fn##_Args&).
#define PJRTX_PJRT_SLOT(api, fn, impl)                                       \
  (api).fn = [](fn##_Args* args) -> PJRT_Error* {                            \
    return ::pjrtx::pjrt::RunEntry(#fn "_Args", fn##_Args_STRUCT_SIZE, args, \
                                   impl);                                    \
  }

// Fills slot `fn` of `api` with an entry point that checks its arguments
// and returns UNIMPLEMENTED naming `fn`.
#define PJRTX_PJRT_UNIMPLEMENTED_SLOT(api, fn)                          \
  (api).fn = [](fn##_Args* args) -> PJRT_Error* {                       \
    return ::pjrtx::pjrt::RunEntry(                                     \
        #fn "_Args", fn##_Args_STRUCT_SIZE, args,                       \
        +[](fn##_Args&) { return ::pjrtx::pjrt::Unimplemented(#fn); }); \
  }

#endif  // PJRTX_RUNTIME_PJRT_API_SUPPORT_H_
