// Element-wise reduction of one host buffer into another: the arithmetic
// step of every reducing collective.
#ifndef PJRTX_RUNTIME_COLLECTIVES_REDUCTION_H_
#define PJRTX_RUNTIME_COLLECTIVES_REDUCTION_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "pjrtx/pjrtx_c_api.h"

namespace pjrtx::collectives {

enum class ReduceOp { kSum, kProduct, kMin, kMax };

// "sum", "product", "min" or "max".
absl::string_view ReduceOpName(ReduceOp op);

// The ABI's reduction (a value checked beforehand; others read as sum).
ReduceOp ReduceOpOf(PJRTX_ReduceOp op);

// Bytes per element of a type that Reduce and Accumulate support, or
// UNIMPLEMENTED naming the type and listing the supported ones. Collectives
// call it first, so an unsupported type fails before any message is sent.
absl::StatusOr<size_t> ReducibleElementSize(PJRTX_Buffer_Type type);

// How a collective reduces buffers of one element type: element by
// element of `type`, `values_per_element` of them per buffer element.
// Complex buffers (C64, C128) sum as the pairs of floats they are; their
// other reductions are not elementwise on the parts (or, for min and max,
// not defined), so only sums are supported.
struct ReductionLayout {
  PJRTX_Buffer_Type type = PJRTX_Buffer_Type_F32;
  size_t values_per_element = 1;
  size_t element_size = 0;  // Bytes per element of the buffer's type.
};
absl::StatusOr<ReductionLayout> ReductionLayoutOf(PJRTX_Buffer_Type type,
                                                  ReduceOp op);

// out[i] = op(a[i], b[i]) for i in 0..count-1, for S8..S64, U8..U64, F16,
// BF16, F32 and F64. Integers wrap on overflow (two's complement), so
// the result does not depend on the order ranks are combined in. F16 and
// BF16 are widened to float for each operation and rounded back (to
// nearest even). Min and max of floats return NaN when either side is NaN,
// as XLA does. The buffers need no particular alignment; `out` may be
// either input, but must not overlap one in part.
absl::Status Reduce(ReduceOp op, PJRTX_Buffer_Type type, void* out,
                    const void* a, const void* b, size_t count);

// Reduce in place: inout[i] = op(inout[i], in[i]).
absl::Status Accumulate(ReduceOp op, PJRTX_Buffer_Type type, void* inout,
                        const void* in, size_t count);

// Conversions used for F16 and BF16, exposed for tests.
float HalfToFloat(uint16_t half);
uint16_t FloatToHalf(float value);
float BFloat16ToFloat(uint16_t bfloat16);
uint16_t FloatToBFloat16(float value);

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_REDUCTION_H_
