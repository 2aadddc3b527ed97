#include "plugins/cuda/programs/cublaslt_library.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "plugins/cuda/driver_api/loaded_library.h"

namespace cuda_plugin {
namespace {

constexpr LoadedLibraryNames kCublasLt = {"cuBLASLt", "a cuBLASLt",
                                          "PJRTX_CUBLASLT_PATH"};

bool ResolveCublasLt(void* handle, CublasLtApi* api, std::string* missing) {
  PJRTX_CUBLASLT_ENTRY_POINTS(PJRTX_RESOLVE_ENTRY_POINT)
  return true;
}

}  // namespace

CublasLtLibrary LoadCublasLtFrom(const std::string& path) {
  CublasLtLibrary library;
  library.path = path;
  const CublasLtApi* api = LoadEntryPoints(
      kCublasLt, path, &ResolveCublasLt,
      CublasLtVersionText(kMinCublasLtVersion), &library.unavailable_reason);
  if (api == nullptr) return library;
  library.version = api->cublasLtGetVersion();
  if (library.version < kMinCublasLtVersion) {
    library.unavailable_reason =
        TooOldReason(kCublasLt, path, CublasLtVersionText(library.version),
                     CublasLtVersionText(kMinCublasLtVersion));
    return library;
  }
  library.api = api;
  return library;
}

const CublasLtLibrary& LoadCublasLt() {
  // CUDA 13's library first; a CUDA 12 installation has only the older.
  static const CublasLtLibrary* library =
      new CublasLtLibrary(LoadLoadedLibrary<CublasLtLibrary>(
          kCublasLt, {"libcublasLt.so.13", "libcublasLt.so.12"},
          &LoadCublasLtFrom));
  return *library;
}

std::string CublasLtVersionText(size_t version) {
  // CUBLAS_VERSION is major * 10000 + minor * 100 + patch since 12.0.
  return absl::StrCat(version / 10000, ".", version % 10000 / 100, ".",
                      version % 100);
}

absl::Status CublasLtStatus(const CublasLtApi& api, cublasStatus_t status,
                            const char* call) {
  if (status == CUBLAS_STATUS_SUCCESS) return absl::OkStatus();
  const char* name = api.cublasLtGetStatusName(status);
  const char* text = api.cublasLtGetStatusString(status);
  const std::string message =
      absl::StrCat(call, ": ", name != nullptr ? name : "CUBLAS_STATUS_?", " (",
                   text != nullptr ? text : "unknown error",
                   "; cublasStatus_t ", static_cast<int>(status), ")");
  switch (status) {
    case CUBLAS_STATUS_ALLOC_FAILED:
      return absl::ResourceExhaustedError(message);
    case CUBLAS_STATUS_INVALID_VALUE:
      return absl::InvalidArgumentError(message);
    case CUBLAS_STATUS_NOT_SUPPORTED:
    case CUBLAS_STATUS_ARCH_MISMATCH:
      return absl::UnimplementedError(message);
    default:
      return absl::InternalError(message);
  }
}

}  // namespace cuda_plugin
