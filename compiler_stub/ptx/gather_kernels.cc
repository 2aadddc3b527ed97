// gather: each thread computes one result element. Its multi-index splits
// into batch dimensions (which pick an index vector of start_indices, and
// the coordinates of the batching dimensions) and offset dimensions (the
// position inside the slice); the operand element is the sum of the
// clamped start, the batching coordinate and the offset, per operand
// dimension, as the CPU target computes it.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler_stub/ptx/kernel_writer.h"

namespace pjrtx::ptx {
namespace {

using ir::ElementType;
using ir::Instruction;

bool Contains(const std::vector<int64_t>& values, int64_t value) {
  for (int64_t v : values) {
    if (v == value) return true;
  }
  return false;
}

}  // namespace

absl::Status EmitGatherKernel(KernelWriter& writer,
                              const Instruction& instruction) {
  const ir::GatherDimensions& dims = instruction.attributes.gather;
  const std::vector<int64_t>& slice_sizes = instruction.attributes.dims;
  const ir::Shape& operand = instruction.operand_types[0].shape;
  const ir::Shape& indices = instruction.operand_types[1].shape;
  const ir::Shape& result = instruction.result_types[0].shape;
  const ElementType index_type = indices.type;
  if (!ir::IsInteger(index_type)) {
    return Unsupported(instruction,
                       absl::StrCat("with ", ir::ElementTypeToMlir(index_type),
                                    " start indices"));
  }
  const int64_t rank = static_cast<int64_t>(operand.dims.size());
  const int64_t index_rank = static_cast<int64_t>(indices.dims.size());
  const std::vector<int64_t> operand_strides = RowMajorStrides(operand.dims);
  const std::vector<int64_t> index_strides = RowMajorStrides(indices.dims);
  const size_t element_size = ir::StorageSize(result.type);
  const size_t index_size = ir::StorageSize(index_type);

  // The result's batch dimensions, in order, index the dimensions of
  // start_indices other than index_vector_dim.
  std::vector<int64_t> batch_dims;
  for (int64_t d = 0; d < static_cast<int64_t>(result.dims.size()); ++d) {
    if (!Contains(dims.offset_dims, d)) batch_dims.push_back(d);
  }
  std::vector<int64_t> result_dim_of_index(index_rank, -1);
  for (int64_t d = 0, j = 0; d < index_rank; ++d) {
    if (d != dims.index_vector_dim) result_dim_of_index[d] = batch_dims[j++];
  }
  const int64_t vector_stride = dims.index_vector_dim < index_rank
                                    ? index_strides[dims.index_vector_dim]
                                    : 0;

  const std::string index = writer.BeginLoop();
  const std::vector<std::string> multi = writer.Unflatten(index, result.dims);
  // Where this element's index vector starts in start_indices.
  std::vector<std::string> batch_terms;
  std::vector<int64_t> batch_coefficients;
  for (int64_t d = 0; d < index_rank; ++d) {
    if (result_dim_of_index[d] < 0) continue;
    batch_terms.push_back(multi[result_dim_of_index[d]]);
    batch_coefficients.push_back(index_strides[d]);
  }

  std::vector<std::string> terms;
  std::vector<int64_t> coefficients;
  // Offsets: the offset dimensions fill the operand dimensions the slice
  // keeps, in order.
  for (int64_t d = 0, next = 0; d < rank; ++d) {
    if (Contains(dims.collapsed_slice_dims, d) ||
        Contains(dims.operand_batching_dims, d)) {
      continue;
    }
    terms.push_back(multi[dims.offset_dims[next++]]);
    coefficients.push_back(operand_strides[d]);
  }
  // Starts, clamped so that the whole slice is in bounds.
  PtxBuilder& b = writer.builder();
  for (size_t i = 0; i < dims.start_index_map.size(); ++i) {
    const int64_t d = dims.start_index_map[i];
    const std::string element =
        writer.Affine(batch_terms, batch_coefficients,
                      static_cast<int64_t>(i) * vector_stride);
    const Register raw = writer.Load(
        index_type, writer.Address(writer.input(1), element, index_size));
    absl::StatusOr<Register> wide =
        ConvertRegister(writer, instruction, raw, ElementType::kS64);
    if (!wide.ok()) return wide.status();
    const std::string low = writer.NewB64();
    b.Emit("max.s64", {low, wide->name, "0"});
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
        multi[result_dim_of_index[dims.start_indices_batching_dims[i]]]);
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
