#include "plugins/cuda/driver_api/loaded_library.h"

#include <dlfcn.h>

#include <cstdlib>
#include <string>

#include "absl/strings/str_cat.h"

namespace cuda_plugin {

const char* EnvironmentValue(const char* variable) {
  const char* value = std::getenv(variable);
  return value != nullptr && *value != '\0' ? value : nullptr;
}

std::string ForeignDriverReason(const LoadedLibraryNames& names) {
  const char* driver = EnvironmentValue("PJRTX_CUDA_DRIVER_PATH");
  if (driver == nullptr) return "";
  return absl::StrCat(
      "not loaded: PJRTX_CUDA_DRIVER_PATH selects the CUDA driver ", driver,
      ", but the system's ", names.name, " would use the system's driver; set ",
      names.path_variable, " to ", names.a_name, " for that driver");
}

void* OpenLoadedLibrary(const LoadedLibraryNames& names,
                        const std::string& path, std::string* why) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* error = dlerror();
    *why = absl::StrCat(
        "cannot load ", path, " (", error != nullptr ? error : "unknown error",
        "); install ", names.name, " or set ", names.path_variable);
  }
  return handle;
}

std::string MissingEntryPointReason(const LoadedLibraryNames& names,
                                    const std::string& path,
                                    const std::string& missing,
                                    const std::string& min_version) {
  return absl::StrCat("the ", names.name, " library at ", path, " has no ",
                      missing, "; ", names.name, " ", min_version,
                      " or newer is needed");
}

std::string TooOldReason(const LoadedLibraryNames& names,
                         const std::string& path, const std::string& version,
                         const std::string& min_version) {
  return absl::StrCat(names.name, " ", version, " at ", path, " is too old; ",
                      names.name, " ", min_version, " or newer is needed");
}

void* FindEntryPoint(void* handle, const char* name, std::string* missing) {
  void* entry = dlsym(handle, name);
  if (entry == nullptr) *missing = name;
  return entry;
}

}  // namespace cuda_plugin
