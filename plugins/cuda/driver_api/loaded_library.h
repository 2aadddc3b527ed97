// What cuBLASLt and NCCL share as libraries the plugin loads at run time
// and never links (nccl_library.h, cublaslt_library.h): where to find
// them, why the system's copy is refused beside another driver, dlopen,
// the table of entry points, and the reasons a user reads when one is not
// used.
#ifndef PJRTX_PLUGINS_CUDA_DRIVER_API_LOADED_LIBRARY_H_
#define PJRTX_PLUGINS_CUDA_DRIVER_API_LOADED_LIBRARY_H_

#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "absl/strings/str_cat.h"

namespace cuda_plugin {

// How the reasons and the environment name one library.
struct LoadedLibraryNames {
  const char* name;           // "NCCL".
  const char* a_name;         // "an NCCL": "set ... to an NCCL for ...".
  const char* path_variable;  // "PJRTX_NCCL_PATH": names the library.
};

// The value of environment variable `variable`; null when unset or empty.
const char* EnvironmentValue(const char* variable);

// Empty unless PJRTX_CUDA_DRIVER_PATH selects another driver than the
// system's; then why the system's library is not loaded: it would drive
// the system's driver, not the one the plugin uses.
std::string ForeignDriverReason(const LoadedLibraryNames& names);

// dlopen(path), never closed (the libraries keep per-process state and
// threads, and the plugin lives as long as the process); null with `why`
// saying what to install or set when it cannot be loaded.
void* OpenLoadedLibrary(const LoadedLibraryNames& names,
                        const std::string& path, std::string* why);

// "the NCCL library at <path> has no <missing>; NCCL <min> or newer is
// needed".
std::string MissingEntryPointReason(const LoadedLibraryNames& names,
                                    const std::string& path,
                                    const std::string& missing,
                                    const std::string& min_version);

// "NCCL <version> at <path> is too old; NCCL <min> or newer is needed".
std::string TooOldReason(const LoadedLibraryNames& names,
                         const std::string& path, const std::string& version,
                         const std::string& min_version);

// The address of `name` in the library at `handle`; null, with `missing`
// set to the name, when it has none.
void* FindEntryPoint(void* handle, const char* name, std::string* missing);

// Stores entry point `name` in `entry`; false when the library lacks it.
template <typename Pointer>
bool ResolveEntryPoint(void* handle, const char* name, Pointer* entry,
                       std::string* missing) {
  *entry = reinterpret_cast<Pointer>(FindEntryPoint(handle, name, missing));
  return *entry != nullptr;
}

// For an X-macro list of entry points, inside a resolver with `handle`,
// `api` and `missing` in scope: resolves `api->name`, returning false from
// the resolver when the library lacks it.
#define PJRTX_RESOLVE_ENTRY_POINT(name)                                      \
  if (!::cuda_plugin::ResolveEntryPoint(handle, #name, &api->name, missing)) \
    return false;

// The entry points of the library at `path`, filled in by `resolve` once
// per path and kept where they stay reachable (like the libraries, never
// closed); null, with `missing` naming the first entry point the library
// lacks, when it is incomplete.
template <typename Api>
const Api* ResolveEntryPoints(void* handle, const std::string& path,
                              bool (*resolve)(void* handle, Api* api,
                                              std::string* missing),
                              std::string* missing) {
  static std::mutex* const mu = new std::mutex;
  static auto* const tables = new std::map<std::string, std::unique_ptr<Api>>;
  std::lock_guard<std::mutex> lock(*mu);
  std::unique_ptr<Api>& table = (*tables)[path];
  if (table != nullptr) return table.get();
  auto api = std::make_unique<Api>();
  if (!resolve(handle, api.get(), missing)) return nullptr;
  table = std::move(api);
  return table.get();
}

// The entry points of the library at `path`, opened for good and
// resolved by `resolve`; null, with `why` saying what to install or set,
// or which entry point is missing from a library older than
// `min_version`, when the library cannot be used.
template <typename Api>
const Api* LoadEntryPoints(const LoadedLibraryNames& names,
                           const std::string& path,
                           bool (*resolve)(void* handle, Api* api,
                                           std::string* missing),
                           const std::string& min_version, std::string* why) {
  void* handle = OpenLoadedLibrary(names, path, why);
  if (handle == nullptr) return nullptr;
  std::string missing;
  const Api* api = ResolveEntryPoints(handle, path, resolve, &missing);
  if (api == nullptr) {
    *why = MissingEntryPointReason(names, path, missing, min_version);
  }
  return api;
}

// Loads the library `names.path_variable` names (for tests), otherwise the
// first of `default_paths` that can be used (and when none can, the last
// one tried, with the reasons of all). Nothing but the reason when
// PJRTX_CUDA_DRIVER_PATH selects another driver and the variable is unset.
// `Library` has `path`, `api` and `unavailable_reason`; `load_from` loads
// one path.
template <typename Library>
Library LoadLoadedLibrary(const LoadedLibraryNames& names,
                          std::initializer_list<const char*> default_paths,
                          Library (*load_from)(const std::string& path)) {
  if (const char* path = EnvironmentValue(names.path_variable);
      path != nullptr) {
    return load_from(path);
  }
  Library library;
  library.path = *default_paths.begin();
  library.unavailable_reason = ForeignDriverReason(names);
  if (!library.unavailable_reason.empty()) return library;
  std::string reasons;
  for (const char* path : default_paths) {
    library = load_from(path);
    if (library.api != nullptr) return library;
    reasons = reasons.empty()
                  ? library.unavailable_reason
                  : absl::StrCat(reasons, "; ", library.unavailable_reason);
  }
  library.unavailable_reason = reasons;
  return library;
}

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_DRIVER_API_LOADED_LIBRARY_H_
