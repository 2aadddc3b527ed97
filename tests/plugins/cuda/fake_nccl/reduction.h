// The arithmetic of the fake NCCL's reductions, per NCCL data type.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_REDUCTION_H_
#define PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_REDUCTION_H_

#include <nccl.h>

#include <cstddef>
#include <cstdint>

namespace fake_nccl {

// Bytes per element of `type`, 0 for a value outside ncclDataType_t.
size_t TypeSize(ncclDataType_t type);

// Whether `op` is one the fake reduces with (sum, prod, max, min).
bool KnownOp(ncclRedOp_t op);

// inout[i] = op(inout[i], in[i]) for `count` elements of `type`. Integers
// wrap; 16-bit and 8-bit floats are widened to float and rounded back to
// nearest even (FP8 saturating to the largest finite value, as NCCL's
// conversions do); min and max of a NaN give NaN.
void Reduce(ncclDataType_t type, ncclRedOp_t op, void* inout, const void* in,
            size_t count);

// Conversions of the narrow float types, exposed for tests.
float HalfToFloat(uint16_t bits);
uint16_t FloatToHalf(float value);
float Bfloat16ToFloat(uint16_t bits);
uint16_t FloatToBfloat16(float value);
float Fp8ToFloat(uint8_t bits, bool e4m3);
uint8_t FloatToFp8(float value, bool e4m3);

}  // namespace fake_nccl

#endif  // PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_REDUCTION_H_
