// One test case of the StableHLO interpreter corpus: its text, and the
// checks its entry function makes, in program order.
#ifndef PJRTX_RUNTIME_CLI_CORPUS_CASE_H_
#define PJRTX_RUNTIME_CLI_CORPUS_CASE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler_stub/ir/element_type.h"

namespace pjrtx::cli {

struct Check {
  enum class Kind { kEq, kAlmostEq, kClose };
  Kind kind = Kind::kEq;
  // Outputs compared: one (against `expected`) or two (against each other).
  int num_outputs = 1;
  ir::Shape shape;
  std::vector<uint8_t> expected;   // Storage bytes, when num_outputs == 1.
  int64_t max_ulp_difference = 0;  // kClose.
  double tolerance = 0;            // kAlmostEq.
  int line = 0;
  // The values compared, as written: (name without '%', result index).
  std::vector<std::pair<std::string, int>> values;
};

struct CorpusCase {
  std::string text;
  int first_line = 1;  // Line of the case's first line in the file.
};

// Splits a corpus file on lines `// -----`.
std::vector<CorpusCase> SplitCases(const std::string& file_text);

// The checks of the case's entry function, in order. UNIMPLEMENTED when a
// check cannot be run by this runner (it is reported as a skip).
absl::StatusOr<std::vector<Check>> ReadChecks(const std::string& text);

// Compares output bytes with a check. `outputs` holds the check's
// num_outputs buffers. Returns an empty string when they agree, else why.
std::string Compare(const Check& check,
                    const std::vector<std::vector<uint8_t>>& outputs);

}  // namespace pjrtx::cli

#endif  // PJRTX_RUNTIME_CLI_CORPUS_CASE_H_
