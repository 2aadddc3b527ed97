// NCCL, loaded at run time and never linked, like the driver: a plugin
// linked with -lnccl would not even load where NCCL is not installed, and
// it is optional (without it the plugin simply has no collectives). The
// types come from the toolkit's nccl.h; the entry points from dlsym.
#ifndef PJRTX_PLUGINS_CUDA_COLLECTIVES_NCCL_LIBRARY_H_
#define PJRTX_PLUGINS_CUDA_COLLECTIVES_NCCL_LIBRARY_H_

#include <nccl.h>

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pjrtx/pjrtx_c_api.h"

namespace cuda_plugin {

// The NCCL entry points the plugin uses, resolved in this order.
#define PJRTX_NCCL_ENTRY_POINTS(X) \
  X(ncclGetVersion)                \
  X(ncclGetErrorString)            \
  X(ncclGetLastError)              \
  X(ncclGetUniqueId)               \
  X(ncclCommInitRank)              \
  X(ncclCommDestroy)               \
  X(ncclCommAbort)                 \
  X(ncclCommGetAsyncError)         \
  X(ncclGroupStart)                \
  X(ncclGroupEnd)                  \
  X(ncclAllReduce)                 \
  X(ncclReduceScatter)             \
  X(ncclAllGather)                 \
  X(ncclBroadcast)                 \
  X(ncclSend)                      \
  X(ncclRecv)

// The resolved table: every member is non-null in a loaded library.
struct NcclApi {
#define PJRTX_NCCL_DECLARE_ENTRY(name) decltype(&::name) name = nullptr;
  PJRTX_NCCL_ENTRY_POINTS(PJRTX_NCCL_DECLARE_ENTRY)
#undef PJRTX_NCCL_DECLARE_ENTRY
  // Optional (NCCL 2.14+): null in an older library. With it, ranks join
  // without blocking, so a peer that never joins ends in a timeout.
  decltype(&::ncclCommInitRankConfig) ncclCommInitRankConfig = nullptr;
};

// What loading NCCL found.
struct NcclLibrary {
  std::string path;  // What was loaded (or tried).
  int version = 0;   // ncclGetVersion's NCCL_VERSION_CODE; 0 if unknown.
  // Set (and complete) when the library can be used.
  const NcclApi* api = nullptr;
  // Empty when `api` is set; otherwise why NCCL is not used, in words a
  // user can act on.
  std::string unavailable_reason;
};

// The oldest NCCL the plugin accepts: 2.13 has everything it calls
// (ncclSend/ncclRecv since 2.7, bfloat16 since 2.10, ncclGetLastError and
// ncclRemoteError since 2.13).
inline constexpr int kMinNcclVersion = 21300;
// The first NCCL with the FP8 types ncclFloat8e4m3 and ncclFloat8e5m2.
inline constexpr int kNcclFp8Version = 22400;

// Loads NCCL once per process: PJRTX_NCCL_PATH names the library (for
// tests), default "libnccl.so.2". When PJRTX_CUDA_DRIVER_PATH points the
// plugin at another driver and PJRTX_NCCL_PATH is unset, NCCL is not
// loaded: the system's NCCL would drive the system's driver, not the one
// the plugin uses. Never fails: every problem becomes the reason.
const NcclLibrary& LoadNccl();

// Loads the library at `path` without caching (LoadNccl's work; the
// library is never unloaded).
NcclLibrary LoadNcclFrom(const std::string& path);

// "2.28.9" for 22809 (and the pre-2.9 encoding, 2708 -> "2.7.8").
std::string NcclVersionText(int version);

// OK for ncclSuccess; otherwise "<call>: <NCCL's text> (ncclResult_t n)",
// with NCCL's last error message when it has one, and a code that says
// what the caller can do: INVALID_ARGUMENT for bad arguments,
// FAILED_PRECONDITION for invalid usage, UNAVAILABLE for system and remote
// errors, INTERNAL otherwise.
absl::Status NcclStatus(const NcclApi& api, ncclResult_t result,
                        const char* call, ncclComm_t comm = nullptr);

// The NCCL type a reduction of `type` runs in; UNIMPLEMENTED naming the
// type when NCCL cannot reduce it (no boolean, no 16-bit integers, FP8
// only with `fp8` set: NCCL 2.24+ on GPUs of compute capability 9.0+).
absl::StatusOr<ncclDataType_t> NcclReductionType(PJRTX_Buffer_Type type,
                                                 bool fp8);

// The NCCL operator of `op`; UNIMPLEMENTED for anything else than sum,
// product, min and max.
absl::StatusOr<ncclRedOp_t> NcclReduceOp(PJRTX_ReduceOp op);

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_COLLECTIVES_NCCL_LIBRARY_H_
