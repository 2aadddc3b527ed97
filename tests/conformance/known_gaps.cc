#include "known_gaps.h"

#include <fnmatch.h>

#include <fstream>
#include <sstream>

namespace pjrtx::conformance {
namespace {

std::string_view Trim(std::string_view text) {
  const char* kSpace = " \t\r\n";
  size_t begin = text.find_first_not_of(kSpace);
  if (begin == std::string_view::npos) return {};
  size_t end = text.find_last_not_of(kSpace);
  return text.substr(begin, end - begin + 1);
}

}  // namespace

bool KnownGaps::Parse(std::string_view text, std::string* error) {
  int line_number = 0;
  while (!text.empty()) {
    size_t newline = text.find('\n');
    std::string_view line = Trim(text.substr(0, newline));
    text.remove_prefix(newline == std::string_view::npos ? text.size()
                                                         : newline + 1);
    ++line_number;
    if (line.empty() || line.front() == '#') continue;
    size_t colon = line.find(':');
    std::string_view pattern =
        Trim(line.substr(0, colon == std::string_view::npos ? 0 : colon));
    std::string_view reason = colon == std::string_view::npos
                                  ? std::string_view()
                                  : Trim(line.substr(colon + 1));
    // A gap without its reason defeats the point of the file: every skip
    // must say why.
    if (pattern.empty() || reason.empty() ||
        pattern.find('.') == std::string_view::npos) {
      *error = "line " + std::to_string(line_number) +
               ": expected \"SuiteName.TestName: reason\", got \"" +
               std::string(line) + "\"";
      return false;
    }
    entries_.push_back({std::string(pattern), std::string(reason)});
  }
  return true;
}

bool KnownGaps::LoadFile(const std::string& path, std::string* error) {
  std::ifstream file(path);
  if (!file) {
    *error = "cannot read known-gaps file \"" + path + "\"";
    return false;
  }
  std::ostringstream text;
  text << file.rdbuf();
  if (!Parse(text.str(), error)) {
    *error = path + ": " + *error;
    return false;
  }
  return true;
}

std::optional<std::string> KnownGaps::ReasonFor(
    const std::string& full_test_name) {
  for (Entry& entry : entries_) {
    if (fnmatch(entry.pattern.c_str(), full_test_name.c_str(), 0) == 0) {
      entry.matched = true;
      return entry.reason;
    }
  }
  return std::nullopt;
}

std::vector<std::string> KnownGaps::UnmatchedPatterns() const {
  std::vector<std::string> unmatched;
  for (const Entry& entry : entries_) {
    if (!entry.matched) unmatched.push_back(entry.pattern);
  }
  return unmatched;
}

}  // namespace pjrtx::conformance
