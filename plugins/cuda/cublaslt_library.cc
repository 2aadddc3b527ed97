#include "plugins/cuda/cublaslt_library.h"

#include <dlfcn.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "absl/strings/str_cat.h"

namespace cuda_plugin {
namespace {

const char* Env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : nullptr;
}

// The entry points of the library at each path, resolved once and kept
// (like the libraries, never closed) where they stay reachable.
const CublasLtApi* Resolve(void* handle, const std::string& path,
                           std::string* missing) {
  static std::mutex* const mu = new std::mutex;
  static auto* const tables =
      new std::map<std::string, std::unique_ptr<CublasLtApi>>;
  std::lock_guard<std::mutex> lock(*mu);
  std::unique_ptr<CublasLtApi>& table = (*tables)[path];
  if (table != nullptr) return table.get();
  auto api = std::make_unique<CublasLtApi>();
#define PJRTX_CUBLASLT_RESOLVE_ENTRY(name)                                 \
  api->name = reinterpret_cast<decltype(api->name)>(dlsym(handle, #name)); \
  if (api->name == nullptr) {                                              \
    *missing = #name;                                                      \
    return nullptr;                                                        \
  }
  PJRTX_CUBLASLT_ENTRY_POINTS(PJRTX_CUBLASLT_RESOLVE_ENTRY)
#undef PJRTX_CUBLASLT_RESOLVE_ENTRY
  table = std::move(api);
  return table.get();
}

CublasLtLibrary Load() {
  if (const char* path = Env("PJRTX_CUBLASLT_PATH"); path != nullptr) {
    return LoadCublasLtFrom(path);
  }
  if (Env("PJRTX_CUDA_DRIVER_PATH") != nullptr) {
    CublasLtLibrary library;
    library.path = "libcublasLt.so.13";
    library.unavailable_reason = absl::StrCat(
        "not loaded: PJRTX_CUDA_DRIVER_PATH selects the CUDA driver ",
        Env("PJRTX_CUDA_DRIVER_PATH"),
        ", but the system's cuBLASLt would use the system's driver; set "
        "PJRTX_CUBLASLT_PATH to a cuBLASLt for that driver");
    return library;
  }
  // CUDA 13's library first; a CUDA 12 installation has only the older.
  CublasLtLibrary library = LoadCublasLtFrom("libcublasLt.so.13");
  if (library.api != nullptr) return library;
  CublasLtLibrary older = LoadCublasLtFrom("libcublasLt.so.12");
  if (older.api != nullptr) return older;
  older.unavailable_reason =
      absl::StrCat(library.unavailable_reason, "; ", older.unavailable_reason);
  return older;
}

}  // namespace

CublasLtLibrary LoadCublasLtFrom(const std::string& path) {
  CublasLtLibrary library;
  library.path = path;
  // Never closed: the library keeps per-process state (its own CUDA
  // runtime), and the plugin lives as long as the process.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    library.unavailable_reason = absl::StrCat(
        "cannot load ", path, " (", why != nullptr ? why : "unknown error",
        "); install cuBLASLt or set PJRTX_CUBLASLT_PATH");
    return library;
  }
  std::string missing;
  const CublasLtApi* api = Resolve(handle, path, &missing);
  if (api == nullptr) {
    library.unavailable_reason = absl::StrCat(
        "the cuBLASLt library at ", path, " has no ", missing, "; cuBLASLt ",
        CublasLtVersionText(kMinCublasLtVersion), " or newer is needed");
    return library;
  }
  library.version = api->cublasLtGetVersion();
  if (library.version < kMinCublasLtVersion) {
    library.unavailable_reason = absl::StrCat(
        "cuBLASLt ", CublasLtVersionText(library.version), " at ", path,
        " is too old; cuBLASLt ", CublasLtVersionText(kMinCublasLtVersion),
        " or newer is needed");
    return library;
  }
  library.api = api;
  return library;
}

const CublasLtLibrary& LoadCublasLt() {
  static const CublasLtLibrary* library = new CublasLtLibrary(Load());
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
