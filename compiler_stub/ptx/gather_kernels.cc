// gather: each thread computes one result element. Its multi-index splits
// into batch dimensions (which pick an index vector of start_indices, and
// the coordinates of the batching dimensions) and offset dimensions (the
// position inside the slice); the operand element is the sum of the
// clamped start, the batching coordinate and the offset, per operand
// dimension, as the CPU target computes it.
#include <cstdint>
#include <string>
#include <vector>

#include "compiler_stub/ptx/index_vectors.h"
#include "compiler_stub/ptx/kernel_writer.h"
#include "support/status_macros.h"

namespace pjrtx::ptx {

absl::Status EmitGatherKernel(KernelWriter& writer,
                              const ir::Instruction& instruction) {
  const ir::GatherDimensions& dims = instruction.attributes.gather;
  const std::vector<int64_t>& slice_sizes = instruction.attributes.dims;
  const ir::Shape& operand = instruction.operand_types[0].shape;
  const ir::Shape& result = instruction.result_types[0].shape;
  const int64_t rank = static_cast<int64_t>(operand.dims.size());
  PJRTX_ASSIGN_OR_RETURN(
      IndexVectors vectors,
      IndexVectors::Create(instruction, 1, dims.index_vector_dim,
                           static_cast<int64_t>(result.dims.size()),
                           dims.offset_dims));
  const std::vector<int64_t> offset_sources =
      WindowSources(rank, dims.offset_dims, dims.collapsed_slice_dims,
                    dims.operand_batching_dims);
  const std::vector<int64_t> operand_strides = RowMajorStrides(operand.dims);
  const size_t element_size = ir::StorageSize(result.type);

  const std::string index = writer.BeginLoop();
  const std::vector<std::string> multi = writer.Unflatten(index, result.dims);
  std::vector<std::string> terms;
  std::vector<int64_t> coefficients;
  for (int64_t d = 0; d < rank; ++d) {
    if (offset_sources[d] < 0) continue;
    terms.push_back(multi[offset_sources[d]]);
    coefficients.push_back(operand_strides[d]);
  }
  // Starts, clamped so that the whole slice is in bounds.
  PtxBuilder& b = writer.builder();
  for (size_t i = 0; i < dims.start_index_map.size(); ++i) {
    const int64_t d = dims.start_index_map[i];
    PJRTX_ASSIGN_OR_RETURN(
        std::string component,
        vectors.Component(writer, multi, static_cast<int64_t>(i)));
    const std::string low = writer.NewB64();
    b.Emit("max.s64", {low, component, "0"});
    const std::string start = writer.NewB64();
    b.Emit("min.s64",
           {start, low, Immediate(operand.dims[d] - slice_sizes[d])});
    terms.push_back(start);
    coefficients.push_back(operand_strides[d]);
  }
  // Batching dimensions: the coordinate of the matching start_indices
  // dimension.
  for (size_t i = 0; i < dims.operand_batching_dims.size(); ++i) {
    terms.push_back(
        multi[vectors.WalkedDim(dims.start_indices_batching_dims[i])]);
    coefficients.push_back(operand_strides[dims.operand_batching_dims[i]]);
  }
  const std::string source = writer.Affine(terms, coefficients, 0);
  writer.Copy(element_size,
              writer.Address(writer.input(0), source, element_size),
              writer.Address(writer.output(0), index, element_size));
  writer.EndLoop();
  return absl::OkStatus();
}

}  // namespace pjrtx::ptx
