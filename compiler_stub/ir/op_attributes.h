// Typed attributes of StableHLO ops, shared by the verified program and the
// kernels that execute it.
#ifndef PJRTX_COMPILER_STUB_IR_OP_ATTRIBUTES_H_
#define PJRTX_COMPILER_STUB_IR_OP_ATTRIBUTES_H_

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace pjrtx::ir {

enum class UnaryOp {
  kAbs,
  kCbrt,
  kCeil,
  kCosine,
  kCountLeadingZeros,
  kDigamma,  // chlo.digamma
  kErf,      // chlo.erf
  kErfc,     // chlo.erfc
  kErfInv,   // chlo.erf_inv
  kExp2,     // 2^x (stablehlo.exp2, StableHLO 1.23)
  kExponential,
  kExponentialMinusOne,
  kFloor,
  kIsFinite,
  kLgamma,  // chlo.lgamma
  kLog,
  kLog2,  // log base 2 (stablehlo.log2, StableHLO 1.23)
  kLogPlusOne,
  kLogistic,
  kNegate,
  kNot,
  kPopcnt,
  kRoundNearestAfz,
  kRoundNearestEven,
  kRsqrt,
  kSign,
  kSine,
  kSqrt,
  kTan,
  kTanh,
};
enum class BinaryOp {
  kAdd,
  kAnd,
  kAtan2,
  kDivide,
  kMaximum,
  kMinimum,
  kMultiply,
  kOr,
  kPower,
  kRemainder,
  kShiftLeft,
  kShiftRightArithmetic,
  kShiftRightLogical,
  kSubtract,
  kXor,
};
enum class ComparisonDirection { kEq, kNe, kGe, kGt, kLe, kLt };
// NOTYPE means "by element type" (FLOAT for floats, SIGNED/UNSIGNED for
// integers); TOTALORDER uses the IEEE totalOrder predicate; WEAKORDER
// (floats only, StableHLO 1.22) orders as FLOAT except that -0 equals +0
// and every NaN equals every other and is above +inf.
enum class ComparisonType {
  kNoType,
  kFloat,
  kTotalOrder,
  kSigned,
  kUnsigned,
  kWeakOrder
};

// The dimensions of a rank-`rank` operand that are neither batching nor
// contracting, ascending: the order dot_general's result lists them in.
inline std::vector<int64_t> FreeDimensions(
    int64_t rank, const std::vector<int64_t>& batching,
    const std::vector<int64_t>& contracting) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d) {
    if (std::find(batching.begin(), batching.end(), d) == batching.end() &&
        std::find(contracting.begin(), contracting.end(), d) ==
            contracting.end()) {
      free.push_back(d);
    }
  }
  return free;
}

struct DotDimensions {
  std::vector<int64_t> lhs_batching, rhs_batching;
  std::vector<int64_t> lhs_contracting, rhs_contracting;
};

struct ConvolutionDimensions {
  int64_t input_batch = 0, input_feature = 0;
  std::vector<int64_t> input_spatial;
  int64_t kernel_input_feature = 0, kernel_output_feature = 0;
  std::vector<int64_t> kernel_spatial;
  int64_t output_batch = 0, output_feature = 0;
  std::vector<int64_t> output_spatial;
};
struct ConvolutionWindow {
  std::vector<int64_t> strides;  // Per spatial dim; default 1.
  std::vector<std::pair<int64_t, int64_t>> padding;  // Default (0, 0).
  std::vector<int64_t> lhs_dilation;                 // Default 1.
  std::vector<int64_t> rhs_dilation;                 // Default 1.
  std::vector<bool> window_reversal;                 // Default false.
};

struct WindowSpec {
  std::vector<int64_t> dimensions;
  std::vector<int64_t> strides;                      // Default 1.
  std::vector<int64_t> base_dilations;               // Default 1.
  std::vector<int64_t> window_dilations;             // Default 1.
  std::vector<std::pair<int64_t, int64_t>> padding;  // Default (0, 0).
};

struct GatherDimensions {
  std::vector<int64_t> offset_dims;
  std::vector<int64_t> collapsed_slice_dims;
  std::vector<int64_t> operand_batching_dims;
  std::vector<int64_t> start_indices_batching_dims;
  std::vector<int64_t> start_index_map;
  int64_t index_vector_dim = 0;
};

struct ScatterDimensions {
  std::vector<int64_t> update_window_dims;
  std::vector<int64_t> inserted_window_dims;
  std::vector<int64_t> input_batching_dims;
  std::vector<int64_t> scatter_indices_batching_dims;
  std::vector<int64_t> scatter_dims_to_operand_dims;
  int64_t index_vector_dim = 0;
};

// triangular_solve: solves op(a) x = b (left_side) or x op(a) = b for x,
// where op(a) is a or its transpose (ADJOINT is the transpose for real
// types) and a is the triangle `lower` names; the other triangle is never
// read, nor the diagonal when unit_diagonal (it is taken as ones).
struct TriangularSolveOptions {
  bool left_side = true;
  bool lower = true;
  bool unit_diagonal = false;
  bool transpose_a = false;
};

}  // namespace pjrtx::ir

#endif  // PJRTX_COMPILER_STUB_IR_OP_ATTRIBUTES_H_
