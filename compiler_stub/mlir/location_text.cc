#include "compiler_stub/mlir/location_text.h"

#include "absl/strings/str_cat.h"

namespace pjrtx::mlir {

std::string LocationText(const Location& location) {
  if (location.file != nullptr && !location.file->empty()) {
    return absl::StrCat(*location.file, ":", location.line, ":",
                        location.column);
  }
  return absl::StrCat(location.line, ":", location.column);
}

}  // namespace pjrtx::mlir
