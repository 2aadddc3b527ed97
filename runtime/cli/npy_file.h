// NumPy .npy files holding one dense array: how `pjrtx run-mlir` takes a
// program's arguments and hands back its results.
#ifndef PJRTX_RUNTIME_CLI_NPY_FILE_H_
#define PJRTX_RUNTIME_CLI_NPY_FILE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace pjrtx::cli {

struct NpyArray {
  // NumPy's type code without the byte order: kind and item size, e.g.
  // "f4", "b1", "c16", or "V2" for raw items of 2 bytes (how NumPy saves
  // ml_dtypes' bfloat16 and float8 arrays).
  std::string code;
  std::vector<int64_t> dims;
  // The elements in C (row-major) order, little-endian.
  std::vector<uint8_t> data;
};

// The item size of a type code ("f4" -> 4); 0 when it is not one.
int64_t NpyItemSize(const std::string& code);

// Reads an .npy file of format 1.0, 2.0 or 3.0. INVALID_ARGUMENT naming
// the file for anything else; UNIMPLEMENTED for arrays it does not take:
// Fortran order, big-endian items, structured, object or string arrays.
absl::StatusOr<NpyArray> ReadNpy(const std::string& path);

// Writes `array` as format 1.0 (2.0 where its header needs it), as
// numpy.save does: np.load reads it back.
absl::Status WriteNpy(const std::string& path, const NpyArray& array);

}  // namespace pjrtx::cli

#endif  // PJRTX_RUNTIME_CLI_NPY_FILE_H_
