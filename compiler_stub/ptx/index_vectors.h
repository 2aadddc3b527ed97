// What gather and scatter share: the index vectors of their index array as
// seen from the array each thread walks (gather's result, scatter's
// updates), and which walked dimensions give the window offsets.
#ifndef PJRTX_COMPILER_STUB_PTX_INDEX_VECTORS_H_
#define PJRTX_COMPILER_STUB_PTX_INDEX_VECTORS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler_stub/ptx/kernel_writer.h"

namespace pjrtx::ptx {

class IndexVectors {
 public:
  // `indices` (input `input` of the kernel) holds a vector along
  // `index_vector_dim` (none when it equals the rank); the walked array's
  // dimensions not in `window_dims` index its other dimensions, in order.
  // UNIMPLEMENTED, attributed to `instruction`, for non-integer indices.
  static absl::StatusOr<IndexVectors> Create(
      const ir::Instruction& instruction, int input, int64_t index_vector_dim,
      int64_t walked_rank, const std::vector<int64_t>& window_dims);

  // The walked dimension that indexes dimension `d` of the index array (a
  // batching dimension, never index_vector_dim).
  int64_t WalkedDim(int64_t d) const { return walked_dim_of_index_[d]; }

  // Component `i` of the vector of the walked multi-index `walked`, read
  // as an s64 in a new register.
  absl::StatusOr<std::string> Component(KernelWriter& writer,
                                        const std::vector<std::string>& walked,
                                        int64_t i) const;

 private:
  IndexVectors() = default;

  const ir::Instruction* instruction_ = nullptr;
  int input_ = 0;
  ir::ElementType type_ = ir::ElementType::kS32;
  std::vector<int64_t> walked_dim_of_index_;  // -1 for the vector's.
  std::vector<int64_t> strides_;
  int64_t vector_stride_ = 0;
};

// For each of the operand's `rank` dimensions, the walked dimension giving
// the offset inside the window, or -1 for the dimensions the window drops
// (`dropped` and `batching`): `window_dims` fill the others in order.
std::vector<int64_t> WindowSources(int64_t rank,
                                   const std::vector<int64_t>& window_dims,
                                   const std::vector<int64_t>& dropped,
                                   const std::vector<int64_t>& batching);

}  // namespace pjrtx::ptx

#endif  // PJRTX_COMPILER_STUB_PTX_INDEX_VECTORS_H_
