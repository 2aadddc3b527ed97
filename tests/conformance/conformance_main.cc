// pjrtx_conformance: the plugin conformance suite.
//
//   pjrtx_conformance --plugin=PATH [--option name=value]...
//                     [--known-gaps=FILE] [gtest flags]
//
// Loads the plugin once, types the --option values with the plugin's option
// schema, and runs the tests. Exit status: gtest's (0 when every test passed
// or was skipped), or 2 for a usage error or a plugin that cannot be opened.

#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "option_flag.h"
#include "plugin_under_test.h"

namespace pjrtx::conformance {
namespace {

constexpr int kUsageError = 2;

constexpr std::string_view kUsage =
    "usage: pjrtx_conformance --plugin=PATH [--option name=value]...\n"
    "                         [--known-gaps=FILE] [gtest flags]\n"
    "  --plugin=PATH       the plugin shared object to test\n"
    "  --option name=value a client create option, typed by the plugin's\n"
    "                      option schema; may be repeated\n"
    "  --known-gaps=FILE   lines \"Suite.Test: reason\" to skip, with reason\n";

struct Flags {
  std::string plugin;
  std::vector<std::string> options;
  std::string known_gaps;
};

// Reads the suite's own flags from what InitGoogleTest left in argv.
// Both "--flag=value" and "--flag value" are accepted.
bool ParseFlags(int argc, char** argv, Flags* flags, std::string* error) {
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    auto value_of = [&](std::string_view flag, std::string* value) {
      if (arg.substr(0, flag.size()) != flag) return false;
      std::string_view rest = arg.substr(flag.size());
      if (rest.empty() && i + 1 < argc) {
        *value = argv[++i];
        return true;
      }
      if (!rest.empty() && rest.front() == '=') {
        *value = std::string(rest.substr(1));
        return true;
      }
      return false;
    };
    std::string value;
    if (value_of("--plugin", &value)) {
      flags->plugin = value;
    } else if (value_of("--option", &value)) {
      flags->options.push_back(value);
    } else if (value_of("--known-gaps", &value)) {
      flags->known_gaps = value;
    } else {
      *error = "unknown argument \"" + std::string(arg) + "\"";
      return false;
    }
  }
  return true;
}

int Main(int argc, char** argv) {
  // InitGoogleTest removes the gtest flags it recognises, leaving ours.
  ::testing::InitGoogleTest(&argc, argv);
  Flags flags;
  std::string error;
  if (!ParseFlags(argc, argv, &flags, &error)) {
    std::cerr << "pjrtx_conformance: " << error << "\n" << kUsage;
    return kUsageError;
  }
  // Listing tests (as CTest discovery does) needs no plugin, so none is
  // loaded: a GPU plugin's start-up would only slow discovery down.
  if (GTEST_FLAG_GET(list_tests)) return RUN_ALL_TESTS();
  if (flags.plugin.empty()) {
    std::cerr << "pjrtx_conformance: --plugin=PATH is required\n" << kUsage;
    return kUsageError;
  }

  PluginUnderTest& plugin = Plugin();
  if (!flags.known_gaps.empty() &&
      !plugin.known_gaps.LoadFile(flags.known_gaps, &error)) {
    std::cerr << "pjrtx_conformance: " << error << "\n";
    return kUsageError;
  }
  if (!LoadPluginUnderTest(flags.plugin, &error)) {
    std::cerr << "pjrtx_conformance: " << error << "\n";
    return kUsageError;
  }
  for (const std::string& option : flags.options) {
    if (!ParseOptionFlag(option, plugin.option_schema, &plugin.options,
                         &error)) {
      std::cerr << "pjrtx_conformance: " << error << "\n";
      return kUsageError;
    }
  }
  if (!plugin.unusable_reason.empty()) {
    std::cerr << "pjrtx_conformance: the plugin cannot be tested: "
              << plugin.unusable_reason << "\n";
  }

  const int result = RUN_ALL_TESTS();

  // A gap that matched nothing is probably fixed or renamed; say so unless
  // a filter explains it.
  if (GTEST_FLAG_GET(filter) == "*") {
    for (const std::string& pattern : plugin.known_gaps.UnmatchedPatterns()) {
      std::cerr << "pjrtx_conformance: note: known gap \"" << pattern
                << "\" matched no test\n";
    }
  }
  return result;
}

}  // namespace
}  // namespace pjrtx::conformance

int main(int argc, char** argv) { return pjrtx::conformance::Main(argc, argv); }
