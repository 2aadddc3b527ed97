#include "compiler_stub/mlir/custom_ops.h"

namespace pjrtx::mlir {

CustomOpParser FindCustomOpParser(std::string_view name) {
  constexpr std::string_view kStablehlo = "stablehlo.";
  if (name.substr(0, kStablehlo.size()) == kStablehlo) {
    return FindStablehloOpParser(name.substr(kStablehlo.size()));
  }
  constexpr std::string_view kSdy = "sdy.";
  if (name.substr(0, kSdy.size()) == kSdy) return FindSdyOpParser(name);
  return FindSupportOpParser(name);
}

}  // namespace pjrtx::mlir
