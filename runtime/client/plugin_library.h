// Loads a plugin shared object.
#ifndef PJRTX_RUNTIME_CLIENT_PLUGIN_LIBRARY_H_
#define PJRTX_RUNTIME_CLIENT_PLUGIN_LIBRARY_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "pjrtx/pjrtx_c_api.h"
#include "runtime/client/named_value.h"

namespace pjrtx::client {

// A loaded plugin. Plugins are never unloaded (they are built nodelete), so
// the table stays valid for the life of the process. Thread-safe.
class PluginLibrary {
 public:
  // dlopens `path`, finds GetPjrtxApi, checks the version (major equal,
  // minor at least `min_minor`; the error names both versions and what to
  // do) and calls Plugin_Initialize.
  static absl::StatusOr<std::shared_ptr<PluginLibrary>> Load(
      const std::string& path, int min_minor = PJRTX_API_MINOR);

  const PJRTX_Api* api() const { return api_; }
  const std::string& path() const { return path_; }
  const std::vector<NamedValue>& attributes() const { return attributes_; }
  // The option schema: each option's default value (which fixes its type)
  // and description.
  const std::vector<NamedValue>& option_defaults() const {
    return option_defaults_;
  }
  const std::vector<std::string>& option_descriptions() const {
    return option_descriptions_;
  }
  // A string attribute, if present.
  std::optional<std::string> StringAttribute(const std::string& name) const;

 private:
  PluginLibrary() = default;

  const PJRTX_Api* api_ = nullptr;
  std::string path_;
  std::vector<NamedValue> attributes_;
  std::vector<NamedValue> option_defaults_;
  std::vector<std::string> option_descriptions_;
};

}  // namespace pjrtx::client

#endif  // PJRTX_RUNTIME_CLIENT_PLUGIN_LIBRARY_H_
