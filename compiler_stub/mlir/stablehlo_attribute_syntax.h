// The short spellings StableHLO's custom op syntaxes use for structured
// attributes, each turned into what the generic form writes:
//   [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]     #stablehlo.conv<...> fields
//   stride = [2], pad = [[1, 1]], ...            window_strides, padding, ...
//   batching_dims = [0] x [0], contracting_dims  #stablehlo.dot<...> fields
//   precision = [DEFAULT, HIGH]                   precision_config
//   algorithm = <lhs_precision_type = tf32, ...>  #stablehlo.dot_algorithm
#ifndef PJRTX_COMPILER_STUB_MLIR_STABLEHLO_ATTRIBUTE_SYNTAX_H_
#define PJRTX_COMPILER_STUB_MLIR_STABLEHLO_ATTRIBUTE_SYNTAX_H_

#include "absl/status/status.h"
#include "compiler_stub/mlir/ast.h"
#include "compiler_stub/mlir/parser_impl.h"

namespace pjrtx::mlir {

// The compact convolution layout, as the fields of #stablehlo.conv<...>:
// input_batch_dimension, input_feature_dimension, input_spatial_dimensions,
// kernel_input_feature_dimension, kernel_output_feature_dimension,
// kernel_spatial_dimensions, output_batch_dimension,
// output_feature_dimension, output_spatial_dimensions.
absl::Status ParseConvDimensionNumbers(Parser& parser, NamedAttributes* out);

// The inside of `window = {...}`: stride, pad, lhs_dilate, rhs_dilate and
// reverse, added to `op` as window_strides, padding (an Nx2 i64 dense
// literal), lhs_dilation, rhs_dilation (array<i64>) and window_reversal
// (array<i1>).
absl::Status ParseWindowAttributes(Parser& parser, Operation& op);

// `[batching_dims = [..] x [..],] contracting_dims = [..] x [..]` as
// dot_dimension_numbers, a #stablehlo.dot<...> whose empty fields are
// left out as the generic printer leaves them out.
absl::Status ParseDotDimensionNumbers(Parser& parser, Operation& op);

// Any of `, precision = [..]` and `, algorithm = <..>` that follow, as
// precision_config and algorithm.
absl::Status ParseOptionalPrecisionAndAlgorithm(Parser& parser, Operation& op);

}  // namespace pjrtx::mlir

#endif  // PJRTX_COMPILER_STUB_MLIR_STABLEHLO_ATTRIBUTE_SYNTAX_H_
