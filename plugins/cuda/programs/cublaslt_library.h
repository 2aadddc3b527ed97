// cuBLASLt, loaded at run time and never linked, like the driver and NCCL:
// a plugin linked with -lcublasLt would not even load where the library is
// not installed, and it is optional (without it dot_general runs as the
// compiler stub's PTX kernel). The types come from the toolkit's
// cublasLt.h; the entry points from dlsym.
#ifndef PJRTX_PLUGINS_CUDA_PROGRAMS_CUBLASLT_LIBRARY_H_
#define PJRTX_PLUGINS_CUDA_PROGRAMS_CUBLASLT_LIBRARY_H_

#include <cublasLt.h>

#include <cstddef>
#include <string>

#include "absl/status/status.h"

namespace cuda_plugin {

// The cuBLASLt entry points the plugin uses, resolved in this order (the
// error texts first, so that every later failure can be named).
#define PJRTX_CUBLASLT_ENTRY_POINTS(X)    \
  X(cublasLtGetStatusName)                \
  X(cublasLtGetStatusString)              \
  X(cublasLtGetVersion)                   \
  X(cublasLtCreate)                       \
  X(cublasLtDestroy)                      \
  X(cublasLtMatmulDescCreate)             \
  X(cublasLtMatmulDescSetAttribute)       \
  X(cublasLtMatmulDescDestroy)            \
  X(cublasLtMatrixLayoutCreate)           \
  X(cublasLtMatrixLayoutSetAttribute)     \
  X(cublasLtMatrixLayoutDestroy)          \
  X(cublasLtMatmulPreferenceCreate)       \
  X(cublasLtMatmulPreferenceSetAttribute) \
  X(cublasLtMatmulPreferenceDestroy)      \
  X(cublasLtMatmulAlgoGetHeuristic)       \
  X(cublasLtMatmul)

// The resolved table: every member is non-null in a loaded library.
struct CublasLtApi {
#define PJRTX_CUBLASLT_DECLARE_ENTRY(name) decltype(&::name) name = nullptr;
  PJRTX_CUBLASLT_ENTRY_POINTS(PJRTX_CUBLASLT_DECLARE_ENTRY)
#undef PJRTX_CUBLASLT_DECLARE_ENTRY
};

// What loading cuBLASLt found.
struct CublasLtLibrary {
  std::string path;    // What was loaded (or last tried).
  size_t version = 0;  // cublasLtGetVersion(): 130100 for 13.1.0.
  // Set (and complete) when the library can be used.
  const CublasLtApi* api = nullptr;
  // Empty when `api` is set; otherwise why cuBLASLt is not used, in words
  // a user can act on.
  std::string unavailable_reason;
};

// The oldest cuBLASLt the plugin accepts: 12.0 (CUDA 12.0, the oldest
// driver the plugin runs on), which has FP8 matmuls with scales on sm_90.
inline constexpr size_t kMinCublasLtVersion = 120000;

// Loads cuBLASLt once per process: PJRTX_CUBLASLT_PATH names the library
// (for tests), otherwise "libcublasLt.so.13", then "libcublasLt.so.12".
// When PJRTX_CUDA_DRIVER_PATH points the plugin at another driver and
// PJRTX_CUBLASLT_PATH is unset, cuBLASLt is not loaded: the system's
// cuBLASLt would drive the system's driver, not the one the plugin uses.
// Never fails: every problem becomes the reason.
const CublasLtLibrary& LoadCublasLt();

// Loads the library at `path` without caching (LoadCublasLt's work; the
// library is never unloaded).
CublasLtLibrary LoadCublasLtFrom(const std::string& path);

// "13.1.0" for 130100.
std::string CublasLtVersionText(size_t version);

// OK for CUBLAS_STATUS_SUCCESS; otherwise "<call>: CUBLAS_STATUS_X (text)"
// with a code that says what the caller can do: RESOURCE_EXHAUSTED for
// allocation failures, INVALID_ARGUMENT for invalid values,
// UNIMPLEMENTED for what the library or the GPU does not support,
// INTERNAL otherwise.
absl::Status CublasLtStatus(const CublasLtApi& api, cublasStatus_t status,
                            const char* call);

}  // namespace cuda_plugin

// Returns the status of a failing cuBLASLt call from the enclosing function.
#define PJRTX_CUBLASLT_RETURN_IF_ERROR(api, call)                         \
  do {                                                                    \
    const cublasStatus_t pjrtx_cublaslt_status_ = (api).call;             \
    if (pjrtx_cublaslt_status_ != CUBLAS_STATUS_SUCCESS) {                \
      return ::cuda_plugin::CublasLtStatus((api), pjrtx_cublaslt_status_, \
                                           #call);                        \
    }                                                                     \
  } while (false)

#endif  // PJRTX_PLUGINS_CUDA_PROGRAMS_CUBLASLT_LIBRARY_H_
