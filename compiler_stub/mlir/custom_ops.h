// Where the custom (pretty) syntax of each known op is found.
#ifndef PJRTX_COMPILER_STUB_MLIR_CUSTOM_OPS_H_
#define PJRTX_COMPILER_STUB_MLIR_CUSTOM_OPS_H_

#include <string_view>

#include "absl/status/status.h"
#include "compiler_stub/mlir/custom_op_helpers.h"

namespace pjrtx::mlir {

// The parser of the custom form of the op with this full name, or nullptr.
CustomOpParser FindCustomOpParser(std::string_view name);

// stablehlo_ops.cc: by mnemonic, e.g. "add" for stablehlo.add.
CustomOpParser FindStablehloOpParser(std::string_view mnemonic);
// support_ops.cc: the func, check, interpreter and chlo ops.
CustomOpParser FindSupportOpParser(std::string_view name);
// sdy_ops.cc: Shardy's ops, by full name.
CustomOpParser FindSdyOpParser(std::string_view name);

// stablehlo_region_ops.cc: the custom forms that carry regions.
absl::Status ParseWhileOp(Parser& parser, Operation& op);
absl::Status ParseReduceOp(Parser& parser, Operation& op);
absl::Status ParseIfOp(Parser& parser, Operation& op);

}  // namespace pjrtx::mlir

#endif  // PJRTX_COMPILER_STUB_MLIR_CUSTOM_OPS_H_
