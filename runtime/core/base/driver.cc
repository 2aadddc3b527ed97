#include "runtime/core/base/driver.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace pjrtx {

absl::StatusOr<CompiledProgram> Driver::Compile(std::string_view format,
                                                std::string_view code,
                                                const ProgramOptions& options) {
  return absl::UnimplementedError(
      absl::StrCat("This plugin cannot compile programs (format '",
                   std::string(format), "')"));
}

}  // namespace pjrtx
