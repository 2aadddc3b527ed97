// How the contracting kernels (dot_general, convolution) sum their
// products, as the CPU's reference kernels do (runtime/cpu/accumulation.h),
// so that results are the same bits:
//   f32 and f64 results: in f64 (products of f32 values are exact there,
//     so an f32 result rounds once, at the end);
//   f16 and bf16 results: in f32 (products of 16-bit values are exact),
//     rounded once to the result type at the end;
//   integers: in 64 bits, wrapping, operands extended as their type says,
//     the sum narrowed to the result type at the end;
//   i1: "or" of "and"s.
#ifndef PJRTX_COMPILER_STUB_PTX_ACCUMULATION_H_
#define PJRTX_COMPILER_STUB_PTX_ACCUMULATION_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler_stub/ir/program.h"
#include "compiler_stub/ptx/kernel_writer.h"

namespace pjrtx::ptx {

// The accumulator of `instruction` (operands 0 and 1, result 0), or
// UNIMPLEMENTED naming the three types when the kernels cannot sum them.
absl::StatusOr<ir::ElementType> AccumulatorFor(
    const ir::Instruction& instruction);

// A new accumulator register of `type`, set to zero.
Register NewAccumulator(KernelWriter& writer, ir::ElementType type);

// acc += x * y, x and y converted to acc's type first; the product and the
// sum each rounded (never contracted into an fma), as on the CPU.
absl::Status MultiplyAccumulate(KernelWriter& writer,
                                const ir::Instruction& instruction,
                                const Register& acc, const Register& x,
                                const Register& y);

// acc += lhs[lhs_offset] * rhs[rhs_offset], the operands being inputs 0
// and 1 of `writer` (element offsets in .b64 registers).
absl::Status LoadMultiplyAccumulate(KernelWriter& writer,
                                    const ir::Instruction& instruction,
                                    const Register& acc,
                                    const std::string& lhs_offset,
                                    const std::string& rhs_offset);

// Stores `acc` rounded to the result type as output element `index`.
absl::Status StoreAccumulator(KernelWriter& writer,
                              const ir::Instruction& instruction,
                              const Register& acc, const std::string& index);

}  // namespace pjrtx::ptx

#endif  // PJRTX_COMPILER_STUB_PTX_ACCUMULATION_H_
