// The ABI signature of a compiled program's entry: what a plugin reports
// as its executable's inputs and outputs.
#ifndef PJRTX_RUNTIME_CPU_PROGRAM_SIGNATURE_H_
#define PJRTX_RUNTIME_CPU_PROGRAM_SIGNATURE_H_

#include <vector>

#include "absl/status/statusor.h"
#include "compiler_stub/ir/element_type.h"
#include "compiler_stub/ir/program.h"
#include "pjrtx/pjrtx_c_api.h"
#include "runtime/core/base/driver.h"

namespace pjrtx::cpu {

PJRTX_Buffer_Type ToBufferType(ir::ElementType type);

// One signature per type; UNIMPLEMENTED for a tuple or token (entry
// functions take and return tensors only). `what` ("argument", "result")
// names them in the error. Where `complex` (may be shorter than `types`)
// is true, the type is a complex buffer's parts, [..., 2] of f32 or f64:
// its signature is C64 or C128 without the last dimension.
absl::StatusOr<std::vector<ArraySignature>> Signatures(
    const std::vector<ir::ValueType>& types, const std::vector<bool>& complex,
    const char* what);

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_PROGRAM_SIGNATURE_H_
