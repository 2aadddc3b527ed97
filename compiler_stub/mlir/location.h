// Where a construct of a program is written, for messages.
#ifndef PJRTX_COMPILER_STUB_MLIR_LOCATION_H_
#define PJRTX_COMPILER_STUB_MLIR_LOCATION_H_

#include <memory>
#include <string>

namespace pjrtx::mlir {

// Where a construct comes from. For MLIR text: the 1-based line and column
// of its first character, no file. For a portable artifact: the source
// position its MLIR location names (for JAX, the user's Python file, line
// and column), or nothing (line 0) when it names none. LocationText (in
// location_text.h) writes it for messages.
struct Location {
  int line = 0;
  int column = 0;
  // Shared: every op of an artifact traced from one file names it, and
  // copies of the tree copy locations often. (The initializer keeps
  // `Location{line, column}` free of missing-initializer warnings.)
  std::shared_ptr<const std::string> file = nullptr;
};

}  // namespace pjrtx::mlir

#endif  // PJRTX_COMPILER_STUB_MLIR_LOCATION_H_
