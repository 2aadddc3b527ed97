#include "compiler_stub/ptx/plain_matmul.h"

namespace pjrtx::ptx {
namespace {

using ir::ElementType;

// Whether lhs x rhs -> result is a combination the plugin runs through a
// matrix library, summing in f32.
bool LibraryTypes(ElementType lhs, ElementType rhs, ElementType result,
                  int sm) {
  if (lhs != rhs) return false;
  switch (lhs) {
    case ElementType::kF32:
      return result == ElementType::kF32;
    case ElementType::kBF16:
      return result == ElementType::kBF16 || result == ElementType::kF32;
    case ElementType::kF8E4M3FN:
      // FP8 tensor cores start with Hopper (sm_90).
      return sm >= 90 &&
             (result == ElementType::kF32 || result == ElementType::kBF16);
    default:
      return false;
  }
}

}  // namespace

std::optional<PlannedMatmul> AsPlainMatmul(const ir::Instruction& dot, int sm) {
  if (dot.opcode != ir::OpCode::kDotGeneral || dot.operand_types.size() != 2 ||
      dot.result_types.size() != 1) {
    return std::nullopt;
  }
  const ir::Shape& lhs = dot.operand_types[0].shape;
  const ir::Shape& rhs = dot.operand_types[1].shape;
  const ir::Shape& result = dot.result_types[0].shape;
  if (!LibraryTypes(lhs.type, rhs.type, result.type, sm)) return std::nullopt;
  const ir::DotDimensions& dims = dot.attributes.dot;
  const int batch_rank = static_cast<int>(dims.lhs_batching.size());
  // [batch..., m, k] and [batch..., k, n] or [batch..., n, k]: one m, one
  // n, one k; a matrix-vector product stays with the kernel.
  if (lhs.rank() != batch_rank + 2 || rhs.rank() != batch_rank + 2 ||
      result.rank() != batch_rank + 2 || dims.lhs_contracting.size() != 1 ||
      dims.rhs_contracting.size() != 1) {
    return std::nullopt;
  }
  for (int d = 0; d < batch_rank; ++d) {
    if (dims.lhs_batching[d] != d || dims.rhs_batching[d] != d) {
      return std::nullopt;
    }
  }
  if (dims.lhs_contracting[0] != batch_rank + 1) return std::nullopt;
  PlannedMatmul matmul;
  if (dims.rhs_contracting[0] == batch_rank) {
    matmul.rhs_transposed = false;
  } else if (dims.rhs_contracting[0] == batch_rank + 1) {
    matmul.rhs_transposed = true;
  } else {
    return std::nullopt;
  }
  matmul.lhs_type = lhs.type;
  matmul.rhs_type = rhs.type;
  matmul.result_type = result.type;
  for (int d = 0; d < batch_rank; ++d) matmul.batch *= lhs.dims[d];
  matmul.m = lhs.dims[batch_rank];
  matmul.k = lhs.dims[batch_rank + 1];
  matmul.n = rhs.dims[matmul.rhs_transposed ? batch_rank : batch_rank + 1];
  // An empty matmul writes nothing, or only zeros (k = 0): the kernel's
  // business, as libraries differ on empty shapes.
  if (matmul.batch == 0 || matmul.m == 0 || matmul.n == 0 || matmul.k == 0) {
    return std::nullopt;
  }
  matmul.lhs = dot.operands[0];
  matmul.rhs = dot.operands[1];
  matmul.result = dot.results[0];
  matmul.result_bytes = result.size_bytes();
  return matmul;
}

}  // namespace pjrtx::ptx
