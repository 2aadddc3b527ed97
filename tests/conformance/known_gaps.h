// The known-gaps file: tests a plugin is known to fail, each with a reason.
//
// Format, one entry per line: `SuiteName.TestName: reason`. Blank lines and
// lines starting with `#` are ignored. The test name may use the `*` and `?`
// wildcards of gtest filters (matched with fnmatch), which is handy for
// parameterised tests such as `*ElementTypeRoundTripTest.RoundTrip/F8*`.

#ifndef PJRTX_TESTS_CONFORMANCE_KNOWN_GAPS_H_
#define PJRTX_TESTS_CONFORMANCE_KNOWN_GAPS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pjrtx::conformance {

class KnownGaps {
 public:
  // Parses the contents of a known-gaps file. Returns false and sets `error`
  // (with the line number) on a line without a name, a colon or a reason.
  bool Parse(std::string_view text, std::string* error);

  // Reads and parses `path`.
  bool LoadFile(const std::string& path, std::string* error);

  // The reason `full_test_name` ("Suite.Test") is a known gap, if it is one.
  // Records the match so that stale entries can be reported.
  std::optional<std::string> ReasonFor(const std::string& full_test_name);

  // Patterns that matched no test run so far.
  std::vector<std::string> UnmatchedPatterns() const;

 private:
  struct Entry {
    std::string pattern;
    std::string reason;
    bool matched = false;
  };
  std::vector<Entry> entries_;
};

}  // namespace pjrtx::conformance

#endif  // PJRTX_TESTS_CONFORMANCE_KNOWN_GAPS_H_
