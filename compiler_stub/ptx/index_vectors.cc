#include "compiler_stub/ptx/index_vectors.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "support/status_macros.h"

namespace pjrtx::ptx {
namespace {

bool Contains(const std::vector<int64_t>& values, int64_t value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

}  // namespace

absl::StatusOr<IndexVectors> IndexVectors::Create(
    const ir::Instruction& instruction, int input, int64_t index_vector_dim,
    int64_t walked_rank, const std::vector<int64_t>& window_dims) {
  const ir::Shape& indices = instruction.operand_types[input].shape;
  if (!ir::IsInteger(indices.type)) {
    return Unsupported(
        instruction,
        absl::StrCat("with ", ir::ElementTypeToMlir(indices.type), " indices"));
  }
  IndexVectors vectors;
  vectors.instruction_ = &instruction;
  vectors.input_ = input;
  vectors.type_ = indices.type;
  vectors.strides_ = RowMajorStrides(indices.dims);
  const int64_t rank = static_cast<int64_t>(indices.dims.size());
  std::vector<int64_t> walked;
  for (int64_t d = 0; d < walked_rank; ++d) {
    if (!Contains(window_dims, d)) walked.push_back(d);
  }
  vectors.walked_dim_of_index_.assign(rank, -1);
  for (int64_t d = 0, j = 0; d < rank; ++d) {
    if (d != index_vector_dim) vectors.walked_dim_of_index_[d] = walked[j++];
  }
  vectors.vector_stride_ =
      index_vector_dim < rank ? vectors.strides_[index_vector_dim] : 0;
  return vectors;
}

absl::StatusOr<std::string> IndexVectors::Component(
    KernelWriter& writer, const std::vector<std::string>& walked,
    int64_t i) const {
  std::vector<std::string> terms;
  std::vector<int64_t> coefficients;
  for (size_t d = 0; d < walked_dim_of_index_.size(); ++d) {
    if (walked_dim_of_index_[d] < 0) continue;
    terms.push_back(walked[walked_dim_of_index_[d]]);
    coefficients.push_back(strides_[d]);
  }
  const std::string element =
      writer.Affine(terms, coefficients, i * vector_stride_);
  const Register raw = writer.Load(
      type_,
      writer.Address(writer.input(input_), element, ir::StorageSize(type_)));
  PJRTX_ASSIGN_OR_RETURN(
      Register wide,
      ConvertRegister(writer, *instruction_, raw, ir::ElementType::kS64));
  return wide.name;
}

std::vector<int64_t> WindowSources(int64_t rank,
                                   const std::vector<int64_t>& window_dims,
                                   const std::vector<int64_t>& dropped,
                                   const std::vector<int64_t>& batching) {
  std::vector<int64_t> sources(rank, -1);
  size_t next = 0;
  for (int64_t d = 0; d < rank; ++d) {
    if (Contains(dropped, d) || Contains(batching, d)) continue;
    sources[d] = window_dims[next++];
  }
  return sources;
}

}  // namespace pjrtx::ptx
