// Which NumPy arrays stand for which buffer element types, for the .npy
// files `pjrtx run-mlir` reads and writes.
#ifndef PJRTX_RUNTIME_CLI_NPY_ELEMENT_TYPE_H_
#define PJRTX_RUNTIME_CLI_NPY_ELEMENT_TYPE_H_

#include <string>

#include "absl/status/statusor.h"
#include "pjrtx/pjrtx_c_api.h"

namespace pjrtx::cli {

// The NumPy type code (as NpyArray::code) an array of `type` is written
// with: "b1" for PRED, "i4" for S32, "c8" for C64, ...; "V<n>", raw items
// of n bytes, for the types NumPy has no code of its own for (BF16 and the
// 8-bit floats: numpy.save writes ml_dtypes' arrays the same way, and
// numpy.load(...).view(ml_dtypes.bfloat16) reads them). UNIMPLEMENTED for
// types not held one element per whole number of bytes (S4, U4, ...).
absl::StatusOr<std::string> NpyCodeOf(PJRTX_Buffer_Type type);

// Whether an array of NumPy type `code` can be an argument of `type`: the
// same code, or raw items of the type's size.
bool NpyCodeFits(const std::string& code, PJRTX_Buffer_Type type);

}  // namespace pjrtx::cli

#endif  // PJRTX_RUNTIME_CLI_NPY_ELEMENT_TYPE_H_
