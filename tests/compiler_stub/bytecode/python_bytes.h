// Extracts the `mlir_module_serialized=b'...'` bytes literals from the
// jax.export test data files (Python source holding dicts).
#ifndef PJRTX_TESTS_COMPILER_STUB_BYTECODE_PYTHON_BYTES_H_
#define PJRTX_TESTS_COMPILER_STUB_BYTECODE_PYTHON_BYTES_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace pjrtx::bytecode_testing {

// The value of every `<key>=b'...'` (or b"...") in `source`, Python escape
// sequences decoded; adjacent literals concatenate as in Python.
absl::StatusOr<std::vector<std::string>> ExtractBytesLiterals(
    std::string_view source, std::string_view key);

}  // namespace pjrtx::bytecode_testing

#endif  // PJRTX_TESTS_COMPILER_STUB_BYTECODE_PYTHON_BYTES_H_
