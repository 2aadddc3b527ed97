// The plugin the suite is testing: loaded once by main, read by every test.
//
// Loading never aborts the run for a broken table: GetPjrtxApi returning
// NULL, a version the suite cannot use or a failing Plugin_Initialize are
// recorded in `unusable_reason`, so that the ABI tests report exactly what is
// wrong and every other test fails with that reason instead of crashing.

#ifndef PJRTX_TESTS_CONFORMANCE_PLUGIN_UNDER_TEST_H_
#define PJRTX_TESTS_CONFORMANCE_PLUGIN_UNDER_TEST_H_

#include <optional>
#include <string>
#include <string_view>

#include "known_gaps.h"
#include "named_value_list.h"
#include "pjrtx/pjrtx_c_api.h"

namespace pjrtx::conformance {

// Attribute names the C ABI defines (pjrtx_c_api.h, Plugin_Attributes).
inline constexpr std::string_view kPlatformNameAttribute =
    "pjrtx.platform_name";
inline constexpr std::string_view kPluginVersionAttribute =
    "pjrtx.plugin_version";
inline constexpr std::string_view kApiVersionAttribute = "pjrtx.api_version";
inline constexpr std::string_view kCapabilitiesAttribute = "pjrtx.capabilities";
inline constexpr std::string_view kUnavailableReasonAttribute =
    "pjrtx.unavailable_reason";

// A plugin opened with dlopen: the library handle and its table.
struct OpenedPlugin {
  void* handle = nullptr;
  const PJRTX_Api* api = nullptr;  // What GetPjrtxApi returned; may be NULL.
};

// dlopen(RTLD_NOW | RTLD_LOCAL)s `path` and calls GetPjrtxApi. Returns false
// and sets `error` only if the library or the symbol cannot be found. The
// handle is never closed by the suite: a plugin may keep threads or
// callbacks alive in static storage, and unmapping its code under them would
// turn a clean run into a crash at exit.
bool OpenPlugin(const std::string& path, OpenedPlugin* plugin,
                std::string* error);

// Why the suite cannot call through `api` (NULL, wrong major version, minor
// below 1, or a table smaller than version 0.1's), or empty if it can.
std::string ApiUnusableReason(const PJRTX_Api* api);

// Calls Plugin_Initialize; returns its error text, empty on success.
std::string InitializePlugin(const PJRTX_Api* api);

struct PluginUnderTest {
  std::string path;
  OpenedPlugin opened;
  // Non-empty when tests cannot call the plugin; they fail with this text.
  std::string unusable_reason;
  // Copies of what the plugin published (empty if it could not be read).
  NamedValueList option_schema;
  NamedValueList attributes;
  // Typed `--option` values, passed to every client the suite creates.
  NamedValueList options;
  KnownGaps known_gaps;
};

// The process-wide instance, filled by main before the tests run.
PluginUnderTest& Plugin();

// Opens `path`, checks the table, initialises the plugin and reads its option
// schema and attributes into Plugin(). Returns false with `error` only if the
// library cannot be opened at all; other problems go to unusable_reason.
bool LoadPluginUnderTest(const std::string& path, std::string* error);

// The table under test (NULL if GetPjrtxApi returned NULL).
inline const PJRTX_Api* Api() { return Plugin().opened.api; }

// `pjrtx.unavailable_reason`, if the plugin published one.
std::optional<std::string> UnavailableReason();

// Whether `pjrtx.capabilities` lists `name` (entries are trimmed).
bool HasCapability(std::string_view name);

}  // namespace pjrtx::conformance

#endif  // PJRTX_TESTS_CONFORMANCE_PLUGIN_UNDER_TEST_H_
