#include "plugins/cuda/collectives/nccl_library.h"

#include <dlfcn.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "plugins/cuda/driver_api/loaded_library.h"
#include "runtime/core/base/element_type.h"

namespace cuda_plugin {
namespace {

constexpr LoadedLibraryNames kNccl = {"NCCL", "an NCCL", "PJRTX_NCCL_PATH"};

bool ResolveNccl(void* handle, NcclApi* api, std::string* missing) {
  PJRTX_NCCL_ENTRY_POINTS(PJRTX_RESOLVE_ENTRY_POINT)
  api->ncclCommInitRankConfig =
      reinterpret_cast<decltype(&::ncclCommInitRankConfig)>(
          dlsym(handle, "ncclCommInitRankConfig"));
  return true;
}

}  // namespace

NcclLibrary LoadNcclFrom(const std::string& path) {
  NcclLibrary library;
  library.path = path;
  const NcclApi* api = LoadEntryPoints(kNccl, path, &ResolveNccl,
                                       NcclVersionText(kMinNcclVersion),
                                       &library.unavailable_reason);
  if (api == nullptr) return library;
  const ncclResult_t result = api->ncclGetVersion(&library.version);
  if (result != ncclSuccess) {
    library.unavailable_reason =
        NcclStatus(*api, result, "ncclGetVersion").ToString();
    return library;
  }
  if (library.version < kMinNcclVersion) {
    library.unavailable_reason =
        TooOldReason(kNccl, path, NcclVersionText(library.version),
                     NcclVersionText(kMinNcclVersion));
    return library;
  }
  library.api = api;
  return library;
}

const NcclLibrary& LoadNccl() {
  static const NcclLibrary* library = new NcclLibrary(
      LoadLoadedLibrary<NcclLibrary>(kNccl, {"libnccl.so.2"}, &LoadNcclFrom));
  return *library;
}

std::string NcclVersionText(int version) {
  // NCCL_VERSION(X,Y,Z) is X*1000+Y*100+Z up to 2.8, X*10000+Y*100+Z after.
  if (version < 10000) {
    return absl::StrCat(version / 1000, ".", version % 1000 / 100, ".",
                        version % 100);
  }
  return absl::StrCat(version / 10000, ".", version % 10000 / 100, ".",
                      version % 100);
}

absl::Status NcclStatus(const NcclApi& api, ncclResult_t result,
                        const char* call, ncclComm_t comm) {
  if (result == ncclSuccess) return absl::OkStatus();
  const char* text = api.ncclGetErrorString(result);
  std::string message =
      absl::StrCat(call, ": ", text != nullptr ? text : "unknown error",
                   " (ncclResult_t ", static_cast<int>(result), ")");
  // NCCL's own account, which names what was wrong; it may be older than
  // this call, so it is quoted as what NCCL last said.
  if (const char* last = api.ncclGetLastError(comm);
      last != nullptr && *last != '\0') {
    absl::StrAppend(&message, "; NCCL's last error: ", last);
  }
  switch (result) {
    case ncclInvalidArgument:
      return absl::InvalidArgumentError(message);
    case ncclInvalidUsage:
      return absl::FailedPreconditionError(message);
    case ncclSystemError:
    case ncclRemoteError:
      return absl::UnavailableError(message);
    default:
      return absl::InternalError(message);
  }
}

absl::StatusOr<ncclDataType_t> NcclReductionType(PJRTX_Buffer_Type type,
                                                 bool fp8) {
  switch (type) {
    case PJRTX_Buffer_Type_S8:
      return ncclInt8;
    case PJRTX_Buffer_Type_U8:
      return ncclUint8;
    case PJRTX_Buffer_Type_S32:
      return ncclInt32;
    case PJRTX_Buffer_Type_U32:
      return ncclUint32;
    case PJRTX_Buffer_Type_S64:
      return ncclInt64;
    case PJRTX_Buffer_Type_U64:
      return ncclUint64;
    case PJRTX_Buffer_Type_F16:
      return ncclFloat16;
    case PJRTX_Buffer_Type_BF16:
      return ncclBfloat16;
    case PJRTX_Buffer_Type_F32:
      return ncclFloat32;
    case PJRTX_Buffer_Type_F64:
      return ncclFloat64;
    case PJRTX_Buffer_Type_F8E4M3FN:
    case PJRTX_Buffer_Type_F8E5M2:
      if (!fp8) {
        return absl::UnimplementedError(absl::StrCat(
            "reducing ", pjrtx::ElementTypeName(type),
            " through NCCL needs NCCL ", NcclVersionText(kNcclFp8Version),
            " or newer and GPUs of compute capability 9.0 or newer"));
      }
      return type == PJRTX_Buffer_Type_F8E4M3FN ? ncclFloat8e4m3
                                                : ncclFloat8e5m2;
    default:
      break;
  }
  const char* why =
      type == PJRTX_Buffer_Type_PRED ? "NCCL has no boolean type"
      : type == PJRTX_Buffer_Type_S16 || type == PJRTX_Buffer_Type_U16
          ? "NCCL has no 16-bit integer type"
          : "NCCL has no such type";
  return absl::UnimplementedError(absl::StrCat(
      "cannot reduce ", pjrtx::ElementTypeName(type), " through NCCL: ", why,
      "; NCCL reduces S8, U8, S32, U32, S64, U64, F16, BF16, F32, F64 (and "
      "F8E4M3FN, F8E5M2 on NCCL ",
      NcclVersionText(kNcclFp8Version), "+ with sm_90+ GPUs)"));
}

absl::StatusOr<ncclRedOp_t> NcclReduceOp(PJRTX_ReduceOp op) {
  switch (op) {
    case PJRTX_ReduceOp_SUM:
      return ncclSum;
    case PJRTX_ReduceOp_PRODUCT:
      return ncclProd;
    case PJRTX_ReduceOp_MIN:
      return ncclMin;
    case PJRTX_ReduceOp_MAX:
      return ncclMax;
  }
  return absl::UnimplementedError(
      absl::StrCat("reduce op ", static_cast<int>(op),
                   " has no NCCL equivalent; NCCL reduces with sum, product, "
                   "min and max"));
}

}  // namespace cuda_plugin
